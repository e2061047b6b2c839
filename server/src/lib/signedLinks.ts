import crypto from 'node:crypto';

/**
 * Links a player can follow without a bearer token (a `<video>` or `<audio>` element sends none):
 * `?expires=<ms>&signature=<HMAC>` over a subject (`<execution>/<file>`, `music/<id>`), with a key
 * derived from APP_SECRET for one purpose only, so a link of one kind never opens another.
 * Expiries are rounded up to ten minutes, so polled answers hand out the same URL and the browser's
 * cache keeps working.
 */
export interface LinkSigner {
  /** `?expires=…&signature=…` for `subject`, valid at least `ttlMs` from now. */
  query(subject: string): string;
  /** True when the signature is ours for `subject` and `expires` has not passed. */
  verify(subject: string, expires: number, signature: string): boolean;
}

const ROUND_MS = 10 * 60 * 1000;

export function createLinkSigner(opts: { appSecret: string; purpose: string; ttlMs: number; now: () => Date }): LinkSigner {
  const key = crypto.createHash('sha256').update(`${opts.purpose}:${opts.appSecret}`).digest();
  const sign = (subject: string, expires: number) =>
    crypto.createHmac('sha256', key).update(`${subject}/${expires}`).digest('base64url');
  return {
    query(subject) {
      const expires = Math.ceil((opts.now().getTime() + opts.ttlMs) / ROUND_MS) * ROUND_MS;
      return `expires=${expires}&signature=${sign(subject, expires)}`;
    },
    verify(subject, expires, signature) {
      if (!Number.isFinite(expires) || expires < opts.now().getTime()) return false;
      const expected = Buffer.from(sign(subject, expires));
      const given = Buffer.from(signature);
      return expected.length === given.length && crypto.timingSafeEqual(expected, given);
    },
  };
}
