/**
 * What never reaches a log: one-time tokens and codes in request URLs (reset and confirmation
 * links, the OAuth callback's code and state, signed media links), and passwords inside URLs
 * (DATABASE_URL, SMTP_URL, proxies). Emails written to the log because SMTP_URL is unset are the
 * one place a link appears whole: that is the email itself (providers/mailer.ts).
 */

/** Query parameters whose values are secrets. */
export const SECRET_PARAMS = [
  'token',
  'code',
  'state',
  'signature',
  'access_token',
  'refresh_token',
  'api_key',
  'key',
  'password',
];

const REDACTED = '[redacted]';

/** `url` (absolute, or a path with a query) with secret query values and any password replaced. */
export function redactUrl(url: string): string {
  let text = url;
  // user:password@ in any URL.
  text = text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^@\s/]*@/gi, `$1${REDACTED}@`);
  const question = text.indexOf('?');
  if (question < 0) return text;
  const hash = text.indexOf('#', question);
  const query = text.slice(question + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const [name = ''] = pair.split('=', 1);
      let key = name;
      try {
        key = decodeURIComponent(name);
      } catch {
        // keep it as it is
      }
      return SECRET_PARAMS.includes(key.toLowerCase()) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${text.slice(0, question + 1)}${redacted}${hash < 0 ? '' : text.slice(hash)}`;
}

/** Every URL inside a free text (an error message, say) redacted. */
export function redactText(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => redactUrl(url));
}
