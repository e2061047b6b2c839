/**
 * What the multi-process scripts (test-workers, test-outage, bench-scale) share: a free port, a
 * server program of this repository started from its sources or as built, with its output in a log
 * file, and the last lines of a log.
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

/**
 * How a script runs the server's programs: from the TypeScript sources under tsx (the default: no
 * build, what the tests want), or `built`, as `npm start` and `npm run worker` run them in
 * production, from server/dist (built here first when the sources changed), which is what a
 * benchmark must measure: tsx's loader and source maps cost every process CPU of their own.
 */
export type ProgramMode = 'sources' | 'built';

let serverBuilt = false;

/** A server program of this repository (`server/src/<path>.ts`), its output in `logFile`. */
export function startProgram(
  entry: string,
  env: NodeJS.ProcessEnv,
  logFile: string,
  mode: ProgramMode = 'sources',
): ChildProcess {
  const log = fs.openSync(logFile, 'a');
  // BENCH_CPU_PROF_DIR: each program writes a V8 CPU profile there when it exits (open it in
  // Chromium's DevTools, Performance panel), to see where a bench's time goes.
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
  let program: string[];
  if (mode === 'built') {
    if (!serverBuilt) {
      (require(path.join(ROOT, 'scripts', 'build.js')) as { build(names: string[]): void }).build(['server']);
      serverBuilt = true;
    }
    const built = path.join(ROOT, entry.replace(/^server\/src\//, 'server/dist/').replace(/\.ts$/, '.js'));
    program = [built];
  } else {
    program = ['--import', 'tsx', entry];
  }
  const child = spawn(process.execPath, [...profile, ...program], {
    cwd: ROOT,
    env: { ...env, TSX_TSCONFIG_PATH: 'server/tsconfig.json' },
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
  mode: ProgramMode = 'sources',
): Promise<{ api: ChildProcess; base: string }> {
  const api = startProgram('server/src/server.ts', { ...env, PORT: String(port), RUN_JOBS: 'false' }, logFile, mode);
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

/** The built-in prompt and voice a script's processes use. */
export const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
export const HELENA = '387bfe25-192a-4eb3-aa8b-be1f9e202b9a';

export interface ApiAnswer {
  status: number;
  json: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Calls of the API at `base`: `raw` answers any status, `ok` throws on anything but 2xx. */
export function apiClient(base: string) {
  const raw = async (method: string, url: string, body?: unknown, token?: string): Promise<ApiAnswer> => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as ApiAnswer['json']) : {} };
  };
  const ok = async (method: string, url: string, body?: unknown, token?: string): Promise<ApiAnswer['json']> => {
    const answer = await raw(method, url, body, token);
    if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.json)}`);
    return answer.json;
  };
  return { raw, ok };
}

/**
 * A user ready to run: signed up, a chat-model key, a channel and a YouTube configuration
 * authorized on the fake Google for it. Answers the token and what a process needs.
 */
export async function readyUser(
  api: ReturnType<typeof apiClient>,
  google: { addClient(id: string, secret: string): void; issueRefreshToken(clientId: string, accountId: string): string },
  options: { slug: string; channelId: string; accountId: string },
): Promise<{ token: string; process: (name: string) => Record<string, unknown> }> {
  const { slug, channelId, accountId } = options;
  const clientId = `${slug}.apps.googleusercontent.com`;
  google.addClient(clientId, `GOCSPX-${slug}`);
  const { access_token: token } = await api.ok('POST', '/auth/register', {
    name: slug,
    email: `${slug}@example.com`,
    password: `${slug}-test-123`,
    plan: 'annual',
  });
  await api.ok('POST', '/chatgpt/config', { api_key: `sk-${slug}-0123456789abcdef0123` }, token);
  const channel = await api.ok('POST', '/channels/', { channel_id: channelId, name: slug }, token);
  const youtube = await api.ok(
    'POST',
    '/youtube-apis/',
    {
      name: slug,
      channel_id: channelId,
      client_id: clientId,
      client_secret: `GOCSPX-${slug}`,
      refresh_token: google.issueRefreshToken(clientId, accountId),
    },
    token,
  );
  const process = (name: string) => ({
    name,
    channel_id: channel.id,
    youtube_api_id: youtube.id,
    prompt_id: BUILTIN_DRAMA,
    language: 'pt',
    voice_id: HELENA,
  });
  return { token: token as string, process };
}
