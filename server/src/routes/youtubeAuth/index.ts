import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { typed } from '../typeProvider';
import { sendAuthResult, windowStart, windowStartSchema } from '../authWindow';
import { errorResponses } from '../../contracts/common';
import type { Message } from '../../messages';

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

  app.get('/', { schema: windowStartSchema() }, async (request, reply) =>
    windowStart(request, reply, await youtubeApis.consentRedirect(request.query.state, request.headers.cookie), (message) =>
      sendResult(request, reply, 400, { ok: false, configId: null, message }),
    ),
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
