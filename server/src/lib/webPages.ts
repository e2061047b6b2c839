import fs from 'node:fs';
import path from 'node:path';
import { languageFrom } from '../messages';

/**
 * Which built page the server sends for an address of the web app. The screens the web app
 * prerenders (its src/app/prerender.tsx `PRERENDERED_SCREENS`: /login, /signup) have a page per
 * language and theme with the screen already rendered in it (login-en-dark.html,
 * signup-pt-light.html...: written by webpack.config.js), so they paint before the app's JavaScript
 * runs. The visitor's choice is in the view cookie the app keeps (src/lib/prerendered.ts); without
 * it, the Accept-Language's language in the dark theme (the app's defaults). A page that is not
 * the visitor's shows the app's spinner, then the app.
 */
export const VIEW_COOKIE = 'storyflow_view';
const VARIANTS = new Set(['pt-dark', 'pt-light', 'en-dark', 'en-light']);
/** An address of one segment (`/login`, `/signup/`): the name of a screen that may be prerendered. */
const SCREEN_ADDRESS = /^\/([a-z]+(?:-[a-z]+)*)\/?$/;

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

/** The prerendered page's variant for this visitor: the view cookie's, else the language asked for, dark. */
export function pageVariant(cookieHeader: string | undefined, acceptLanguage: string | undefined): string {
  const chosen = cookieValue(cookieHeader, VIEW_COOKIE);
  if (chosen && VARIANTS.has(chosen)) return chosen;
  return `${languageFrom(acceptLanguage)}-dark`;
}

/**
 * The file of `webDir` to send for `url` (a path without its query): at a prerendered screen's
 * address, the visitor's page of it (`<screen>-<variant>.html`) when the build made it (not in
 * development builds), else index.html.
 */
export function pageFor(
  webDir: string,
  url: string,
  headers: { cookie?: string; 'accept-language'?: string },
): { file: string; varies: boolean } {
  const screen = SCREEN_ADDRESS.exec(url)?.[1];
  if (screen) {
    const file = `${screen}-${pageVariant(headers.cookie, headers['accept-language'])}.html`;
    if (fs.existsSync(path.join(webDir, file))) return { file, varies: true };
  }
  return { file: 'index.html', varies: false };
}
