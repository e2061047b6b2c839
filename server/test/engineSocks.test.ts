import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startSocks5Proxy, type ProxyLog, type Running } from '../fakes/proxies';
import { createStoryResponder } from '../fakes/storyResponder';
import { createEngine, type Engine } from '../src/pipeline/engine';
import { closeSharedDispatchers } from '../src/providers/proxies';
import { TEST_ADMIN_EMAIL, buildTestApp, call, signUp, type TestContext, pipelineEnv } from './helper';

// A full run narrates, draws and renders a video: on a busy 2-core machine that can take a while.
jest.setTimeout(180_000);

/**
 * A run of the video engine through an admin's socks5:// proxy (with a username and password):
 * the chat model, OpenAI speech, OpenAI images and YouTube (token, upload, thumbnail, captions)
 * all go through it, counted by the fake proxy; the proxy test says "connected" for it. With a
 * wrong password the proxy test says why, and a run fails without reaching any service.
 */

const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
const USER = 'engine';
const PASSWORD = 'socks-Tunnel/Pass';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let fake: FakeOpenAI;
let google: FakeGoogle;
let socks: Running & ProxyLog;
let ctx: TestContext;
let engine: Engine;
let admin: string;
let token: string;
let processId: string;
let proxyId: string;

const socksUrl = (password: string) => `socks5://${USER}:${encodeURIComponent(password)}@127.0.0.1:${socks.port}`;

beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: createStoryResponder({ brief: true }) });
  google = await startFakeGoogle();
  socks = await startSocks5Proxy({ username: USER, password: PASSWORD });
  ctx = await buildTestApp(
    { ...pipelineEnv(fake.url, google, 'openai'), PROXY_CHECK_URL: `${google.url}/generate_204` },
    { enqueue: async () => null },
  );
  engine = createEngine({ services: ctx.app.services, config: ctx.config, log: silent, now: () => ctx.clock.now });
  admin = (await signUp(ctx.app, { email: TEST_ADMIN_EMAIL })).token;
  const voice = (
    await call(ctx.app, 'POST', '/api/v1/voices/', {
      token: admin,
      body: {
        name: 'Nova',
        type: 'Narradora',
        sample_url: 'https://example.com/nova.mp3',
        language: 'pt',
        provider: 'openai',
        provider_voice_id: 'nova',
      },
    })
  ).json().id;
  const proxy = await call(ctx.app, 'POST', '/api/v1/proxies/', {
    token: admin,
    body: { name: 'SOCKS5 out', url: socksUrl(PASSWORD) },
  });
  expect(proxy.statusCode).toBe(201);
  proxyId = proxy.json().id;

  ({ token } = await signUp(ctx.app));
  google.addClient('socks.apps.googleusercontent.com', 'GOCSPX-socks');
  await call(ctx.app, 'POST', '/api/v1/chatgpt/config', { token, body: { api_key: 'sk-socks-engine-0123456789' } });
  const channel = (
    await call(ctx.app, 'POST', '/api/v1/channels/', { token, body: { channel_id: 'UC_socks_engine', name: 'S' } })
  ).json().id;
  const config = (
    await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
      token,
      body: {
        name: 'S',
        channel_id: 'UC_socks_engine',
        client_id: 'socks.apps.googleusercontent.com',
        client_secret: 'GOCSPX-socks',
        refresh_token: google.issueRefreshToken(
          'socks.apps.googleusercontent.com',
          google.addAccount([{ id: 'UC_socks_engine', title: 'S', subscriberCount: 0, videoCount: 0, viewCount: 0 }]),
        ),
      },
    })
  ).json().id;
  const process = await call(ctx.app, 'POST', '/api/v1/processes/', {
    token,
    body: {
      name: 'Through SOCKS5',
      channel_id: channel,
      youtube_api_id: config,
      prompt_id: BUILTIN_DRAMA,
      language: 'pt',
      voice_id: voice,
    },
  });
  expect(process.statusCode).toBe(201);
  processId = process.json().id;
});

afterAll(async () => {
  await ctx.close();
  await closeSharedDispatchers();
  await Promise.all([fake.close(), google.close(), socks.close()]);
});

async function runOnce(): Promise<{ status: string; current_step: number; error: string | null }> {
  const executed = await call(ctx.app, 'POST', `/api/v1/processes/${processId}/execute`, { token });
  expect(executed.statusCode).toBe(202);
  const id = executed.json().execution_id;
  await engine.run(id);
  return (await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token })).json();
}

/** `METHOD host/path` of each request, sorted: what a service received, to compare with what crossed the proxy. */
const sorted = (lines: string[]) => lines.map((line) => line.replace(/\?.*$/, '')).sort();

test('a run goes through the socks5 proxy: chat model, speech, images and YouTube; the proxy test says connected', async () => {
  const tested = await call(ctx.app, 'POST', `/api/v1/proxies/${proxyId}/test`, { token: admin });
  expect(tested.json()).toMatchObject({ is_connected: true });

  const tunnels = socks.tunnels.length;
  const requests = socks.requests.length;
  const googleBefore = google.requests.length;
  fake.reset();
  const done = await runOnce();
  expect(done).toMatchObject({ status: 'completed', current_step: 6 });
  expect(google.uploads).toHaveLength(1);

  const openaiHost = `127.0.0.1:${fake.port}`;
  const googleHost = new URL(google.url).host;
  const crossed = socks.requests.slice(requests);
  const openaiCalls = fake.requests.map((r) => `${r.method} ${openaiHost}${r.path}`);
  expect(openaiCalls).toEqual(
    expect.arrayContaining([
      `POST ${openaiHost}/v1/chat/completions`,
      `POST ${openaiHost}/v1/audio/speech`,
      `POST ${openaiHost}/v1/images/generations`,
    ]),
  );
  const googleCalls = google.requests.slice(googleBefore).map((r) => `${r.method} ${googleHost}${r.path}`);
  expect(googleCalls).toEqual(
    expect.arrayContaining([
      `POST ${googleHost}/token`,
      `POST ${googleHost}/upload/youtube/v3/videos`,
      `PUT ${googleHost}/upload/youtube/v3/videos`,
      `POST ${googleHost}/upload/youtube/v3/thumbnails/set`,
    ]),
  );
  // Every call the services received came through the proxy, and nothing else did.
  expect(sorted(crossed)).toEqual(sorted([...openaiCalls, ...googleCalls]));
  expect(socks.tunnels.slice(tunnels).every((t) => t === openaiHost || t === googleHost)).toBe(true);
  expect(socks.refusals).toBe(0);
});

test('with a wrong password the proxy test says why, and a run fails without reaching any service', async () => {
  const changed = await call(ctx.app, 'PUT', `/api/v1/proxies/${proxyId}`, {
    token: admin,
    body: { url: socksUrl('wrong-password-123') },
  });
  expect(changed.statusCode).toBe(200);
  const tested = await call(ctx.app, 'POST', `/api/v1/proxies/${proxyId}/test`, { token: admin });
  expect(tested.json()).toMatchObject({
    is_connected: false,
    detail: 'Failed to connect to proxy. Check the URL. (SOCKS5 authentication failed: check the username and password)',
  });

  const refusals = socks.refusals;
  const googleBefore = google.requests.length;
  fake.reset();
  const failed = await runOnce();
  expect(failed).toMatchObject({ status: 'error', current_step: 1 });
  expect(failed.error).toMatch(/could not be reached \(check the address, the network or the proxy\)/);
  expect(socks.refusals).toBeGreaterThan(refusals);
  expect(fake.requests).toHaveLength(0);
  expect(google.requests.length).toBe(googleBefore);
});
