import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { createStoryResponder } from '../fakes/storyResponder';
import { createEngine, type Engine } from '../src/pipeline/engine';
import {
  TEST_ADMIN_EMAIL,
  UPSTREAM_HTML,
  buildTestApp,
  call,
  expectNoUpstreamText,
  signUp,
  type TestContext,
  pipelineEnv,
} from './helper';

// Every full run narrates, draws and renders a video: on a busy 2-core machine that can take a while.
jest.setTimeout(180_000);

/**
 * The engine with OpenAI narration and OpenAI images (IMAGE_PROVIDER=openai), against the fake
 * OpenAI server: the requests it makes, the files it writes, and steps 4 and 5 failing.
 */

const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let fake: FakeOpenAI;
let google: FakeGoogle;
let ctx: TestContext;
let engine: Engine;
let token: string;
let voice: string;
let channel: string;
let config: string;
/** The first test's execution, rewound by the last test. */
let firstRun: string;

beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: createStoryResponder({ brief: true }) });
  google = await startFakeGoogle();
  ctx = await buildTestApp(pipelineEnv(fake.url, google, 'openai'), { enqueue: async () => null });
  engine = createEngine({ services: ctx.app.services, config: ctx.config, log: silent, now: () => ctx.clock.now });
  const admin = (await signUp(ctx.app, { email: TEST_ADMIN_EMAIL })).token;
  voice = (
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
  ({ token } = await signUp(ctx.app));
  google.addClient('m.apps.googleusercontent.com', 'GOCSPX-m');
  await call(ctx.app, 'POST', '/api/v1/chatgpt/config', { token, body: { api_key: 'sk-openai-media-0123456789' } });
  channel = (
    await call(ctx.app, 'POST', '/api/v1/channels/', { token, body: { channel_id: 'UC_openai_media', name: 'M' } })
  ).json().id;
  config = (
    await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
      token,
      body: {
        name: 'M',
        channel_id: 'UC_openai_media',
        client_id: 'm.apps.googleusercontent.com',
        client_secret: 'GOCSPX-m',
        refresh_token: google.issueRefreshToken(
          'm.apps.googleusercontent.com',
          google.addAccount([{ id: 'UC_openai_media', title: 'M', subscriberCount: 0, videoCount: 0, viewCount: 0 }]),
        ),
      },
    })
  ).json().id;
});

afterAll(async () => {
  await ctx.close();
  await fake.close();
  await google.close();
});

async function startRun(): Promise<string> {
  const process = await call(ctx.app, 'POST', '/api/v1/processes/', {
    token,
    body: {
      name: 'OpenAI media',
      channel_id: channel,
      youtube_api_id: config,
      prompt_id: BUILTIN_DRAMA,
      language: 'pt',
      voice_id: voice,
    },
  });
  expect(process.statusCode).toBe(201);
  const executed = await call(ctx.app, 'POST', `/api/v1/processes/${process.json().id}/execute`, { token });
  expect(executed.statusCode).toBe(202);
  return executed.json().execution_id;
}

const get = async (id: string, language = 'en') =>
  (await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token, headers: { 'accept-language': language } })).json();

/** Everything the web app reads about a failed run, in both languages: the run, its process, the lists. */
async function readerJson(executionId: string): Promise<string> {
  const { process_id: processId } = await get(executionId);
  const bodies: string[] = [];
  for (const language of ['en', 'pt']) {
    const headers = { 'accept-language': language };
    for (const url of [
      `/api/v1/executions/${executionId}`,
      `/api/v1/processes/${processId}`,
      '/api/v1/processes/',
      `/api/v1/processes/${processId}/executions`,
      '/api/v1/publications/',
    ]) {
      const response = await call(ctx.app, 'GET', url, { token, headers });
      expect(response.statusCode).toBe(200);
      bodies.push(response.body);
    }
  }
  return bodies.join('\n');
}

test('narration by OpenAI speech with the voice, images by OpenAI images, then the render and the upload', async () => {
  fake.reset();
  const id = await startRun();
  firstRun = id;
  await engine.run(id);
  const done = await get(id);
  expect(done).toMatchObject({ status: 'completed', current_step: 6 });
  expect(google.uploads).toHaveLength(1);
  const speech = fake.requests.filter((r) => r.path === '/v1/audio/speech');
  expect(speech).toHaveLength(2);
  expect(speech[0]!.body).toMatchObject({ voice: 'nova', response_format: 'wav', model: 'gpt-4o-mini-tts' });
  const images = fake.requests.filter((r) => r.path === '/v1/images/generations');
  expect(images).toHaveLength(4);
  expect(images[0]!.body).toMatchObject({ model: 'gpt-image-1', size: '1536x1024' });
  const dir = path.join(ctx.config.mediaDir, id);
  // The scenes went into the video and the thumbnail; a completed run keeps only those.
  expect(fs.existsSync(path.join(dir, 'video.mp4'))).toBe(true);
  expect(fs.readFileSync(path.join(dir, 'thumbnail.jpg')).subarray(0, 2).toString('hex')).toBe('ffd8');
  expect(fs.existsSync(path.join(dir, 'scene-1.png'))).toBe(false);
});

test('step 4: the speech API refusing the request ends the run with the chapter and the kind of refusal, never its page', async () => {
  fake.reset();
  const id = await startRun();
  // Steps 1-3 make 5 chat calls; the request after the 5th is the first narration.
  let calls = 0;
  fake.setResponder((request) => {
    calls += 1;
    if (calls === 5) fake.setFailure(400, 1, { rawBody: UPSTREAM_HTML });
    return createStoryResponder({ brief: true })(request);
  });
  await engine.run(id);
  fake.setResponder(createStoryResponder({ brief: true }));
  const failed = await get(id);
  expect(failed).toMatchObject({ status: 'error', current_step: 3 });
  expect(failed.error).toBe('Narrating chapter 1 failed: the service refused the request (HTTP 400)');
  expect((await get(id, 'pt')).error).toBe('Falha ao narrar o capítulo 1: o serviço recusou a requisição (HTTP 400)');
  expectNoUpstreamText(await readerJson(id));
});

test('step 1: a chat model behind a gateway that answers an HTML error page fails the run in our words', async () => {
  fake.reset();
  const id = await startRun();
  // A 502 is retried by the client: every attempt gets the page.
  fake.setFailure(502, 10, { rawBody: UPSTREAM_HTML, retryAfterMs: 1 });
  await engine.run(id);
  fake.reset();
  const failed = await get(id);
  expect(failed.status).toBe('error');
  expect(failed.error).toBe(
    'Writing the title and premise failed: the service answered with an error (HTTP 502); the server log has its message',
  );
  expect((await get(id, 'pt')).error).toBe(
    'Falha ao escrever o título e a premissa: o serviço respondeu com um erro (HTTP 502); a mensagem está no log do servidor',
  );
  expectNoUpstreamText(await readerJson(id));
});

test('step 5: an image server answering an HTML error page fails the run with the scene, in our words', async () => {
  fake.reset();
  const id = await startRun();
  fake.setFailure(500, 10, { rawBody: UPSTREAM_HTML, retryAfterMs: 1, path: '/v1/images/generations' });
  await engine.run(id);
  fake.reset();
  const failed = await get(id);
  expect(failed).toMatchObject({ status: 'error', current_step: 4 });
  expect(failed.error).toMatch(/^Illustrating scene 1 failed: the service answered with an error \(HTTP 500\)/);
  expect((await get(id, 'pt')).error).toMatch(/^Falha ao ilustrar a cena 1: o serviço respondeu com um erro \(HTTP 500\)/);
  expectNoUpstreamText(await readerJson(id));
});

test('step 5: an exhausted OpenAI quota ends the run saying so', async () => {
  // Rewind the first test's execution to "failed at step 5" with no image made yet.
  await ctx.database.db.execute(sql`
    update executions set status = 'error', current_step = 4,
      step_times = step_times - 'generating_images' - 'generating_video' - 'publishing_video',
      checkpoint = checkpoint - 'images' - 'video'
    where id = ${firstRun}`);
  await ctx.database.db.execute(
    sql`update processes set status = 'error' where id = (select process_id from executions where id = ${firstRun})`,
  );
  for (const file of fs.readdirSync(path.join(ctx.config.mediaDir, firstRun))) {
    if (file.startsWith('scene-')) fs.rmSync(path.join(ctx.config.mediaDir, firstRun, file));
  }
  fake.reset();
  fake.setFailure(429, 1, { message: 'You exceeded your current quota', code: 'insufficient_quota' });
  expect((await call(ctx.app, 'POST', `/api/v1/executions/${firstRun}/retry`, { token })).statusCode).toBe(202);
  await engine.run(firstRun);
  const failed = await get(firstRun);
  expect(failed).toMatchObject({ status: 'error', current_step: 4 });
  expect(failed.error).toBe('The OpenAI account has no quota left; add credit to it or wait for the quota to return');
  // Not retried: a quota does not come back in seconds.
  expect(fake.requests.filter((r) => r.path === '/v1/images/generations')).toHaveLength(1);
});

test('a speech server on another host than the chat API gets no key: one that needs it refuses the run', async () => {
  const own = await startFakeOpenAI({ respond: createStoryResponder({ brief: true }) });
  try {
    fake.reset();
    const saved = await call(ctx.app, 'PUT', '/api/v1/chatgpt/config', { token, body: { speech_base_url: own.url } });
    expect(saved.json()).toMatchObject({ speech_base_url: own.url, speech_model: null, image_base_url: null });
    const id = await startRun();
    await engine.run(id);
    const failed = await get(id);
    expect(failed).toMatchObject({ status: 'error', current_step: 3 });
    expect(failed.error).toBe('The OpenAI API refused the key; check it in Settings');
    expect(own.requests.map((r) => [r.path, r.apiKey])).toEqual([['/v1/audio/speech', null]]);
    expect(fake.requests.some((r) => r.path === '/v1/audio/speech')).toBe(false);
  } finally {
    await call(ctx.app, 'PUT', '/api/v1/chatgpt/config', { token, body: { speech_base_url: null } });
    await own.close();
  }
});

test('a cloud voice narrates in pieces of whole sentences, a few at a time; a retry asks only for the pieces it lacks', async () => {
  fake.reset();
  const story = createStoryResponder();
  // Chapters three times as long: each is narrated in two or more pieces.
  fake.setResponder(async (request) => {
    const answer = await story(request);
    return /^(Naquela|Durante|No cartório|Quando)/.test(answer) ? `${answer} ${answer} ${answer}` : answer;
  });
  const id = await startRun();
  fake.setFailure(400, 1, { path: '/v1/audio/speech', message: 'scripted refusal' });
  await engine.run(id);
  expect(await get(id)).toMatchObject({ status: 'error', current_step: 3 });
  expect((await call(ctx.app, 'POST', `/api/v1/executions/${id}/retry`, { token })).statusCode).toBe(202);
  await engine.run(id);
  fake.setResponder(createStoryResponder({ brief: true }));
  expect(await get(id)).toMatchObject({ status: 'completed' });

  const inputs = fake.requests.filter((r) => r.path === '/v1/audio/speech').map((r) => (r.body as { input: string }).input);
  // Two chapters (STORY_CHAPTERS=2), each in two pieces or more.
  expect(new Set(inputs).size).toBeGreaterThanOrEqual(4);
  // Whole sentences, each piece asked for once, but the one refused, asked again by the retry.
  for (const input of inputs) expect(input).toMatch(/[.!?…]["'”’»)\]]*$/u);
  const counts = new Map<string, number>();
  for (const input of inputs) counts.set(input, (counts.get(input) ?? 0) + 1);
  expect([...counts.values()].filter((count) => count > 1)).toEqual([2]);
});
