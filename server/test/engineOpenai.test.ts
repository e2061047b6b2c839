import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { createStoryResponder } from '../fakes/storyResponder';
import { createEngine, type Engine } from '../src/pipeline/engine';
import { TEST_ADMIN_EMAIL, buildTestApp, call, signUp, type TestContext, pipelineEnv } from './helper';

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
  fake = await startFakeOpenAI({ respond: createStoryResponder() });
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

const get = async (id: string) => (await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token })).json();

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

test('step 4: the speech API refusing the request ends the run with the chapter and the reason', async () => {
  fake.reset();
  const id = await startRun();
  // Steps 1-3 make 5 chat calls; the request after the 5th is the first narration.
  let calls = 0;
  fake.setResponder((request) => {
    calls += 1;
    if (calls === 5) fake.setFailure(400, 1, { message: 'Invalid voice for this model' });
    return createStoryResponder()(request);
  });
  await engine.run(id);
  fake.setResponder(createStoryResponder());
  const failed = await get(id);
  expect(failed).toMatchObject({ status: 'error', current_step: 3 });
  expect(failed.error).toMatch(/^Narrating chapter 1 failed: .*Invalid voice for this model/);
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
  expect(failed.error).toMatch(/^The OpenAI account has no quota left: /);
  // Not retried: a quota does not come back in seconds.
  expect(fake.requests.filter((r) => r.path === '/v1/images/generations')).toHaveLength(1);
});
