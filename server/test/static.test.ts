import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { buildTestApp, call, signUp, type TestContext } from './helper';

/** A built web app in miniature: the shell, a hashed bundle with its .br/.gz, and a source map. */
function fakeBuild(dir: string): void {
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  const shell = '<!doctype html><html><head><script src="/assets/main.0123456789ab.js"></script></head><body></body></html>';
  const bundle = `console.log(${JSON.stringify('x'.repeat(5000))});`;
  fs.writeFileSync(path.join(dir, 'index.html'), shell);
  fs.writeFileSync(path.join(dir, 'index.html.br'), zlib.brotliCompressSync(shell));
  fs.writeFileSync(path.join(dir, 'assets', 'main.0123456789ab.js'), bundle);
  fs.writeFileSync(path.join(dir, 'assets', 'main.0123456789ab.js.br'), zlib.brotliCompressSync(bundle));
  fs.writeFileSync(path.join(dir, 'assets', 'main.0123456789ab.js.gz'), zlib.gzipSync(bundle));
  fs.writeFileSync(path.join(dir, 'assets', 'main.0123456789ab.js.map'), '{"version":3,"sources":["secret.ts"]}');
  // The prerendered screens' pages (sign-in, sign-up), one per language and theme, with the pages' inline script.
  for (const screen of ['login', 'signup'])
    for (const variant of ['pt-dark', 'pt-light', 'en-dark', 'en-light']) {
      const page = `<!doctype html><html><head><script>${INLINE_SCRIPT}</script></head><body><div id="root">${screen} ${variant}</div></body></html>`;
      fs.writeFileSync(path.join(dir, `${screen}-${variant}.html`), page);
    }
}

const INLINE_SCRIPT = 'document.documentElement.lang="en";';

let ctx: TestContext;
let webDir: string;

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'static-web-'));
  fakeBuild(webDir);
  ctx = await buildTestApp({ WEB_DIR: webDir });
});

afterAll(async () => {
  await ctx.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('serves the compressed file the browser accepts, made at build time', async () => {
    const br = await ctx.app.inject({ url: '/assets/main.0123456789ab.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(fs.readFileSync(path.join(webDir, 'assets', 'main.0123456789ab.js.br')))).toBe(true);
    const gz = await ctx.app.inject({ url: '/assets/main.0123456789ab.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await ctx.app.inject({ url: '/assets/main.0123456789ab.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('console.log');
  });

  it('caches hashed assets for a year, immutable, and makes the shell revalidate', async () => {
    const asset = await ctx.app.inject({ url: '/assets/main.0123456789ab.js', headers: { 'accept-encoding': 'br' } });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const shell = await ctx.app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(shell.statusCode).toBe(200);
    expect(shell.headers['cache-control']).toBe('no-cache');
    const route = await ctx.app.inject({ url: '/processes', headers: { 'accept-encoding': 'br' } });
    expect(route.statusCode).toBe(200);
    expect(route.headers['cache-control']).toBe('no-cache');
  });

  it('sends /login and /signup their page of the visitor language and theme: the view cookie, else Accept-Language and dark', async () => {
    const page = async (headers: Record<string, string>, url = '/login') => {
      const answer = await ctx.app.inject({ url, headers });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-cache');
      return answer;
    };
    expect((await page({ cookie: 'storyflow_view=pt-light' })).body).toContain('>login pt-light<');
    expect((await page({ cookie: 'a=b; storyflow_view=en-light; c=d', 'accept-language': 'pt-BR' })).body).toContain(
      '>login en-light<',
    );
    expect((await page({ 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.8' })).body).toContain('>login pt-dark<');
    expect((await page({ 'accept-language': 'de-DE, en;q=0.5' })).body).toContain('>login en-dark<');
    expect((await page({}, '/login/?next=%2Fchannels')).body).toContain('>login en-dark<');
    const varied = await page({ cookie: 'storyflow_view=pt-light' });
    expect(varied.headers.vary).toContain('Cookie');
    // Any other value of the cookie is a guess like no cookie: never a file it names.
    for (const cookie of [
      'storyflow_view=../index',
      'storyflow_view=en-dark.html',
      'storyflow_view=',
      'storyflow_view=fr-dark',
    ]) {
      expect((await page({ cookie, 'accept-language': 'en' })).body).toContain('>login en-dark<');
    }
    // The sign-up screen by the same rule, at /signup and /signup/.
    const signup = await page({ cookie: 'storyflow_view=pt-light' }, '/signup');
    expect(signup.body).toContain('>signup pt-light<');
    expect(signup.headers.vary).toContain('Cookie');
    expect((await page({ 'accept-language': 'pt-BR' }, '/signup/?plan=annual')).body).toContain('>signup pt-dark<');
    expect((await page({ cookie: 'storyflow_view=fr-dark', 'accept-language': 'en' }, '/signup')).body).toContain(
      '>signup en-dark<',
    );
    // Every other address gets the shell, even one whose name a page file starts with.
    for (const url of ['/processes', '/signup/x', '/login-en', '/index', '/Signup', '/']) {
      const shell = await page({ cookie: 'storyflow_view=pt-light' }, url);
      expect(shell.body).toContain('main.0123456789ab.js');
      expect(shell.headers.vary ?? '').not.toContain('Cookie');
    }
  });

  it("allows the pages' own inline script by its hash, and no other inline script", async () => {
    const answer = await ctx.app.inject({ url: '/login' });
    const csp = String(answer.headers['content-security-policy']);
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    const hash = crypto.createHash('sha256').update(INLINE_SCRIPT).digest('base64');
    expect(scriptSrc.split(' ').sort()).toEqual(["'self'", `'sha256-${hash}'`].sort());
    expect(scriptSrc).not.toContain('unsafe-inline');
  });

  it('never serves a source map', async () => {
    const map = await ctx.app.inject({ url: '/assets/main.0123456789ab.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('secret.ts');
  });

  it('compresses JSON answers above 1 KB, and leaves small ones alone', async () => {
    const { token } = await signUp(ctx.app);
    const big = await call(ctx.app, 'GET', '/api/v1/voices/', { token, headers: { 'accept-encoding': 'gzip' } });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(big.rawPayload).toString('utf8')).voices.length).toBeGreaterThan(0);
    const small = await call(ctx.app, 'GET', '/api/v1/auth/me', { token, headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().email).toContain('@');
  });
});
