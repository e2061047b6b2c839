import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { createStoryResponder } from '../fakes/storyResponder';
import { createEngine, type Engine } from '../src/pipeline/engine';
import { TEST_ADMIN_EMAIL, buildTestApp, call, signUp, type TestContext, pipelineEnv } from './helper';

// A full run narrates, draws and renders a video: on a busy 2-core machine that can take a while.
jest.setTimeout(180_000);

/**
 * Narration and images from other OpenAI-compatible servers than the chat model's (Settings ›
 * ChatGPT API › speech and image servers): each request goes to its own server with its own model,
 * and the user's key only to the chat API's host. ALLOW_PRIVATE_URLS lets these 127.0.0.1 fakes
 * stand for a user's local Kokoro-FastAPI or LocalAI.
 */
const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
const KEY = 'sk-media-servers-0123456789';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let chat: FakeOpenAI;
let speech: FakeOpenAI;
let images: FakeOpenAI;
let google: FakeGoogle;
let ctx: TestContext;
let engine: Engine;

beforeAll(async () => {
  chat = await startFakeOpenAI({ respond: createStoryResponder({ brief: true }) });
  speech = await startFakeOpenAI({ speechModels: ['kokoro'], keyless: true });
  images = await startFakeOpenAI({ imageModels: ['dall-e-3'], keyless: true });
  google = await startFakeGoogle();
  ctx = await buildTestApp(
    { ...pipelineEnv(chat.url, google, 'openai'), ALLOW_PRIVATE_URLS: 'true' },
    { enqueue: async () => null },
  );
  engine = createEngine({ services: ctx.app.services, config: ctx.config, log: silent, now: () => ctx.clock.now });
});

afterAll(async () => {
  await ctx.close();
  await Promise.all([chat.close(), speech.close(), images.close(), google.close()]);
});

test('speech and images go to the user’s own servers with their models, the key only to the chat API’s host', async () => {
  const admin = (await signUp(ctx.app, { email: TEST_ADMIN_EMAIL })).token;
  const voice = (
    await call(ctx.app, 'POST', '/api/v1/voices/', {
      token: admin,
      body: {
        name: 'Kokoro',
        type: 'Narradora',
        sample_url: 'https://example.com/k.mp3',
        language: 'pt',
        provider: 'openai',
        provider_voice_id: 'nova',
      },
    })
  ).json().id;
  const { token } = await signUp(ctx.app);
  const saved = await call(ctx.app, 'POST', '/api/v1/chatgpt/config', {
    token,
    body: {
      api_key: KEY,
      speech_base_url: speech.url,
      speech_model: 'kokoro',
      image_base_url: images.url,
      image_model: 'dall-e-3',
    },
  });
  expect(saved.statusCode).toBe(201);
  expect(saved.json()).toMatchObject({
    speech_base_url: speech.url,
    speech_model: 'kokoro',
    image_base_url: images.url,
    image_model: 'dall-e-3',
  });
  google.addClient('k.apps.googleusercontent.com', 'GOCSPX-k');
  const channel = (
    await call(ctx.app, 'POST', '/api/v1/channels/', { token, body: { channel_id: 'UC_media_servers', name: 'K' } })
  ).json().id;
  const config = (
    await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
      token,
      body: {
        name: 'K',
        channel_id: 'UC_media_servers',
        client_id: 'k.apps.googleusercontent.com',
        client_secret: 'GOCSPX-k',
        refresh_token: google.issueRefreshToken(
          'k.apps.googleusercontent.com',
          google.addAccount([{ id: 'UC_media_servers', title: 'K', subscriberCount: 0, videoCount: 0, viewCount: 0 }]),
        ),
      },
    })
  ).json().id;
  const processId = (
    await call(ctx.app, 'POST', '/api/v1/processes/', {
      token,
      body: {
        name: 'Kokoro',
        channel_id: channel,
        youtube_api_id: config,
        prompt_id: BUILTIN_DRAMA,
        language: 'pt',
        voice_id: voice,
      },
    })
  ).json().id;
  const id = (await call(ctx.app, 'POST', `/api/v1/processes/${processId}/execute`, { token })).json().execution_id;

  await engine.run(id);

  const run = (await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token })).json();
  expect(run).toMatchObject({ status: 'completed', current_step: 6 });
  // The chat model wrote the story; nothing else went to it.
  expect(chat.requests.every((r) => r.path === '/v1/chat/completions')).toBe(true);
  expect(chat.requests.every((r) => r.apiKey === KEY)).toBe(true);
  const spoken = speech.requests.filter((r) => r.path === '/v1/audio/speech');
  expect(spoken).toHaveLength(2);
  expect(spoken[0]!.body).toMatchObject({ model: 'kokoro', voice: 'nova' });
  const drawn = images.requests.filter((r) => r.path === '/v1/images/generations');
  expect(drawn).toHaveLength(4);
  expect(drawn[0]!.body).toMatchObject({ model: 'dall-e-3', size: '1792x1024' });
  // Other hosts than the chat API's never see the user's key.
  for (const request of [...speech.requests, ...images.requests]) expect(request.apiKey).toBeNull();
});

test('without ALLOW_PRIVATE_URLS a speech server of the user’s own on a private address is refused, and gets nothing', async () => {
  const strict = await buildTestApp(
    { ...pipelineEnv(chat.url, google, 'openai'), ALLOW_PRIVATE_URLS: 'false' },
    { enqueue: async () => null },
  );
  try {
    const strictEngine = createEngine({
      services: strict.app.services,
      config: strict.config,
      log: silent,
      now: () => strict.clock.now,
    });
    const admin = (await signUp(strict.app, { email: TEST_ADMIN_EMAIL })).token;
    const voice = (
      await call(strict.app, 'POST', '/api/v1/voices/', {
        token: admin,
        body: {
          name: 'K',
          type: 'N',
          sample_url: 'https://example.com/k.mp3',
          language: 'pt',
          provider: 'openai',
          provider_voice_id: 'nova',
        },
      })
    ).json().id;
    const { token } = await signUp(strict.app);
    await call(strict.app, 'POST', '/api/v1/chatgpt/config', { token, body: { api_key: KEY, speech_base_url: speech.url } });
    google.addClient('s.apps.googleusercontent.com', 'GOCSPX-s');
    const channel = (
      await call(strict.app, 'POST', '/api/v1/channels/', { token, body: { channel_id: 'UC_strict', name: 'S' } })
    ).json().id;
    const config = (
      await call(strict.app, 'POST', '/api/v1/youtube-apis/', {
        token,
        body: {
          name: 'S',
          channel_id: 'UC_strict',
          client_id: 's.apps.googleusercontent.com',
          client_secret: 'GOCSPX-s',
          refresh_token: google.issueRefreshToken(
            's.apps.googleusercontent.com',
            google.addAccount([{ id: 'UC_strict', title: 'S', subscriberCount: 0, videoCount: 0, viewCount: 0 }]),
          ),
        },
      })
    ).json().id;
    const processId = (
      await call(strict.app, 'POST', '/api/v1/processes/', {
        token,
        body: {
          name: 'S',
          channel_id: channel,
          youtube_api_id: config,
          prompt_id: BUILTIN_DRAMA,
          language: 'pt',
          voice_id: voice,
        },
      })
    ).json().id;
    const id = (await call(strict.app, 'POST', `/api/v1/processes/${processId}/execute`, { token })).json().execution_id;
    speech.reset();
    await strictEngine.run(id);
    const run = (await call(strict.app, 'GET', `/api/v1/executions/${id}`, { token })).json();
    expect(run).toMatchObject({ status: 'error', current_step: 3 });
    expect(run.error).toMatch(/private or local network/);
    expect(speech.requests).toHaveLength(0);
  } finally {
    await strict.close();
  }
});
