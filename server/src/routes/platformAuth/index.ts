import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { sendAuthResult, windowStart, windowStartSchema } from '../authWindow';
import { errorResponses } from '../../contracts/common';
import type { Platform } from '../../providers/publishers/contract';
import type { Message } from '../../messages';

const NAMES: Record<Platform, string> = { tiktok: 'TikTok', instagram: 'Instagram' };

/**
 * A platform's authorization window (registered once per platform, at /platform-auth/<platform>).
 * Like YouTube's (routes/youtubeAuth), it is tied to the signed-in user by the short-lived `state`
 * that POST /platform-accounts/{id}/authorize answered, and to the browser that asked by the
 * cookie that answer set; a refused state stores nothing.
 */
export default async function platformAuthRoutes(fastify: FastifyInstance, options: { platform: Platform }): Promise<void> {
  const app = typed(fastify);
  const { platformAccounts } = app.services;
  const { platform } = options;

  const sendResult = (
    request: Parameters<typeof sendAuthResult>[0],
    reply: Parameters<typeof sendAuthResult>[1],
    status: number,
    result: { ok: boolean; accountId: string | null; message: Message },
  ) =>
    sendAuthResult(request, reply, status, {
      title: { key: 'platformAccounts.authorizedTitle', params: { platform: NAMES[platform] } },
      closeHint: 'platformAccounts.closeWindow',
      message: result.message,
      payload: { type: 'platform-auth', platform, ok: result.ok, account_id: result.accountId },
    });

  app.get('/', { schema: windowStartSchema() }, async (request, reply) =>
    windowStart(
      request,
      reply,
      await platformAccounts.consentRedirect(platform, request.query.state, request.headers.cookie),
      (message) => sendResult(request, reply, 400, { ok: false, accountId: null, message }),
    ),
  );

  app.get(
    '/callback',
    {
      schema: {
        // TikTok answers code, scopes, state (or error, error_description); Meta code, state (or error, error_reason, error_description).
        querystring: {
          type: 'object',
          properties: {
            state: { type: 'string', maxLength: 2000 },
            code: { type: 'string', maxLength: 2000 },
            scopes: { type: 'string', maxLength: 2000 },
            error: { type: 'string', maxLength: 200 },
            error_reason: { type: 'string', maxLength: 200 },
            error_description: { type: 'string', maxLength: 2000 },
          },
        },
        response: { 200: { type: 'string' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { state, code, error } = request.query;
      const result = await platformAccounts.completeAuthorization(
        platform,
        { state, code, error, cookie: request.headers.cookie },
        (failure) => request.log.warn({ err: failure }, `${NAMES[platform]} authorization failed`),
      );
      const clear = request.headers.cookie ? platformAccounts.clearStateCookie(platform, state) : undefined;
      if (clear) reply.header('set-cookie', clear);
      return sendResult(request, reply, 200, result);
    },
  );
}
