import { cspHash } from '../../lib/inlineScripts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { typed } from '../typeProvider';
import { translate } from '../../messages';
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
  function sendResult(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    result: { ok: boolean; configId: string | null; message: Message },
  ) {
    const message = translate(request.language, result.message.key, result.message.params);
    const page = resultPage({
      lang: request.language,
      title: translate(request.language, 'youtubeApis.authorizedTitle'),
      message,
      closeHint: translate(request.language, 'youtubeApis.closeWindow'),
      payload: { type: 'youtube-auth', ok: result.ok, config_id: result.configId, message },
    });
    return (
      reply
        .code(status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', page.csp)
        // The page must keep its opener (the console) to report back.
        .header('cross-origin-opener-policy', 'unsafe-none')
        .send(page.html)
    );
  }

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
      if (!/\btext\/html\b/.test(request.headers.accept ?? '')) throw new AppError(400, next.message.key, next.message.params);
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

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page, and a Content-Security-Policy that lets exactly its own script and style run (by their hashes). */
function resultPage(input: { lang: string; title: string; message: string; closeHint: string; payload: object }): {
  html: string;
  csp: string;
} {
  // JSON inside a script: escape "<" so the message cannot close the script element.
  const payload = JSON.stringify(input.payload).replace(/</g, '\\u003c');
  const script = `(function(){var data=${payload};try{if(window.opener){window.opener.postMessage(data,window.location.origin);setTimeout(function(){window.close()},1500);}}catch(e){}})();`;
  const style =
    'body{font-family:system-ui,sans-serif;background:#0f1115;color:#e8eaed;display:grid;place-items:center;min-height:100vh;margin:0}main{max-width:28rem;padding:2rem;text-align:center}';
  const csp = `default-src 'none'; script-src ${cspHash(script)}; style-src ${cspHash(style)}; base-uri 'none'; frame-ancestors 'none'; form-action 'none'`;
  const html = `<!doctype html>
<html lang="${input.lang === 'pt' ? 'pt-BR' : 'en'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(input.title)}</title>
<style>${style}</style></head>
<body><main><h1>${escapeHtml(input.title)}</h1><p role="status">${escapeHtml(input.message)}</p><p>${escapeHtml(input.closeHint)}</p></main>
<script>${script}</script>
</body></html>`;
  return { html, csp };
}
