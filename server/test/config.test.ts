import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-config-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('defaults', () => {
  const config = loadConfig({ DATA_DIR: dataDir });
  expect(config).toMatchObject({
    port: 3000,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: undefined,
    adminEmails: [],
    publicUrl: 'http://localhost:3000',
    logLevel: 'info',
    smtpUrl: undefined,
    workerNice: 10,
    renderScale: 1,
  });
  expect(loadConfig({ DATA_DIR: dataDir, WORKER_NICE: '0' }).workerNice).toBe(0);
  expect(loadConfig({ DATA_DIR: dataDir, RENDER_SCALE: '0.25' }).renderScale).toBe(0.25);
  expect(loadConfig({ DATA_DIR: dataDir, RENDER_SCALE: '1' }).renderScale).toBe(1);
});

test('APP_SECRET is generated once and kept in DATA_DIR', () => {
  const first = loadConfig({ DATA_DIR: dataDir }).appSecret;
  const second = loadConfig({ DATA_DIR: dataDir }).appSecret;
  expect(first.length).toBeGreaterThanOrEqual(32);
  expect(second).toBe(first);
  expect(fs.readFileSync(path.join(dataDir, 'app-secret'), 'utf8').trim()).toBe(first);
});

test.each([
  [{ PORT: 'eighty' }, /PORT must be an integer/],
  [{ PORT: '70000' }, /PORT must be an integer/],
  [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use postgres/],
  [{ ADMIN_EMAIL: 'not-an-email' }, /ADMIN_EMAIL must be an email/],
  [{ APP_SECRET: 'short' }, /APP_SECRET must be at least 32/],
  [{ PUBLIC_URL: 'nope' }, /PUBLIC_URL must be a URL/],
  [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
  [{ SMTP_URL: 'http://mail' }, /SMTP_URL must use smtp/],
  [{ RUN_JOBS: 'maybe' }, /RUN_JOBS must be true or false/],
  [{ WORKER_NICE: '20' }, /WORKER_NICE must be an integer/],
  [{ WORKER_NICE: '-5' }, /WORKER_NICE must be an integer/],
  [{ RENDER_SCALE: '0' }, /RENDER_SCALE must be a number between 0.1 and 1/],
  [{ RENDER_SCALE: '0.05' }, /RENDER_SCALE must be a number between 0.1 and 1/],
  [{ RENDER_SCALE: '2' }, /RENDER_SCALE must be a number between 0.1 and 1/],
  [{ RENDER_SCALE: '1/4' }, /RENDER_SCALE must be a number between 0.1 and 1/],
  [{ RENDER_SCALE: 'half' }, /RENDER_SCALE must be a number between 0.1 and 1/],
])('refuses %j with a clear message', (env, message) => {
  expect(() => loadConfig({ DATA_DIR: dataDir, ...env })).toThrow(ConfigError);
  expect(() => loadConfig({ DATA_DIR: dataDir, ...env })).toThrow(message);
});

test('ADMIN_EMAIL takes a comma-separated list, case-insensitively', () => {
  expect(loadConfig({ DATA_DIR: dataDir, ADMIN_EMAIL: 'Boss@Example.com, ops@example.com' }).adminEmails).toEqual([
    'boss@example.com',
    'ops@example.com',
  ]);
});

test('TikTok and Meta: the real addresses by default, the operator apps only when set, upload origins validated', () => {
  const config = loadConfig({ DATA_DIR: dataDir });
  expect(config).toMatchObject({
    tiktokAuthUrl: 'https://www.tiktok.com/v2/auth/authorize/',
    tiktokApiUrl: 'https://open.tiktokapis.com/',
    tiktokUploadOrigins: ['https://open-upload.tiktokapis.com'],
    tiktokClientKey: undefined,
    tiktokClientSecret: undefined,
    tiktokAppAudited: false,
    metaAuthUrl: 'https://www.facebook.com/v21.0/dialog/oauth',
    metaGraphUrl: 'https://graph.facebook.com/',
    metaUploadUrl: 'https://rupload.facebook.com/',
    metaAppId: undefined,
    metaAppSecret: undefined,
    metaConfigId: undefined,
  });
  const set = loadConfig({
    DATA_DIR: dataDir,
    TIKTOK_API_URL: 'http://127.0.0.1:9000',
    TIKTOK_UPLOAD_ORIGINS: ' http://127.0.0.1:9000/ , https://upload.example.com/path ',
    TIKTOK_APP_AUDITED: 'true',
    META_GRAPH_URL: 'http://127.0.0.1:9001',
    META_APP_ID: '123',
  });
  expect(set).toMatchObject({
    tiktokApiUrl: 'http://127.0.0.1:9000/',
    tiktokUploadOrigins: ['http://127.0.0.1:9000', 'https://upload.example.com'],
    tiktokAppAudited: true,
    metaGraphUrl: 'http://127.0.0.1:9001/',
    metaAppId: '123',
  });
  expect(() => loadConfig({ DATA_DIR: dataDir, TIKTOK_UPLOAD_ORIGINS: 'ftp://upload.example.com' })).toThrow(
    'TIKTOK_UPLOAD_ORIGINS must use http: or https:',
  );
  expect(() => loadConfig({ DATA_DIR: dataDir, META_AUTH_URL: 'not a url' })).toThrow(ConfigError);
});
