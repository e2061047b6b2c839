import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
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

export async function buildTestApp(
  overrides: Record<string, string> = {},
  options: Pick<BuildOptions, 'enqueue' | 'queue'> = {},
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
    ...overrides,
  });
  const mailer = memoryMailer();
  const clock = {
    now: new Date(),
    advance(ms: number) {
      this.now = new Date(this.now.getTime() + ms);
    },
  };
  const app = await buildApp({ config, database, mailer, logger: false, now: () => clock.now, ...options });
  await app.ready();
  return {
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
}

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
/** Registers a user and answers its token and user. */
export async function signUp(
  app: FastifyInstance,
  fields: Partial<{ name: string; email: string; password: string; plan: string }> = {},
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
  return { token: json.access_token, user: json.user, password: body.password };
}
