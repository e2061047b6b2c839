import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { startFakeOpenAI, type FakeChatRequest, type FakeOpenAI } from '../fakes/openai';
import { createStoryResponder } from '../fakes/storyResponder';

/**
 * Real crashes: the server (as `npm start` runs it, on the embedded database) is killed with
 * SIGKILL in the middle of a run, then started again on the same data folder. The run resumes
 * from its checkpoint — the title is not asked for again, an upload goes on where YouTube's
 * session stopped — and goes on to the end.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
const HELENA = '387bfe25-192a-4eb3-aa8b-be1f9e202b9a';

let fake: FakeOpenAI;
let google: FakeGoogle;
let dataDir: string;
let port: number;
let server: ChildProcess | undefined;
const serverOutput: string[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
}

async function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: 'server/tsconfig.json',
      // The embedded database, as `npm start` runs it, even when the suite runs on PostgreSQL.
      DATABASE_URL: '',
      NODE_OPTIONS: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      OPENAI_BASE_URL: fake.url,
      GOOGLE_AUTH_URL: google.authUrl,
      GOOGLE_TOKEN_URL: google.tokenUrl,
      YOUTUBE_API_URL: google.apiUrl,
      IMAGE_PROVIDER: 'local',
      STORY_CHAPTERS: '3',
      // The kill and the restart are under test, not pixels: a quarter of the size, as buildTestApp renders.
      RENDER_SCALE: '0.25',
      WEB_DIR: path.join(dataDir, 'no-web'),
      APP_SECRET: 'crash-test-secret-crash-test-secret-0123456789',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The server's output is kept: when it dies, the test says why.
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => serverOutput.push(chunk.toString()));
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGKILL' && signal !== 'SIGTERM')
      console.error(`the server exited (${code ?? signal}):\n${serverOutput.join('').slice(-4000)}`);
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return child;
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

async function api(method: string, url: string, body?: unknown, token?: string) {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 250));
    value = await read();
  }
  return value;
}

const isTitleRequest = (body: unknown) =>
  ((body as FakeChatRequest).messages ?? []).some((m) => typeof m.content === 'string' && m.content.startsWith('Crie um título'));

/**
 * A user ready to run: a chat-model key, a channel, a configuration authorized on the fake
 * YouTube for it, and a process. Answers the token and the process id.
 */
async function readyUser(name: string, channelId: string): Promise<{ token: string; processId: string }> {
  const slug = name.toLowerCase();
  const { json: auth } = await api('POST', '/auth/register', {
    name,
    email: `${slug}@example.com`,
    password: 'crash-secret',
    plan: 'monthly',
  });
  const token: string = auth.access_token;
  expect((await api('POST', '/chatgpt/config', { api_key: 'sk-crash-0123456789abcdef' }, token)).status).toBe(201);
  const channel = (await api('POST', '/channels/', { channel_id: channelId, name }, token)).json;
  const clientId = `${slug}.apps.googleusercontent.com`;
  google.addClient(clientId, `GOCSPX-${slug}`);
  const account = google.addAccount([{ id: channelId, title: name, subscriberCount: 0, videoCount: 0, viewCount: 0 }]);
  const refreshToken = google.issueRefreshToken(clientId, account);
  const config = (
    await api(
      'POST',
      '/youtube-apis/',
      { name, channel_id: channelId, client_id: clientId, client_secret: `GOCSPX-${slug}`, refresh_token: refreshToken },
      token,
    )
  ).json;
  const process = (
    await api(
      'POST',
      '/processes/',
      { name, channel_id: channel.id, youtube_api_id: config.id, prompt_id: BUILTIN_DRAMA, language: 'pt', voice_id: HELENA },
      token,
    )
  ).json;
  return { token, processId: process.id };
}

beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: createStoryResponder({ brief: true }) });
  google = await startFakeGoogle();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crash-test-'));
  port = await freePort();
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  await fake.close();
  await google.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a run cut by a killed server resumes from its checkpoint when the server starts again', async () => {
  server = await startServer();
  const { token, processId } = await readyUser('Crash', 'UC_crash');

  // Slow answers, so the kill lands while the story is being written.
  fake.setDelay(700);
  const executed = await api('POST', `/processes/${processId}/execute`, undefined, token);
  expect(executed.status).toBe(202);
  const executionId: string = executed.json.execution_id;
  const read = async () => (await api('GET', `/executions/${executionId}`, undefined, token)).json;
  const cut = await waitFor(read, (e) => e.current_step >= 2, 60_000);
  expect(cut.status).toBe('running');
  const title = cut.story_title;
  expect(title).toBeTruthy();

  server.kill('SIGKILL');
  await new Promise((r) => server!.once('exit', r));
  fake.setDelay(0);

  server = await startServer();
  const finished = await waitFor(read, (e) => e.status !== 'running' && e.status !== 'queued', 120_000);
  expect(finished).toMatchObject({ status: 'completed', current_step: 6, story_title: title, error: null });
  expect(finished.video_url).toBeTruthy();
  expect(google.uploads).toHaveLength(1);
  // The title was written once: the resumed run started from the checkpoint.
  expect(fake.requests.filter((r) => r.path === '/v1/chat/completions' && isTitleRequest(r.body))).toHaveLength(1);
}, 240_000);

test('a server killed mid-upload resumes YouTube’s upload session when it starts again: one video, not two', async () => {
  if (!server || server.exitCode !== null) server = await startServer();
  const { token, processId } = await readyUser('Upload', 'UC_crash_upload');

  // YouTube keeps the first 256 KiB of the video, then the connection stalls: the kill lands there.
  google.holdUploadAfter(256 * 1024);
  const executionId: string = (await api('POST', `/processes/${processId}/execute`, undefined, token)).json.execution_id;
  const sessions = () => [...google.uploadSessions.values()].filter((s) => s.channelId === 'UC_crash_upload');
  const uploads = () =>
    google.uploads.filter((u) =>
      [...google.uploadSessions.values()].some((s) => s.id === u.sessionId && s.channelId === 'UC_crash_upload'),
    );
  await waitFor(
    async () => sessions(),
    (all) => all.some((s) => s.received >= 256 * 1024),
    120_000,
  );
  expect(uploads()).toHaveLength(0);

  server.kill('SIGKILL');
  await new Promise((r) => server!.once('exit', r));
  server = await startServer();

  const read = async () => (await api('GET', `/executions/${executionId}`, undefined, token)).json;
  const finished = await waitFor(read, (e) => e.status !== 'running' && e.status !== 'queued', 120_000);
  expect(finished).toMatchObject({ status: 'completed', error: null });
  // One session, resumed: one video, byte for byte the rendered file.
  expect(sessions()).toHaveLength(1);
  expect(uploads()).toHaveLength(1);
  const rendered = fs.readFileSync(path.join(dataDir, 'media', executionId, 'video.mp4'));
  expect(uploads()[0]!.sha256).toBe(crypto.createHash('sha256').update(rendered).digest('hex'));
  const history = (await api('GET', '/publications/', undefined, token)).json;
  expect(history.publications).toHaveLength(1);
  expect(history.publications[0]).toMatchObject({ video_id: uploads()[0]!.id, status: 'processing', visibility: 'private' });
}, 300_000);
