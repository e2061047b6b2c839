import type { FastifyReply, FastifyRequest } from 'fastify';
import { cspHash } from '../lib/inlineScripts';
import { translate, type MessageKey, type MessageParams } from '../messages';
import { detailSchema, errorResponses } from '../contracts/common';
import { AppError } from '../errors';

/**
 * The result page of an authorization window (YouTube, TikTok, Instagram): it says how the
 * authorization went, posts the outcome to the console that opened the window (same origin only),
 * which then closes it. The page runs exactly its own script and style (a CSP by their hashes).
 */
export function sendAuthResult(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  page: {
    title: { key: MessageKey; params?: MessageParams };
    closeHint: MessageKey;
    message: { key: MessageKey; params?: MessageParams };
    /** What the console receives (postMessage); `message` is added, translated. */
    payload: Record<string, unknown>;
  },
) {
  const message = translate(request.language, page.message.key, page.message.params);
  const result = resultPage({
    lang: request.language,
    title: translate(request.language, page.title.key, page.title.params),
    message,
    closeHint: translate(request.language, page.closeHint),
    payload: { ...page.payload, message },
  });
  return (
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', result.csp)
      // The page must keep its opener (the console) to report back.
      .header('cross-origin-opener-policy', 'unsafe-none')
      .send(result.html)
  );
}

/**
 * The window's start: `?state=`, answered with a redirect to the consent page or the reason it is
 * refused. A new object for each route: the API reference writes each route's summary into it.
 */
export const windowStartSchema = () =>
  ({
    querystring: { type: 'object', properties: { state: { type: 'string', maxLength: 2000 } } },
    response: {
      302: { type: 'null' },
      ...errorResponses,
      // A refused state: the window's HTML page saying why, to a browser (Accept: text/html); otherwise the usual detail.
      400: { anyOf: [{ type: 'string' }, detailSchema] },
    },
  }) as const;

/**
 * Sends the window on to the consent page, or says why not: a browser's window gets the page
 * (`refused`), any other client the usual `{detail}`.
 */
export function windowStart(
  request: FastifyRequest,
  reply: FastifyReply,
  next: { url: string } | { message: { key: MessageKey; params?: MessageParams } },
  refused: (message: { key: MessageKey; params?: MessageParams }) => FastifyReply,
) {
  if ('url' in next) return reply.redirect(next.url, 302);
  if (!/\btext\/html\b/.test(request.headers.accept ?? '')) throw new AppError(400, next.message.key, next.message.params);
  return refused(next.message);
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
