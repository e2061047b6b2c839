import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { BODY_LIMIT_BYTES } from '../src/app';
import { TEST_ADMIN_EMAIL, buildTestApp, call, freshDatabase, signUp, type TestContext } from './helper';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => {
  await ctx.close();
});

test('malformed JSON answers 400 with a detail', async () => {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: '{"email": "a@b.c", ',
  });
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({ detail: 'The request body is not valid JSON' });
});

test('a body over the limit answers 413', async () => {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(BODY_LIMIT_BYTES) }),
  });
  expect(response.statusCode).toBe(413);
  expect(response.json()).toEqual({ detail: 'The request body is too large' });
});

test('a non-JSON content type answers 415', async () => {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'content-type': 'text/plain' },
    payload: 'hello',
  });
  expect(response.statusCode).toBe(415);
  expect(response.json().detail).toMatch(/application\/json/);
});

test('an unknown API route answers 404 JSON', async () => {
  const response = await call(ctx.app, 'GET', '/api/v1/nothing-here');
  expect(response.statusCode).toBe(404);
  expect(response.json()).toEqual({ detail: 'Route GET /api/v1/nothing-here not found' });
});

test('the trailing slash is optional', async () => {
  const { token } = await signUp(ctx.app);
  expect((await call(ctx.app, 'GET', '/api/v1/auth/me/', { token })).statusCode).toBe(200);
  expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token })).statusCode).toBe(200);
});

test('unknown fields are refused on authentication bodies', async () => {
  const response = await call(ctx.app, 'POST', '/api/v1/auth/login', { body: { email: 'a@b.c', password: 'x', is_admin: true } });
  expect(response.statusCode).toBe(400);
});

test('health tells anyone only the status of the database and queue; the media tools and versions are for admins', async () => {
  const short = { status: 'ok', database: 'ok', queue: 'disabled' };
  // Anonymous, a bad token, a signed-in user who is not an admin: the short answer.
  const user = await signUp(ctx.app);
  const callers: Array<Record<string, string>> = [
    {},
    { authorization: 'Bearer not-a-token' },
    { authorization: `Bearer ${user.token}` },
  ];
  for (const headers of callers) {
    for (const url of ['/api/v1/health', '/api/v1/health/ready']) {
      const response = await call(ctx.app, 'GET', url, { headers });
      expect([url, response.statusCode]).toEqual([url, 200]);
      expect(response.json()).toEqual(short);
      expect(response.body).not.toMatch(/ffmpeg|ffprobe|espeak|version|bundled/i);
    }
  }

  const admin = await signUp(ctx.app, { email: TEST_ADMIN_EMAIL });
  expect(admin.user.is_admin).toBe(true);
  const response = await call(ctx.app, 'GET', '/api/v1/health', { token: admin.token });
  expect(response.statusCode).toBe(200);
  const tool = {
    status: 'ok',
    source: expect.stringMatching(/^(bundled|system|FFMPEG_PATH|FFPROBE_PATH)$/),
    version: expect.any(String),
  };
  expect(response.json()).toEqual({
    ...short,
    media: {
      ffmpeg: tool,
      ffprobe: tool,
      local_voice: { status: 'ok', source: 'bundled', version: '@echogarden/espeak-ng-emscripten 0.3.5' },
    },
  });
  // Versions, never paths.
  expect(response.body).not.toContain('node_modules');
  expect(response.body).not.toContain('/usr/');
  expect((await call(ctx.app, 'GET', '/api/v1/health/ready', { token: admin.token })).json()).toMatchObject({
    media: { ffmpeg: tool },
  });
});

test('a server error hides its message and stack from the caller', async () => {
  const app = await buildTestApp();
  try {
    // Close the database under the app: the next query fails inside a service.
    await app.database.close();
    const response = await call(app.app, 'POST', '/api/v1/auth/login', { body: { email: 'a@b.c', password: 'secret1' } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: 'Internal server error' });
    expect(response.body).not.toMatch(/at |select|PGlite|closed/i);
  } finally {
    await app.app.close();
  }
});

describe('serving the web app', () => {
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-web-'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>shell</title>');
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(path.join(webDir, 'assets', 'main.0123456789ab.js'), 'console.log(1)');
  afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));

  test('serves files, falls back to the shell for client routes, and keeps API 404s JSON', async () => {
    const database = await freshDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-data-'));
    const config = loadConfig({ DATA_DIR: dataDir, WEB_DIR: webDir, LOG_LEVEL: 'silent' });
    const app = await buildApp({ config, database, logger: false });
    try {
      const root = await app.inject({ method: 'GET', url: '/' });
      expect(root.statusCode).toBe(200);
      expect(root.body).toContain('<title>shell</title>');
      const deep = await app.inject({ method: 'GET', url: '/settings?tab=profile' });
      expect(deep.statusCode).toBe(200);
      expect(deep.body).toContain('<title>shell</title>');
      const asset = await app.inject({ method: 'GET', url: '/assets/main.0123456789ab.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');
      const missingAsset = await app.inject({ method: 'GET', url: '/assets/missing.js' });
      expect(missingAsset.statusCode).toBe(404);
      const api = await app.inject({ method: 'GET', url: '/api/v1/unknown' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toHaveProperty('detail');
    } finally {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
