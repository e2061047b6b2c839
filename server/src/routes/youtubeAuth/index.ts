import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { typed } from '../typeProvider';
import { sendAuthResult, wantsHtml } from '../authWindow';
import { detailSchema, errorResponses } from '../../contracts/common';
import type { Message } from '../../services/youtubeApis';
import { AppError } from '../../errors';

/**
 * The authorization window. It cannot carry the bearer token, so it is tied to the signed-in user
 * by the short-lived `state` that POST /youtube-apis/{id}/authorize answered, and to the browser
 * that asked by the cookie that answer set (services/oauthStates.ts). A state opened in another
 * browser, used twice, expired, or issued before a password change gets the result page saying
 * so, and nothing is stored.
 */
export default async function youtubeAuthRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { youtubeApis } = app.services;

  /** The result page (posted to the console that opened the window, which then closes it). */
  const sendResult = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    result: { ok: boolean; configId: string | null; message: Message },
  ) =>
    sendAuthResult(request, reply, status, {
      title: { key: 'youtubeApis.authorizedTitle' },
      closeHint: 'youtubeApis.closeWindow',
      message: result.message,
      payload: { type: 'youtube-auth', ok: result.ok, config_id: result.configId },
    });

  app.get(
    '/',
    {
      schema: {
        querystring: { type: 'object', properties: { state: { type: 'string', maxLength: 2000 } } },
        response: {
          302: { type: 'null' },
          ...errorResponses,
          // A refused state: the window's HTML page saying why, to a browser (Accept: text/html); otherwise the usual detail.
          400: { anyOf: [{ type: 'string' }, detailSchema] },
        },
      },
    },
    async (request, reply) => {
      const next = await youtubeApis.consentRedirect(request.query.state, request.headers.cookie);
      if ('url' in next) return reply.redirect(next.url, 302);
      // A browser's window gets the page saying why; any other client the usual {detail}.
      if (!wantsHtml(request)) throw new AppError(400, next.message.key, next.message.params);
      return sendResult(request, reply, 400, { ok: false, configId: null, message: next.message });
    },
  );

  app.get(
    '/callback',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            state: { type: 'string', maxLength: 2000 },
            code: { type: 'string', maxLength: 2000 },
            error: { type: 'string', maxLength: 200 },
            scope: { type: 'string', maxLength: 2000 },
          },
        },
        response: { 200: { type: 'string' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await youtubeApis.completeAuthorization({ ...request.query, cookie: request.headers.cookie }, (error) =>
        request.log.warn({ err: error }, 'YouTube authorization failed'),
      );
      // The state is spent (or was refused): its cookie has no further use in this browser.
      const clear = request.headers.cookie ? youtubeApis.clearStateCookie(request.query.state) : undefined;
      if (clear) reply.header('set-cookie', clear);
      return sendResult(request, reply, 200, result);
    },
  );
}
