/**
 * What the multi-process scripts (test-workers, bench-scale) share: a free port, a server program
 * of this repository started from its TypeScript sources with its output in a log file, and the
 * last lines of a log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds since this module loaded, right-aligned, for progress lines. */
export const stamp = (() => {
  const started = Date.now();
  return () => `${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s`;
})();

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server program of this repository run from its TypeScript sources, its output in `logFile`. */
export function startProgram(entry: string, env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', entry], {
    cwd: ROOT,
    env: { ...env, TS_NODE_PROJECT: 'server/tsconfig.json' },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  return child;
}

export function tail(file: string, lines = 30): string {
  if (!fs.existsSync(file)) return '';
  return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/** The environment of an API or worker process of a multi-process script, against the fakes. */
export function clusterEnv(options: {
  databaseUrl: string;
  dataDir: string;
  apiPort: number;
  openaiUrl: string;
  google: { authUrl: string; tokenUrl: string; apiUrl: string };
}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: options.dataDir,
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    PUBLIC_URL: `http://127.0.0.1:${options.apiPort}`,
    HOST: '127.0.0.1',
    WEB_DIR: path.join(options.dataDir, 'no-web'),
    LOG_LEVEL: 'info',
    OPENAI_BASE_URL: options.openaiUrl,
    GOOGLE_AUTH_URL: options.google.authUrl,
    GOOGLE_TOKEN_URL: options.google.tokenUrl,
    YOUTUBE_API_URL: options.google.apiUrl,
    IMAGE_PROVIDER: 'local',
    STORY_CHAPTERS: '2',
    ALLOW_PRIVATE_URLS: 'true',
    API_RATE_LIMIT_PER_MINUTE: '0',
  };
}

/** Starts the API alone (RUN_JOBS=false) and waits until it answers; answers the child and its /api/v1 base. */
export async function startApi(
  env: NodeJS.ProcessEnv,
  port: number,
  logFile: string,
): Promise<{ api: ChildProcess; base: string }> {
  const api = startProgram('server/src/server.ts', { ...env, PORT: String(port), RUN_JOBS: 'false' }, logFile);
  const base = `http://127.0.0.1:${port}/api/v1`;
  for (let waited = 0; ; waited += 250) {
    const ready = await fetch(`${base}/health/live`).catch(() => undefined);
    if (ready?.ok) return { api, base };
    if (waited > 120_000 || api.exitCode !== null) {
      api.kill('SIGKILL');
      throw new Error(`the API did not start:\n${tail(logFile)}`);
    }
    await sleep(250);
  }
}
