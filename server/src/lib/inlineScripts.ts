import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The pages of the web app's build (webpack.config.js): index.html and the login pages. */
function pagesOf(webDir: string): string[] {
  try {
    return fs.readdirSync(webDir).filter((name) => name.endsWith('.html'));
  } catch {
    return [];
  }
}

/** A Content-Security-Policy source for `text`: `'sha256-<base64>'`. */
export function cspHash(text: string): string {
  return `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The hashes of the inline scripts in the built pages of `webDir` (the production build inlines
 * public/preferences.js, which must run before the first paint), for the Content Security
 * Policy's script-src: those scripts, and no other inline script, may run. Pages that are not
 * there (no build yet, a development build) add nothing.
 */
export function inlineScriptHashes(webDir: string): string[] {
  const hashes = new Set<string>();
  for (const page of pagesOf(webDir)) {
    let html: string;
    try {
      html = fs.readFileSync(path.join(webDir, page), 'utf8');
    } catch {
      continue;
    }
    for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
      const [, attributes = '', code = ''] = match;
      if (/\bsrc\s*=/i.test(attributes) || code === '') continue;
      hashes.add(cspHash(code));
    }
  }
  return [...hashes];
}
