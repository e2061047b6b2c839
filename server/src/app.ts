import fs from 'node:fs';
import path from 'node:path';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchema,
} from 'fastify';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { Config } from './config';
import type { Database } from './db';
import { isDatabaseUnavailable } from './db/errors';
import { AppError } from './errors';
import { languageFrom, translate, type Language } from './messages';
import { inlineScriptHashes } from './lib/inlineScripts';
import { metricsAuthorized } from './lib/metrics';
import { pageFor } from './lib/webPages';
import { createServices, type Services } from './services';
import type { Queue } from './queue';
import type { Mailer } from './providers/mailer';
import { mailerFor } from './providers/mailer';
import type { User } from './services/auth';
import { registerApiRoutes } from './routes';
import { registerOpenApi } from './routes/openapi';
import { createValidatorCompiler, findControlCharacter } from './lib/validation';
import { redactUrl } from './lib/redact';
import { addressKey } from './lib/clientAddress';
import { HashQueueFull } from './lib/passwords';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    config: Config;
    /** Every route this app answers (method, URL and schema), in the order they were declared. */
    routeTable: Array<{ method: string; url: string; schema: FastifySchema | undefined }>;
  }
  interface FastifyRequest {
    /** pt or en, from Accept-Language: the language of `detail` messages. */
    language: Language;
    /** The signed-in user, set by the `authenticate` pre-handler. */
    user: User;
    /** The signed-in user's session (requireUser). */
    sessionId: string;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  queue?: Queue;
  mailer?: Mailer;
  /** false for no log; otherwise pino at config.logLevel (or `level`), to stdout (or `stream`). */
  logger?: false | { level?: string; stream?: NodeJS.WritableStream };
  now?: () => Date;
  /** Replaces the queue's enqueue of executions (tests run the engine by hand). */
  enqueue?: (executionId: string) => Promise<string | null>;
  /** The password hash's cost for new hashes instead of PASSWORD_HASH_COST (tests make it cheap). */
  passwordHashCost?: number;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** JSON answers above this size are compressed (gzip or brotli, by Accept-Encoding). */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/** The longest path segment (an id) the router takes; longer ones answer 414. */
export const MAX_PARAM_LENGTH = 200;
/** How much of a path a "not found" answer quotes. */
const QUOTED_URL_CHARS = 120;
/** A file name with a content hash (assets/main.0123456789ab.js): its content never changes. */
const HASHED_ASSET = /\.[0-9a-f]{8,}\.(js|css|woff2?|svg|png|jpg)(\.(br|gz))?$/;

function detail(request: FastifyRequest, error: AppError): string {
  return translate(request.language ?? 'en', error.key, error.params);
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: options.logger?.level ?? config.logLevel,
            ...(options.logger?.stream ? { stream: options.logger.stream } : {}),
            // Request URLs are logged without their secrets (tokens, OAuth codes, media signatures).
            serializers: {
              req: (request: { method?: string; url?: string; ip?: string }) => ({
                method: request.method,
                url: redactUrl(request.url ?? ''),
                remoteAddress: request.ip,
              }),
            },
            redact: ['req.headers.authorization', 'req.headers.cookie'],
          },
    bodyLimit: BODY_LIMIT_BYTES,
    // A client has REQUEST_TIMEOUT_MS to send a whole request, headers and body (408 past it):
    // Fastify's default, none, let one that drips its body hold a connection for ever. Answers
    // are not timed (a CSV report, a video). Node checks every connection's deadline on a timer
    // (30 s by default): a short timeout gets a check as short.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(config.requestTimeoutMs / 4))),
    },
    // Behind a reverse proxy, request.ip is the client only when TRUST_PROXY names that proxy.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (() => {
            const hops = config.trustProxy as number;
            return (_address: string, hop: number) => hop < hops;
          })()
        : config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors the router raises before any hook (a malformed URL, an overlong path segment).
    frameworkErrors: (error, request, reply) => {
      const language = languageFrom(request.headers['accept-language']);
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const failure = tooLong ? new AppError(414, 'common.uriTooLong') : new AppError(400, 'common.badUrl');
      void (reply as FastifyReply).code(failure.statusCode).send({ detail: translate(language, failure.key, failure.params) });
    },
  });
  app.setValidatorCompiler(createValidatorCompiler());
  const routeTable: FastifyInstance['routeTable'] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url, schema: route.schema });
  });

  const mailer = options.mailer ?? mailerFor(config, app.log);
  app.decorate('config', config);
  app.decorate(
    'services',
    createServices({
      db: options.database.db,
      config,
      mailer,
      queue: options.queue,
      now: options.now,
      ...(options.enqueue ? { enqueue: options.enqueue } : {}),
      ...(options.passwordHashCost ? { passwordHashCost: options.passwordHashCost } : {}),
    }),
  );
  // Emails sent in the background (no queue) finish before the database goes.
  app.addHook('onClose', () => app.services.drainEmails());
  app.addHook('onClose', () => app.services.alerts.drain());
  // A statistics refresh asked for without a queue runs here: let it finish before the database goes.
  app.addHook('onClose', () => app.services.publications.drain());
  // The embedded database tells this (its only) server of every user change: sessions are read from memory.
  if (options.database.watchUsers) {
    const stop = await app.services.auth.followUserChanges(options.database.watchUsers);
    app.addHook('onClose', stop);
  }
  app.decorateRequest('language', 'en');
  app.decorateRequest('user', null as unknown as User);
  app.decorateRequest('sessionId', '');
  app.addHook('onRequest', async (request) => {
    request.language = languageFrom(request.headers['accept-language']);
  });
  // NUL and other control characters nothing here takes are refused before any schema or query sees them.
  app.addHook('preValidation', async (request) => {
    const field =
      findControlCharacter(request.body, 'body') ??
      findControlCharacter(request.query, 'querystring') ??
      findControlCharacter(request.params, 'params');
    if (field) throw new AppError(400, 'common.controlCharacter', { field });
  });

  // JSON only: other content types answer 415 instead of reaching the schema as strings.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsApp = (request.method === 'GET' || request.method === 'HEAD') && !url.startsWith('/api/');
    if (wantsApp && hasWebApp(config.webDir) && !path.extname(url)) {
      // History fallback: client-side routes load the app shell; an address with a page of its own
      // (the sign-in screen, already rendered: docs/web.md, "First load") gets that page.
      const page = pageFor(config.webDir, url, request.headers);
      if (page.varies) void reply.header('vary', 'Cookie, Accept-Language');
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile(page.file);
    }
    const quoted = url.length > QUOTED_URL_CHARS ? `${url.slice(0, QUOTED_URL_CHARS)}…` : url;
    const error = new AppError(404, 'common.routeNotFound', { method: request.method, url: quoted });
    return reply.code(404).send({ detail: detail(request, error) });
  });

  // Security headers on every answer (docs/security.md): a Content-Security-Policy the app works
  // with (MUI/emotion inject <style> elements, flags are data: images), no framing, no sniffing,
  // no referrer. The OAuth callback page sets its own script hash (routes/youtubeAuth).
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The pages' own inline script (the persisted theme and language, before the first paint),
        // by its hash; no other inline script.
        scriptSrc: ["'self'", ...inlineScriptHashes(config.webDir)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Video thumbnails come from YouTube's image servers (i.ytimg.com), or from YOUTUBE_API_URL's host.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', new URL(config.youtubeApiUrl).origin],
        // Voice samples may be any http(s) URL an admin gives (docs/decisions.md, "Voice samples"):
        // audio is passive content, and a sample the browser cannot reach says so on its card.
        mediaSrc: ["'self'", 'blob:', 'https:', 'http:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The YouTube authorization opens Google in a popup that reports back with postMessage.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'no-referrer' },
    // Plain http on localhost is a normal way to run this; HSTS belongs to the TLS proxy in front.
    strictTransportSecurity: false,
  });
  // A ceiling per client address on everything (API_RATE_LIMIT_PER_MINUTE), on top of the limits of
  // sign-in, sign-up, resets and tests, which are kept in the database so they hold across processes.
  if (config.apiRateLimitPerMinute > 0) {
    await app.register(fastifyRateLimit, {
      max: config.apiRateLimitPerMinute,
      timeWindow: 60_000,
      // An IPv4 address, or an IPv6 /64: one client, one bucket.
      keyGenerator: (request) => addressKey(request.ip),
      errorResponseBuilder: (_request, context) =>
        new AppError(429, 'common.tooManyRequests', { count: Math.max(1, Math.ceil(context.ttl / 60_000)) }),
    });
  }
  // API answers above the threshold go compressed; brotli at a low quality keeps it cheap per request.
  // Static assets are compressed at build time instead (preCompressed below), and media never.
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    customTypes: /^(application\/json|text\/csv)/,
  });
  await registerOpenApi(app);
  await app.register(registerApiRoutes, { prefix: '/api/v1' });

  // Request durations by route (the route's pattern, never the raw URL) for /metrics.
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (!route) return;
    app.services.metrics.httpDuration.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  if (config.metrics) {
    app.get('/metrics', async (request, reply) => {
      if (!metricsAuthorized(request.headers.authorization, config.metricsToken)) {
        return reply.code(401).send({ detail: translate(request.language, 'auth.notAuthenticated') });
      }
      const { registry } = app.services.metrics;
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  }

  if (hasWebApp(config.webDir)) {
    await app.register(fastifyStatic, {
      root: config.webDir,
      wildcard: true,
      index: ['index.html'],
      cacheControl: false,
      // The build writes .br and .gz beside each asset: served as they are, by Accept-Encoding.
      preCompressed: true,
      // Source maps stay on the server's disk (for whoever debugs there), never on the wire.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      setHeaders(res, filePath) {
        // Hashed bundles are immutable; the shell must be revalidated.
        if (HASHED_ASSET.test(filePath)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else res.setHeader('cache-control', 'no-cache');
      },
    });
  } else {
    // Lets reply.sendFile exist even before the web app is built.
    await app.register(fastifyStatic, { root: config.webDir, serve: false });
  }

  return app;
}

function hasWebApp(webDir: string): boolean {
  return fs.existsSync(path.join(webDir, 'index.html'));
}

function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    return reply
      .code(error.statusCode)
      .headers(error.headers)
      .send({ detail: detail(request, error) });
  }
  if (error.validation) {
    const reason = error.message.replace(/^(body|querystring|params|headers)\//, '$1.');
    return reply.code(400).send({ detail: detail(request, new AppError(400, 'common.invalidRequest', { reason })) });
  }
  const known: Record<string, [number, AppError['key']]> = {
    FST_ERR_CTP_BODY_TOO_LARGE: [413, 'common.bodyTooLarge'],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'common.unsupportedMediaType'],
    FST_ERR_CTP_INVALID_JSON_BODY: [400, 'common.invalidJson'],
    FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'common.invalidJson'],
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'common.invalidJson'],
  };
  const mapped = error.code ? known[error.code] : undefined;
  if (mapped) return reply.code(mapped[0]).send({ detail: detail(request, new AppError(mapped[0], mapped[1])) });
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return reply.code(400).send({ detail: detail(request, new AppError(400, 'common.invalidJson')) });
  }
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status < 500) return reply.code(status).send({ detail: error.message });
  // Every password hash turn is taken and PASSWORD_HASH_QUEUE wait: busy, retry shortly (docs/security.md, "Limits").
  if (error instanceof HashQueueFull) {
    return reply
      .code(503)
      .header('retry-after', String(error.retryAfterSeconds))
      .send({ detail: detail(request, new AppError(503, 'common.serverBusy')) });
  }
  // PostgreSQL is down or restarting: a short 503 the client can retry, not a 500 (docs/engine.md, "Database outages").
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unreachable');
    return reply
      .code(503)
      .header('retry-after', '5')
      .send({ detail: detail(request, new AppError(503, 'common.databaseUnavailable')) });
  }
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send({ detail: detail(request, new AppError(500, 'common.internal')) });
}
