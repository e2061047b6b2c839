import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { users } from '../src/db/schema';
import { buildApp, type BuildOptions } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openDatabase, type Database } from '../src/db';
import { memoryMailer } from '../src/providers/mailer';
import { TEMPLATE_DB_NAME, adminUrl } from './postgres';

export const TEST_ADMIN_EMAIL = 'admin@example.com';

/** A fresh database cloned from the migrated template: PGlite in memory, or a PostgreSQL copy. */
export async function freshDatabase(): Promise<Database> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const name = `svc_test_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl) });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB_NAME}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), migrate: false, poolSize: 4 });
    return {
      ...database,
      async close() {
        await database.close();
        const drop = new pg.Client({ connectionString: adminUrl(databaseUrl) });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await drop.end();
      },
    };
  }
  const template = process.env.TEST_PGLITE_TEMPLATE;
  if (!template) throw new Error('TEST_PGLITE_TEMPLATE is not set: run the server tests through jest');
  return openDatabase({ loadDataDir: new Blob([fs.readFileSync(template)]), migrate: false });
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  mailer: ReturnType<typeof memoryMailer>;
  clock: { now: Date; advance(ms: number): void };
  close(): Promise<void>;
}

/** The password hash's cost in tests: 2^12 KiB keeps hundreds of sign-ups quick (production uses 2^17 and more). */
export const TEST_PASSWORD_HASH_COST = 12;

/** The share of the full frame test runs render (RENDER_SCALE; docs/decisions.md, "Test renders"). */
export const TEST_RENDER_SCALE = '0.25';

export async function buildTestApp(
  overrides: Record<string, string> = {},
  options: Pick<BuildOptions, 'enqueue' | 'queue' | 'passwordHashCost'> = {},
): Promise<TestContext> {
  const database = await freshDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-data-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: TEST_ADMIN_EMAIL,
    APP_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://console.test',
    WEB_DIR: path.join(dataDir, 'no-web'),
    // The fakes listen on 127.0.0.1, and one test client sends thousands of requests.
    ALLOW_PRIVATE_URLS: 'true',
    API_RATE_LIMIT_PER_MINUTE: '0',
    AUTH_RATE_LIMIT_PER_HOUR: '100000',
    TEST_RATE_LIMIT_PER_HOUR: '100000',
    // Runs render at a quarter of the size (480x270, 270x480 for a Short): the same graph for a
    // sixteenth of the pixels x264 encodes. A test about the real size passes RENDER_SCALE: '1'.
    RENDER_SCALE: TEST_RENDER_SCALE,
    ...overrides,
  });
  const mailer = memoryMailer();
  const clock = {
    now: new Date(),
    advance(ms: number) {
      this.now = new Date(this.now.getTime() + ms);
    },
  };
  const app = await buildApp({
    config,
    database,
    mailer,
    logger: false,
    now: () => clock.now,
    passwordHashCost: TEST_PASSWORD_HASH_COST,
    ...options,
  });
  await app.ready();
  const context: TestContext = {
    app,
    database,
    config,
    mailer,
    clock,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  contexts.set(app, context);
  return context;
}

/** The context of each app buildTestApp made, so helpers given only the app reach its database. */
const contexts = new WeakMap<FastifyInstance, TestContext>();

/** Sends a JSON request; `token` adds the bearer header. */
export function call(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    payload: options.body === undefined ? undefined : (options.body as InjectOptions['payload']),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
  });
}

let counter = 0;
/**
 * Registers a user and answers its token and user. The address counts as confirmed (as if the
 * link of the email had been followed), unless `verified: false`: most tests are about something
 * else, and admin rights need a confirmed address.
 */
export async function signUp(
  app: FastifyInstance,
  fields: Partial<{ name: string; email: string; password: string; plan: string; verified: boolean }> = {},
) {
  counter += 1;
  const body = {
    name: fields.name ?? `User ${counter}`,
    email: fields.email ?? `user${counter}-${crypto.randomBytes(3).toString('hex')}@example.com`,
    password: fields.password ?? 'secret123',
    plan: fields.plan ?? 'monthly',
  };
  const response = await call(app, 'POST', '/api/v1/auth/register', { body });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const json = response.json() as { access_token: string; user: { id: string; email: string; is_admin: boolean } };
  // The confirmation email goes out in the background: let it, so it never lands in a later test's inbox.
  await app.services.drainEmails();
  const context = contexts.get(app);
  if (fields.verified !== false && context) {
    await context.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, json.user.id));
    const me = await call(app, 'GET', '/api/v1/auth/me', { token: json.access_token });
    if (me.statusCode === 200) json.user = me.json();
  }
  return { token: json.access_token, user: json.user, password: body.password };
}

/** The environment of a pipeline test: the chat model and Google at their fakes on 127.0.0.1, two chapters. */
export function pipelineEnv(
  openaiUrl: string,
  google: { authUrl: string; tokenUrl: string; apiUrl: string },
  imageProvider: 'local' | 'openai' = 'local',
): Record<string, string> {
  return {
    OPENAI_BASE_URL: openaiUrl,
    IMAGE_PROVIDER: imageProvider,
    STORY_CHAPTERS: '2',
    GOOGLE_AUTH_URL: google.authUrl,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    YOUTUBE_API_URL: google.apiUrl,
  };
}

/** A sentence only an upstream answer carries: if it shows up in our JSON, upstream text leaked. */
export const UPSTREAM_MARKER = 'Only-The-Upstream-Says-This';
/**
 * An error page as a gateway in front of a provider answers it: HTML markup and a long English body.
 * Every place that calls a provider is fed this and must keep it out of what the web app reads.
 */
export const UPSTREAM_HTML =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>' +
  `<p>The proxy server received an invalid response from an upstream server. ${UPSTREAM_MARKER}. ` +
  'Please read the <a href="/docs/errors#gateway">error guide</a> and try again later. '.repeat(30) +
  '</p></body></html>';

/** Asserts that a body the web app reads carries none of UPSTREAM_HTML: not its words, not its markup. */
export function expectNoUpstreamText(body: string): void {
  expect(body).not.toContain(UPSTREAM_MARKER);
  expect(body).not.toMatch(/Bad Gateway|upstream server|error guide|<a |<\/|&lt;/i);
}
