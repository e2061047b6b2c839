import fs from 'node:fs';
import path from 'node:path';
import { languageFrom } from '../messages';

/**
 * Which built page the server sends for an address of the web app. /login has a page per
 * language and theme with the sign-in screen already rendered in it (login-en-dark.html...: the
 * web app's src/app/prerender.tsx, written by webpack.config.js), so it paints before the app's
 * JavaScript runs. The visitor's choice is in the view cookie the app keeps
 * (src/lib/prerendered.ts); without it, the Accept-Language's language in the dark theme (the
 * app's defaults). A page that is not the visitor's shows the app's spinner, then the app.
 */
export const VIEW_COOKIE = 'storyflow_view';
const VARIANTS = new Set(['pt-dark', 'pt-light', 'en-dark', 'en-light']);
const LOGIN_ADDRESSES = new Set(['/login', '/login/']);

/** The value of cookie `name` in a Cookie header, if it is there once or more (the first wins). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.slice(0, 4096).split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** The login page's variant for this visitor: the view cookie's, else the language asked for, dark. */
export function loginVariant(cookieHeader: string | undefined, acceptLanguage: string | undefined): string {
  const chosen = cookieValue(cookieHeader, VIEW_COOKIE);
  if (chosen && VARIANTS.has(chosen)) return chosen;
  return `${languageFrom(acceptLanguage)}-dark`;
}

/**
 * The file of `webDir` to send for `url` (a path without its query): the visitor's login page at
 * /login when the build made it (not in development builds), else index.html.
 */
export function pageFor(
  webDir: string,
  url: string,
  headers: { cookie?: string; 'accept-language'?: string },
): { file: string; varies: boolean } {
  if (LOGIN_ADDRESSES.has(url)) {
    const file = `login-${loginVariant(headers.cookie, headers['accept-language'])}.html`;
    if (fs.existsSync(path.join(webDir, file))) return { file, varies: true };
  }
  return { file: 'index.html', varies: false };
}
