import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { requireAdmin, requireUser } from './guards';

/**
 * The API's reference, built from the routes' own JSON schemas (they validate every request and
 * shape every answer, so the document cannot drift from the code): OpenAPI 3.1 at
 * /api/v1/openapi.json and a reference page at /api/docs (served from the package, works offline).
 * Each route gets its tag (the path's first segment), its one-line summary below, and the bearer
 * security when a session is required.
 */

/** One line per route: what it does, for the reference page. */
export const ROUTE_SUMMARIES: Record<string, string> = {
  'GET /api/v1/health': 'Health: database and queue (the media tools and versions for an admin)',
  'GET /api/v1/health/live': 'Liveness: the process answers',
  'GET /api/v1/health/ready': 'Readiness: the database (and queue) answer',
  'POST /api/v1/auth/register': 'Create an account and sign in',
  'POST /api/v1/auth/login': 'Sign in with email and password',
  'GET /api/v1/auth/me': 'The signed-in user',
  'PUT /api/v1/auth/profile': 'Change name, email, time zone or language',
  'POST /api/v1/auth/logout': 'Sign out: revoke this session',
  'POST /api/v1/auth/verify-email': 'Confirm the email address with the link’s token (and the password, for an admin address)',
  'POST /api/v1/auth/verify-email/resend': 'Send the confirmation link again',
  'PUT /api/v1/auth/password': 'Change the password',
  'DELETE /api/v1/auth/account': 'Delete the account and everything it owns',
  'POST /api/v1/auth/reset-password': 'Email a password reset link',
  'POST /api/v1/auth/reset-password/confirm': 'Set a new password with the reset token',
  'GET /api/v1/auth/sessions': 'The account’s signed-in devices',
  'DELETE /api/v1/auth/sessions/:id': 'Sign one of the account’s devices out',
  'POST /api/v1/auth/sessions/revoke-others': 'Sign out everywhere else',
  'GET /api/v1/channels/': 'List the user’s channels',
  'GET /api/v1/channels/:id': 'One channel',
  'POST /api/v1/channels/': 'Connect a channel',
  'PUT /api/v1/channels/:id': 'Change a channel',
  'PUT /api/v1/channels/:id/toggle': 'Switch a channel on or off',
  'DELETE /api/v1/channels/:id': 'Remove a channel',
  'GET /api/v1/chatgpt/config': 'The chat-model configuration (key masked)',
  'POST /api/v1/chatgpt/config': 'Save the chat-model configuration',
  'PUT /api/v1/chatgpt/config': 'Change the chat-model configuration',
  'DELETE /api/v1/chatgpt/config': 'Remove the chat-model configuration',
  'POST /api/v1/chatgpt/test': 'Test a chat-model key (stored or sent)',
  'GET /api/v1/youtube-apis/': 'List the user’s YouTube API configurations',
  'GET /api/v1/youtube-apis/:id': 'One YouTube API configuration (secrets masked)',
  'POST /api/v1/youtube-apis/': 'Add a YouTube API configuration',
  'PUT /api/v1/youtube-apis/:id': 'Change a YouTube API configuration',
  'PUT /api/v1/youtube-apis/:id/toggle': 'Switch a configuration on or off',
  'PUT /api/v1/youtube-apis/:id/set-active': 'Make a configuration the active one',
  'POST /api/v1/youtube-apis/:id/test': 'Test a configuration against YouTube',
  'POST /api/v1/youtube-apis/:id/authorize': 'The address of the authorization window',
  'DELETE /api/v1/youtube-apis/:id': 'Remove a configuration',
  'GET /api/v1/youtube-auth/': 'Authorization window: redirect to Google’s consent screen',
  'GET /api/v1/youtube-auth/callback': 'Authorization window: Google’s answer',
  'GET /api/v1/platform-accounts/': 'List the user’s TikTok and Instagram accounts',
  'GET /api/v1/platform-accounts/:id': 'One TikTok or Instagram account (secrets never answered)',
  'POST /api/v1/platform-accounts/': 'Add a TikTok or Instagram account',
  'PUT /api/v1/platform-accounts/:id': 'Rename an account, or pick its Instagram account among the choices',
  'PUT /api/v1/platform-accounts/:id/toggle': 'Switch an account on or off',
  'POST /api/v1/platform-accounts/:id/test': 'Check an account against its platform',
  'POST /api/v1/platform-accounts/:id/authorize': 'The address of the account’s authorization window',
  'DELETE /api/v1/platform-accounts/:id': 'Revoke and remove an account',
  'GET /api/v1/platform-auth/tiktok/': 'TikTok authorization window: redirect to TikTok’s consent page',
  'GET /api/v1/platform-auth/tiktok/callback': 'TikTok authorization window: TikTok’s answer',
  'GET /api/v1/platform-auth/instagram/': 'Instagram authorization window: redirect to Meta’s login dialog',
  'GET /api/v1/platform-auth/instagram/callback': 'Instagram authorization window: Meta’s answer',
  'GET /api/v1/proxies/': 'List the proxies (admins)',
  'GET /api/v1/proxies/:id': 'One proxy (admins)',
  'POST /api/v1/proxies/': 'Add a proxy (admins)',
  'PUT /api/v1/proxies/:id': 'Change a proxy (admins)',
  'PUT /api/v1/proxies/:id/toggle': 'Switch a proxy on or off (admins)',
  'POST /api/v1/proxies/:id/test': 'Test a proxy (admins)',
  'DELETE /api/v1/proxies/:id': 'Remove a proxy (admins)',
  'GET /api/v1/prompts/': 'List the prompts',
  'GET /api/v1/prompts/:id': 'One prompt with its texts in every language',
  'POST /api/v1/prompts/': 'Create a prompt (admins)',
  'POST /api/v1/prompts/full': 'Create a prompt with its texts (admins)',
  'PUT /api/v1/prompts/:id': 'Change a prompt’s description (admins)',
  'PUT /api/v1/prompts/:id/full': 'Change a prompt and its texts (admins)',
  'PUT /api/v1/prompts/:id/toggle': 'Switch a prompt on or off (admins)',
  'DELETE /api/v1/prompts/:id': 'Delete a prompt (admins)',
  'GET /api/v1/voices/': 'List the voices',
  'GET /api/v1/voices/:id': 'One voice',
  'POST /api/v1/voices/': 'Add a voice (admins)',
  'PUT /api/v1/voices/:id': 'Change a voice (admins)',
  'PUT /api/v1/voices/:id/toggle': 'Switch a voice on or off (admins)',
  'DELETE /api/v1/voices/:id': 'Delete a voice (admins)',
  'GET /api/v1/music/': 'List the background music',
  'GET /api/v1/music/:id': 'One music track',
  'POST /api/v1/music/': 'Upload a music track (admins)',
  'PUT /api/v1/music/:id': 'Rename a music track or change its mood (admins)',
  'PUT /api/v1/music/:id/toggle': 'Switch a music track on or off (admins)',
  'DELETE /api/v1/music/:id': 'Delete a music track (admins)',
  'GET /api/v1/music/:id/audio': "A music track's file, by signed link (for players)",
  'GET /api/v1/voice-samples/:file': 'A voice’s sample, spoken by the local voice',
  'GET /api/v1/processes/': 'List the user’s processes',
  'GET /api/v1/processes/stats': 'Counts of the user’s processes',
  'GET /api/v1/processes/:id': 'One process',
  'POST /api/v1/processes/': 'Create a process',
  'PUT /api/v1/processes/:id': 'Change a process',
  'PUT /api/v1/processes/:id/toggle': 'Switch a process on or off',
  'POST /api/v1/processes/:id/execute': 'Run a process now',
  'GET /api/v1/processes/:id/executions': 'A process’s runs, newest first',
  'DELETE /api/v1/processes/:id': 'Delete a process and its runs',
  'GET /api/v1/executions/:id': 'One run, step by step',
  'POST /api/v1/executions/:id/retry': 'Retry a failed run from where it stopped',
  'POST /api/v1/executions/:id/cancel': 'Cancel a queued or running run',
  'POST /api/v1/executions/:id/approve': 'Approve a reviewed video for publishing',
  'POST /api/v1/executions/:id/reject': 'Reject a reviewed video',
  'GET /api/v1/media/:execution/:file': 'A run’s video or thumbnail',
  'GET /api/v1/publications/': 'The publication history, filtered and paged',
  'GET /api/v1/publications/stats': 'Counts and totals of the publications',
  'POST /api/v1/publications/stats/refresh': 'Refresh views and likes from YouTube',
  'GET /api/v1/publications/report.csv': 'The history as a CSV report',
  'GET /api/v1/publications/:id': 'One publication',
  'POST /api/v1/publications/': 'Record a publication',
  'PUT /api/v1/publications/:id': 'Change a publication',
  'PUT /api/v1/publications/:id/publish-public': 'Make the video public on YouTube now',
  'DELETE /api/v1/publications/:id': 'Delete a publication (and its video on YouTube)',
  'GET /api/v1/subscription/': 'The user’s plan',
  'PUT /api/v1/subscription/': 'Change the plan',
  'GET /api/v1/notifications/': 'The user’s alert settings',
  'PUT /api/v1/notifications/': 'Change the alert settings',
  'POST /api/v1/notifications/test': 'Send a test alert',
  'GET /api/v1/openapi.json': 'This document',
};

/** "/api/v1/youtube-apis/:id/test" → "youtube-apis". */
export function tagOf(url: string): string {
  return url.replace(/^\/api\/v1\/?/, '').split('/')[0] || 'health';
}

const GUARDS: unknown[] = [requireUser, requireAdmin];

/**
 * The onRequest and preHandler hooks a plugin added for every route it declares (`app.addHook(
 * 'preHandler', requireUser)`), which the route's own options do not show. Fastify keeps them
 * under its `fastify.hooks` symbol on the plugin's instance (or the one it inherits from), and
 * adds them once the plugin has loaded: read them when the document is built, not as routes are
 * declared.
 */
function pluginHooks(instance: FastifyInstance): unknown[] {
  for (let object: object | null = instance; object; object = Object.getPrototypeOf(object) as object | null) {
    const symbol = Object.getOwnPropertySymbols(object).find((s) => s.description === 'fastify.hooks');
    if (!symbol) continue;
    const hooks = (object as Record<symbol, { onRequest?: unknown[]; preHandler?: unknown[] } | undefined>)[symbol];
    return [...(hooks?.onRequest ?? []), ...(hooks?.preHandler ?? [])];
  }
  // A Fastify that keeps its hooks elsewhere: fail at start rather than call guarded routes public.
  throw new Error('registerOpenApi: cannot read the plugin hooks of this Fastify version');
}

/** True when the route runs a session guard (requireUser, requireAdmin), its own or its plugin's. */
function needsSession(route: RouteOptions, instance: FastifyInstance): boolean {
  const hooks = [route.onRequest, route.preHandler, pluginHooks(instance)].flat().filter(Boolean);
  return hooks.some((hook) => GUARDS.includes(hook));
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  // Before any route is added, so each gets its tag, summary and security.
  // The plugin instance of each route, to read its guards when the document is built.
  const instances = new WeakMap<object, FastifyInstance>();
  app.addHook('onRoute', function (this: FastifyInstance, route) {
    const api = route.url.startsWith('/api/v1/') || route.url === '/api/v1';
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    if (!api) {
      schema.hide = true;
      return;
    }
    for (const method of [route.method].flat()) {
      // A prefix's root route ("/channels/") reaches here without its slash.
      const summary = ROUTE_SUMMARIES[`${method} ${route.url}`] ?? ROUTE_SUMMARIES[`${method} ${route.url}/`];
      if (summary && schema.summary === undefined) schema.summary = summary;
    }
    schema.tags ??= [tagOf(route.url)];
    instances.set(schema, this);
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'StoryFlow API',
        // The API's version (the /api/v1 of every path), not the package's.
        version: '1',
        description:
          'Every call of the console. Errors answer `{detail}` in the caller’s language (Accept-Language). ' +
          'Sign in with POST /auth/login and send the token as `Authorization: Bearer <token>`.',
      },
      // The paths hold /api/v1: the server is the console's own address (PUBLIC_URL).
      servers: [{ url: app.config.publicUrl, description: 'This console (PUBLIC_URL)' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    // Every operation says whether it needs a session, from the guards it runs: the bearer token,
    // or none at all (`security: []`, a public operation).
    transform: ({ schema, url, route }) => {
      const instance = instances.get(schema);
      if (!schema || schema.security !== undefined || !instance) return { schema, url };
      return { schema: { ...schema, security: needsSession(route as RouteOptions, instance) ? [{ bearer: [] }] : [] }, url };
    },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    // The page's own assets, and a policy that allows exactly them (the app's CSP forbids inline scripts).
    staticCSP: true,
    uiConfig: { deepLinking: true, docExpansion: 'list' },
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
