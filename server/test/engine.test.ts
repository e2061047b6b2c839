import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { startFakeOpenAI, type FakeChatRequest, type FakeOpenAI } from '../fakes/openai';
import { apiCalls, executions, processes, publications } from '../src/db/schema';
import { createEngine, MAX_RECOVERIES, STALE_AFTER_MS, type Engine } from '../src/pipeline/engine';
import { resolveMediaTools } from '../src/media/ffmpeg';
import { TITLE_ATTEMPTS } from '../src/pipeline/steps/generatingTexts';
import { PROCESS_STEPS } from '../src/runLayout';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { startHttpProxy } from '../fakes/proxies';
import { publishAtFor } from '../src/lib/timeZones';
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
 * The engine end to end with the fake OpenAI server, espeak-ng, locally drawn scene cards and
 * ffmpeg: every step's output, each step's failure, retry from the checkpoint, recovery of runs a
 * dead worker left, the title history and the scheduler on a controllable clock. Jobs are not
 * queued here: `enqueue` records the ids and the test runs them.
 */

const KEY = 'sk-test-engine-key-0123456789abcdef';
const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
const HELENA = '387bfe25-192a-4eb3-aa8b-be1f9e202b9a';
const DAY_MS = 24 * 60 * 60 * 1000;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let fake: FakeOpenAI;
let google: FakeGoogle;
let ctx: TestContext;
let engine: Engine;
let fullSize: Engine;
let token: string;
let email: string;
let password: string;
let channel: string;
let config: string;
const queued: string[] = [];

/** What the fake chat model answers; tests change these. */
const script = {
  titles: 0,
  /** Always answer this title (a repeat) instead of a new one. */
  fixedTitle: undefined as string | undefined,
  /** The title for a title request, from the request alone (a deterministic model). */
  deterministicTitle: undefined as ((request: string) => string) | undefined,
  /** Answer an empty chapter for this chapter number (a failing step 3). */
  emptyChapter: undefined as number | undefined,
  /** Makes the request after the final chapter fail with this status (the first media call). */
  failAfterFinal: undefined as number | undefined,
};

function lastUser(request: FakeChatRequest): string {
  const message = [...request.messages].reverse().find((m) => m.role === 'user');
  return typeof message?.content === 'string' ? message.content : '';
}

function responder(request: FakeChatRequest): string {
  const text = lastUser(request);
  if (/^Crie um título/.test(text)) {
    if (script.fixedTitle) return script.fixedTitle;
    if (script.deterministicTitle) return script.deterministicTitle(text);
    script.titles += 1;
    return `"O Segredo da Carta ${script.titles}"`;
  }
  if (/^Escreva, em .*, a premissa/.test(text)) return 'Uma mulher descobre uma carta escondida pela mãe.';
  if (/^Summarise/.test(text)) return 'Ana encontrou a carta e decidiu procurar o tio.';
  const chapter = /cap[ií]tulo (?:final \()?(\d+)/i.exec(text);
  const number = chapter ? Number(chapter[1]) : 0;
  if (number === script.emptyChapter) return ' ';
  if (/cap[ií]tulo final/i.test(text) && script.failAfterFinal)
    fake.setFailure(script.failAfterFinal, 1, { message: 'scripted failure' });
  // Two short sentences (two scenes): every run renders its video, and a second of narration is
  // 25 frames to encode.
  return `Capítulo ${number}. Ana leu a carta.`;
}

async function run(id: string, by: Engine = engine): Promise<void> {
  const index = queued.indexOf(id);
  if (index >= 0) queued.splice(index, 1);
  await by.run(id);
}

async function createProcess(overrides: Record<string, unknown> = {}, as = token): Promise<string> {
  const response = await call(ctx.app, 'POST', '/api/v1/processes/', {
    token: as,
    body: {
      name: 'Segredos',
      channel_id: channel,
      youtube_api_id: config,
      prompt_id: BUILTIN_DRAMA,
      language: 'pt',
      voice_id: HELENA,
      ...overrides,
    },
  });
  expect(response.statusCode).toBe(201);
  return response.json().id;
}

async function execute(processId: string, as = token): Promise<string> {
  const response = await call(ctx.app, 'POST', `/api/v1/processes/${processId}/execute`, { token: as });
  expect(response.statusCode).toBe(202);
  return response.json().execution_id;
}

async function execution(id: string, language = 'en') {
  const response = await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token, headers: { 'accept-language': language } });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** Records every progress report the engine writes, until `stop()`. */
function recordProgress() {
  const runs = ctx.app.services.runs;
  const original = runs.saveProgress;
  const seen: Array<{ unit: string; done: number; total: number }> = [];
  /** What GET /executions/{id} answered right after each report. */
  const answered: unknown[] = [];
  runs.saveProgress = async (lease, progress) => {
    seen.push({ ...progress });
    await original(lease, progress);
    answered.push((await execution(lease.executionId)).progress);
  };
  return { seen, answered, stop: () => (runs.saveProgress = original) };
}

/** Signs in again: sessions end after 7 days, or 72 hours unused, and the scheduler test moves the clock further. */
async function signInAgain(): Promise<void> {
  const response = await call(ctx.app, 'POST', '/api/v1/auth/login', { body: { email, password } });
  expect(response.statusCode).toBe(200);
  token = response.json().access_token;
}

async function processJson(id: string) {
  return (await call(ctx.app, 'GET', `/api/v1/processes/${id}`, { token })).json();
}

function mediaDir(executionId: string): string {
  return path.join(ctx.config.mediaDir, executionId);
}

/** ffprobe's own JSON for `file`, from the ffprobe the server uses (the bundled one on a bare machine). */
async function probe(file: string): Promise<{ streams: Array<Record<string, unknown>>; format: { duration: string } }> {
  const { ffprobe } = await resolveMediaTools();
  return JSON.parse(
    execFileSync(ffprobe.path, ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file], {
      encoding: 'utf8',
    }),
  );
}

beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: responder });
  google = await startFakeGoogle();
  ctx = await buildTestApp(pipelineEnv(fake.url, google), {
    enqueue: async (id) => {
      queued.push(id);
      return null;
    },
  });
  engine = createEngine({ services: ctx.app.services, config: ctx.config, log: silent, now: () => ctx.clock.now });
  // The suite's runs render at buildTestApp's quarter size; this engine renders production's 1920x1080.
  fullSize = createEngine({
    services: ctx.app.services,
    config: { ...ctx.config, renderScale: 1 },
    log: silent,
    now: () => ctx.clock.now,
  });
  const user = await signUp(ctx.app);
  // São Paulo: publication times are computed in the user's zone.
  await ctx.database.db.execute(sql`update users set time_zone = 'America/Sao_Paulo' where id = ${user.user.id}`);
  ({ token, password } = user);
  email = user.user.email;
  expect((await call(ctx.app, 'POST', '/api/v1/chatgpt/config', { token, body: { api_key: KEY } })).statusCode).toBe(201);
  google.addClient('id.apps.googleusercontent.com', 'GOCSPX-x');
  channel = (
    await call(ctx.app, 'POST', '/api/v1/channels/', { token, body: { channel_id: 'UC_engine_test', name: 'Histórias' } })
  ).json().id;
  config = (
    await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
      token,
      body: {
        name: 'Main',
        channel_id: 'UC_engine_test',
        client_id: 'id.apps.googleusercontent.com',
        client_secret: 'GOCSPX-x',
        refresh_token: google.issueRefreshToken(
          'id.apps.googleusercontent.com',
          google.addAccount([{ id: 'UC_engine_test', title: 'Histórias', subscriberCount: 1, videoCount: 0, viewCount: 0 }]),
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

beforeEach(() => {
  script.fixedTitle = undefined;
  script.deterministicTitle = undefined;
  script.emptyChapter = undefined;
  script.failAfterFinal = undefined;
  fake.reset();
});

describe('a full run', () => {
  let processId: string;
  let executionId: string;

  beforeAll(async () => {
    processId = await createProcess();
    executionId = await execute(processId);
  });

  test('execute answers 202 with the process queued at step 0 of the seven steps, and a second execute 409', async () => {
    const process = await processJson(processId);
    expect(process).toMatchObject({
      status: 'queued',
      execution_step: 0,
      execution_steps: [...PROCESS_STEPS],
      latest_execution_id: executionId,
      last_error: null,
    });
    expect(queued).toContain(executionId);
    const again = await call(ctx.app, 'POST', `/api/v1/processes/${processId}/execute`, { token });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'This process is already running; wait for it to finish' });
    // Waiting for a worker: queued, with its place in the queue, not started yet.
    const before = await execution(executionId);
    expect(before).toMatchObject({ status: 'queued', current_step: 0, trigger: 'manual', video_url: null, started_at: null });
    expect(before.queue_position).toBeGreaterThanOrEqual(1);
    // The dashboard counts it apart from the running ones.
    const stats = (await call(ctx.app, 'GET', '/api/v1/processes/stats', { token })).json();
    expect(stats.queued).toBeGreaterThanOrEqual(1);
    expect(stats.queued + stats.running).toBeLessThanOrEqual(stats.total);
    expect(before.queued_at).toBe(ctx.clock.now.toISOString());
    expect(before.estimated_seconds_left).toBe(14);
  });

  test('the engine writes, narrates, illustrates and renders; a YouTube quota error at step 7 keeps the video', async () => {
    google.failNextApiCalls(1, 'quotaExceeded');
    const queuedAt = (await execution(executionId)).queued_at;
    ctx.clock.advance(5000); // five seconds in the queue
    const reports = recordProgress();
    // The one run at production's size (RENDER_SCALE=1): the others render at a quarter of it.
    await run(executionId, fullSize);
    reports.stop();
    const done = await execution(executionId);
    // How far each long step was, as the execution dialog shows it while it runs.
    const of = (unit: string) => reports.seen.filter((r) => r.unit === unit).map((r) => `${r.done}/${r.total}`);
    expect(of('chapters')).toEqual(['0/2', '1/2', '2/2']);
    expect(of('images')).toEqual(['0/4', '1/4', '2/4', '3/4', '4/4']);
    const rendered = reports.seen.filter((r) => r.unit === 'percent').map((r) => r.done);
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered).toEqual([...rendered].sort((a, b) => a - b));
    expect(rendered.every((value) => value >= 0 && value <= 100)).toBe(true);
    expect(reports.answered).toEqual(reports.seen);
    // Between steps and after the run nothing is shown.
    expect(done.progress).toBeNull();
    expect(done.status).toBe('error');
    // Started when a worker took it, apart from the time it waited.
    expect(Date.parse(done.started_at) - Date.parse(queuedAt)).toBe(5000);
    expect(done.queue_position).toBeNull();
    expect(done.current_step).toBe(6);
    expect(done.error).toBe(
      'The YouTube API daily quota is used up; retry tomorrow or raise the quota in the Google Cloud console',
    );
    expect(done.story_title).toMatch(/^O Segredo da Carta \d+$/);
    expect(done.steps.map((s: { status: string }) => s.status)).toEqual([
      'done',
      'done',
      'done',
      'done',
      'done',
      'done',
      'error',
    ]);
    for (const step of done.steps.slice(0, 6)) expect(step.duration_ms).toBeGreaterThanOrEqual(0);

    // The files of every step.
    const files = fs.readdirSync(mediaDir(executionId));
    expect(files).toEqual(
      expect.arrayContaining([
        'texts.json',
        'story.json',
        'chapter-1.wav',
        'chapter-1.words.json',
        'chapter-2.wav',
        'scene-1.png',
        'scene-4.png',
        'video.mp4',
        'thumbnail.jpg',
      ]),
    );
    const texts = JSON.parse(fs.readFileSync(path.join(mediaDir(executionId), 'texts.json'), 'utf8'));
    expect(texts).toEqual({ language: 'pt', title: done.story_title, premise: expect.any(String) });
    const story = JSON.parse(fs.readFileSync(path.join(mediaDir(executionId), 'story.json'), 'utf8'));
    expect(story.chapters).toHaveLength(2);
    expect(story.title).toBe(done.story_title);
    // The local voice's word times: every word of the narration, in order, starting at 0.
    const words = JSON.parse(fs.readFileSync(path.join(mediaDir(executionId), 'chapter-1.words.json'), 'utf8'));
    expect(words[0]).toMatchObject({ offset: 0, start: 0, exact: true });
    expect(words.map((word: { text: string }) => word.text).join(' ')).toBe(
      `${story.title}. ${story.chapters[0]}`.split(/\s+/).join(' '),
    );
    expect(done.warnings).toEqual([]);
    const info = await probe(path.join(mediaDir(executionId), 'video.mp4'));
    const video = info.streams.find((s) => s.codec_type === 'video')!;
    const audio = info.streams.find((s) => s.codec_type === 'audio')!;
    expect(video).toMatchObject({ codec_name: 'h264', width: 1920, height: 1080 });
    const thumbnail = await probe(path.join(mediaDir(executionId), 'thumbnail.jpg'));
    expect(thumbnail.streams[0]).toMatchObject({ width: 1280, height: 720 });
    const scene = await probe(path.join(mediaDir(executionId), 'scene-1.png'));
    expect(scene.streams[0]).toMatchObject({ width: 1920, height: 1080 });
    expect(audio).toMatchObject({ codec_name: 'aac' });
    expect(Number(info.format.duration)).toBeGreaterThan(3);
    expect(done.video_duration_seconds).toBeCloseTo(Number(info.format.duration), 0);

    // The process mirrors it, in the reader's language too; the publication failed with the reason.
    const process = await processJson(processId);
    expect(process).toMatchObject({ status: 'error', execution_step: 6 });
    expect(process.last_execution).not.toBeNull();
    expect((await execution(executionId, 'pt')).error).toMatch(/^A cota diária da API do YouTube acabou/);
    const [publication] = await ctx.database.db.select().from(publications).where(eq(publications.executionId, executionId));
    expect(publication).toMatchObject({ status: 'failed', videoId: null });
    expect(google.uploads).toHaveLength(0);
    // The history says why in the reader's language, never with YouTube's sentence and its HTML;
    // the CSV report too, in the language it is downloaded in.
    const history = (
      await call(ctx.app, 'GET', '/api/v1/publications/', { token, headers: { 'accept-language': 'pt-BR' } })
    ).json();
    const row = history.publications.find((p: { execution_id: string }) => p.execution_id === executionId);
    expect(row.failure_reason).toMatch(/^A cota diária da API do YouTube acabou/);
    const english = (await call(ctx.app, 'GET', `/api/v1/publications/${row.id}`, { token })).json();
    expect(english.failure_reason).toMatch(/^The YouTube API daily quota is used up/);
    const report = await call(ctx.app, 'GET', '/api/v1/publications/report.csv', {
      token,
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(report.body).toContain('A cota diária da API do YouTube acabou');
    for (const text of [
      JSON.stringify(history),
      JSON.stringify(english),
      report.body,
      JSON.stringify(await execution(executionId)),
    ])
      expect(text).not.toMatch(/<a |exceeded your|getting-started/);

    // 2 chapters: title, premise, chapter 1, summary, final chapter; and the refused upload.
    const chats = fake.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats).toHaveLength(5);
    const [counted] = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(apiCalls)
      .where(eq(apiCalls.executionId, executionId));
    expect(counted?.n).toBe(5);
  });

  test('the rendered files are served by signed links, with ranges; a tampered link is refused', async () => {
    const done = await execution(executionId);
    expect(done.video_url).toMatch(/^\/api\/v1\/media\/[0-9a-f-]{36}\/video\.mp4\?expires=\d+&signature=/);
    const whole = await ctx.app.inject({ method: 'GET', url: done.video_url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    const size = fs.statSync(path.join(mediaDir(executionId), 'video.mp4')).size;
    expect(whole.rawPayload.length).toBe(size);
    const part = await ctx.app.inject({ method: 'GET', url: done.video_url, headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${size}`);
    expect(part.rawPayload.length).toBe(100);
    const thumb = await ctx.app.inject({ method: 'GET', url: done.thumbnail_url });
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    // Its first character changed (to one it is not: a signature starting with "x" once made this pass).
    const tamperedUrl = done.video_url.replace(
      /signature=(.)/,
      (_: string, first: string) => `signature=${first === 'x' ? 'y' : 'x'}`,
    );
    const tampered = await ctx.app.inject({ method: 'GET', url: tamperedUrl });
    expect(tampered.statusCode).toBe(403);
    const expired = await ctx.app.inject({ method: 'GET', url: done.video_url.replace(/expires=\d+/, 'expires=1000') });
    expect(expired.statusCode).toBe(403);
  });

  test('a failing step 6 (a narration file lost) ends in error with its message; the retry re-renders', async () => {
    // Rewind the execution to "failed at step 6", as if ffmpeg had failed there.
    await ctx.database.db.execute(sql`
      update executions set status = 'error', current_step = 5, step_times = step_times - 'generating_video' - 'publishing_video'
      where id = ${executionId}`);
    await ctx.database.db.update(processes).set({ status: 'error' }).where(eq(processes.id, processId));
    fs.renameSync(path.join(mediaDir(executionId), 'chapter-2.wav'), path.join(mediaDir(executionId), 'moved.wav'));
    expect((await call(ctx.app, 'POST', `/api/v1/executions/${executionId}/retry`, { token })).statusCode).toBe(202);
    await run(executionId);
    const failed = await execution(executionId);
    expect(failed).toMatchObject({ status: 'error', current_step: 5 });
    expect(failed.error).toMatch(/^Rendering the video failed: /);
    // A failed run keeps every intermediate file, so that its retry resumes.
    expect(fs.readdirSync(mediaDir(executionId))).toEqual(expect.arrayContaining(['chapter-1.wav', 'scene-1.png']));

    // Back in place, the retry renders again and reaches the upload, refused once more by the quota.
    fs.renameSync(path.join(mediaDir(executionId), 'moved.wav'), path.join(mediaDir(executionId), 'chapter-2.wav'));
    google.failNextApiCalls(1, 'quotaExceeded');
    expect((await call(ctx.app, 'POST', `/api/v1/executions/${executionId}/retry`, { token })).statusCode).toBe(202);
    await run(executionId);
    expect(await execution(executionId)).toMatchObject({ status: 'error', current_step: 6 });
    expect(google.uploads).toHaveLength(0);
  });

  test('retry resumes at step 7 with every earlier output reused, and publishes the day after at the chosen time', async () => {
    const videoFile = path.join(mediaDir(executionId), 'video.mp4');
    const renderedAt = fs.statSync(videoFile).mtimeMs;
    const retried = await call(ctx.app, 'POST', `/api/v1/executions/${executionId}/retry`, { token });
    expect(retried.statusCode).toBe(202);
    expect(retried.json()).toMatchObject({ execution_id: executionId, process: { status: 'queued', execution_step: 6 } });
    expect(queued).toContain(executionId);
    const reports = recordProgress();
    await run(executionId);
    reports.stop();
    // The upload's percentage, from the offsets YouTube acknowledged, up to all of it.
    const uploaded = reports.seen.map((r) => r.done);
    expect(uploaded.length).toBeGreaterThan(0);
    expect(uploaded[uploaded.length - 1]).toBe(100);
    const done = await execution(executionId);
    expect(done).toMatchObject({ status: 'completed', current_step: 6, trigger: 'retry', error: null });
    expect(fake.requests).toHaveLength(0);
    expect(fs.statSync(videoFile).mtimeMs).toBe(renderedAt);
    expect((await processJson(processId)).status).toBe('completed');

    // One upload: the story's title, language and declarations, private until publishAt.
    expect(google.uploads).toHaveLength(1);
    const upload = google.uploads[0]!;
    const expectedAt = publishAtFor(new Date(done.started_at), '09:00', 'America/Sao_Paulo');
    expect((upload.metadata as { snippet: { tags: string[] } }).snippet.tags).toEqual(
      expect.arrayContaining([done.story_title, 'Segredos de Família', 'segredo', 'carta']),
    );
    expect(upload.metadata).toMatchObject({
      snippet: { title: done.story_title, defaultLanguage: 'pt', defaultAudioLanguage: 'pt' },
      status: { privacyStatus: 'private', selfDeclaredMadeForKids: false, containsSyntheticMedia: true },
    });
    expect(new Date((upload.metadata as { status: { publishAt: string } }).status.publishAt).toISOString()).toBe(
      expectedAt.toISOString(),
    );
    expect(upload.sha256).toBe(crypto.createHash('sha256').update(fs.readFileSync(videoFile)).digest('hex'));
    expect(google.thumbnails.has(upload.id)).toBe(true);
    // The subtitles went with it as a caption track in the story's language, counted in the quota.
    const tracks = google.captions.filter((caption) => caption.videoId === upload.id);
    expect(tracks).toHaveLength(1);
    expect(tracks[0]).toMatchObject({ language: 'pt', isDraft: false });
    expect(tracks[0]!.body).toMatch(/^1\r?\n00:00:0\d,\d{3} --> 00:00:\d\d,\d{3}\r?\n\S/);
    const calls = await ctx.database.db
      .select({ operation: apiCalls.operation })
      .from(apiCalls)
      .where(eq(apiCalls.executionId, executionId));
    expect(calls.filter((row) => row.operation === 'captions.insert')).toHaveLength(1);

    // Once completed, only what the console still shows is kept: the narration parts and scenes are gone.
    expect(fs.readdirSync(mediaDir(executionId)).sort()).toEqual(['story.json', 'texts.json', 'thumbnail.jpg', 'video.mp4']);

    const history = (await call(ctx.app, 'GET', '/api/v1/publications/', { token })).json();
    expect(history.publications[0]).toMatchObject({
      video_id: upload.id,
      video_title: done.story_title,
      status: 'processing',
      visibility: 'private',
      published_at: expectedAt.toISOString(),
      process_name: 'Segredos',
      channel_name: 'Histórias',
    });
  });

  test('only a failed execution can be retried; another user sees none of it', async () => {
    const other = await signUp(ctx.app);
    expect((await call(ctx.app, 'GET', `/api/v1/executions/${executionId}`, { token: other.token })).statusCode).toBe(404);
    expect((await call(ctx.app, 'POST', `/api/v1/executions/${executionId}/retry`, { token: other.token })).statusCode).toBe(404);
    const list = await call(ctx.app, 'GET', `/api/v1/processes/${processId}/executions`, { token });
    expect(list.json()).toMatchObject({ total: 1, executions: [{ id: executionId, status: 'completed' }] });
    const refused = await call(ctx.app, 'POST', `/api/v1/executions/${executionId}/retry`, { token });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ detail: 'Only a failed execution can be retried' });
  });

  test('deleting the process removes its executions and their files', async () => {
    expect(fs.existsSync(mediaDir(executionId))).toBe(true);
    expect((await call(ctx.app, 'DELETE', `/api/v1/processes/${processId}`, { token })).statusCode).toBe(204);
    expect(fs.existsSync(mediaDir(executionId))).toBe(false);
    expect(await ctx.database.db.select().from(executions).where(eq(executions.id, executionId))).toHaveLength(0);
  });
});

describe('each failing step ends the run in error with what to do', () => {
  test('step 1: no chat-model key', async () => {
    const other = await signUp(ctx.app);
    const otherChannel = (
      await call(ctx.app, 'POST', '/api/v1/channels/', { token: other.token, body: { channel_id: 'UC_no_key', name: 'X' } })
    ).json().id;
    const otherConfig = (
      await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
        token: other.token,
        body: { name: 'X', channel_id: 'UC_no_key', client_id: 'x.apps.googleusercontent.com', client_secret: 'GOCSPX-y' },
      })
    ).json().id;
    const processId = await createProcess({ channel_id: otherChannel, youtube_api_id: otherConfig }, other.token);
    const id = await execute(processId, other.token);
    await run(id);
    const failed = (await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token: other.token })).json();
    expect(failed).toMatchObject({ status: 'error', current_step: 0 });
    expect(failed.error).toBe('Add your ChatGPT API key in Settings before running a process');
    const process = (await call(ctx.app, 'GET', `/api/v1/processes/${processId}`, { token: other.token })).json();
    expect(process).toMatchObject({ status: 'error', last_error: failed.error });
  });

  test('step 1: what the process lacks (its voice was switched off)', async () => {
    const processId = await createProcess();
    await ctx.database.db.execute(sql`update processes set voice_id = null where id = ${processId}`);
    const id = await execute(processId);
    await run(id);
    const failed = await execution(id);
    expect(failed).toMatchObject({ status: 'error', current_step: 0, error: 'This process cannot run yet: choose a voice' });
    expect((await execution(id, 'pt')).error).toBe('Este processo ainda não pode ser executado: escolha uma voz');
  });

  test('step 1: a disabled channel, or a configuration that uploads elsewhere, stops the run before any paid call', async () => {
    const processId = await createProcess();
    await ctx.database.db.execute(sql`update channels set is_active = false where id = ${channel}`);
    try {
      const id = await execute(processId);
      fake.reset();
      await run(id);
      expect(await execution(id)).toMatchObject({
        status: 'error',
        current_step: 0,
        error: 'This process cannot run yet: enable its channel or choose another',
      });
      expect(fake.requests).toHaveLength(0);
    } finally {
      await ctx.database.db.execute(sql`update channels set is_active = true where id = ${channel}`);
    }
    const youtubeId = 'UC_engine_test';
    await ctx.database.db.execute(sql`update youtube_apis set channel_id = 'UC_another_one' where id = ${config}`);
    try {
      const id = await execute(processId);
      await run(id);
      expect((await execution(id, 'pt')).error).toBe(
        'Este processo ainda não pode ser executado: escolha uma configuração da API do YouTube do canal do processo (a escolhida envia para outro canal do YouTube)',
      );
    } finally {
      await ctx.database.db.execute(sql`update youtube_apis set channel_id = ${youtubeId} where id = ${config}`);
    }
  });

  test('step 1: a configuration never authorized on YouTube, before any paid call', async () => {
    const unauthorized = (
      await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
        token,
        body: {
          name: 'Never authorized',
          channel_id: 'UC_engine_test',
          client_id: 'id.apps.googleusercontent.com',
          client_secret: 'GOCSPX-x',
        },
      })
    ).json().id;
    const id = await execute(await createProcess({ youtube_api_id: unauthorized }));
    await run(id);
    const failed = await execution(id);
    expect(failed).toMatchObject({ status: 'error', current_step: 0 });
    expect(failed.error).toMatch(/^Authorize the YouTube API configuration of this process in Settings/);
    expect(fake.requests).toHaveLength(0);
    await call(ctx.app, 'DELETE', `/api/v1/youtube-apis/${unauthorized}`, { token });
  });

  test('step 2: the chat model refuses the key', async () => {
    const processId = await createProcess();
    const id = await execute(processId);
    fake.setFailure(401, 1, { message: 'Incorrect API key provided' });
    await run(id);
    expect(await execution(id)).toMatchObject({
      status: 'error',
      current_step: 1,
      error: 'The ChatGPT API refused the key; check it in Settings',
    });
  });

  test('step 2: a title the process already made is never made again', async () => {
    const processId = await createProcess();
    const first = await execute(processId);
    script.fixedTitle = 'A Herança Escondida';
    // The first run takes the title; an empty first chapter stops it right after step 2.
    script.emptyChapter = 1;
    await run(first);
    script.emptyChapter = undefined;
    expect((await execution(first)).story_title).toBe('A Herança Escondida');
    fake.reset();
    const second = await execute(processId);
    await run(second);
    const failed = await execution(second);
    expect(failed).toMatchObject({ status: 'error', current_step: 1 });
    expect(failed.error).toBe(
      'The chat model kept proposing a story this process has already made ("A Herança Escondida"); try again later or change the prompt',
    );
    const titleRequests = fake.requests.filter((r) => /^Crie um título/.test(lastUser(r.body as FakeChatRequest)));
    expect(titleRequests).toHaveLength(TITLE_ATTEMPTS);
    // The history is given to the model.
    expect(lastUser(titleRequests[0]!.body as FakeChatRequest)).toContain('"A Herança Escondida"');
  });

  test('step 2: a model that answers the same request the same way still finds a new title', async () => {
    const processId = await createProcess();
    const first = await execute(processId);
    script.fixedTitle = 'A Herança Escondida';
    script.emptyChapter = 1;
    await run(first);
    script.emptyChapter = undefined;
    fake.reset();
    // Deterministic: the same request, the same answer. Asked plainly it offers the old title with
    // a number and the words moved (a repeat); asked for another idea, a new one.
    script.fixedTitle = undefined;
    script.deterministicTitle = (request) => (/idea number 2/.test(request) ? 'O Farol do Norte' : 'Escondida, a Herança 2');
    const second = await execute(processId);
    await run(second);
    expect(await execution(second)).toMatchObject({ status: 'completed', story_title: 'O Farol do Norte' });
    const titleRequests = fake.requests
      .map((r) => lastUser(r.body as FakeChatRequest))
      .filter((text) => /^Crie um título/.test(text));
    expect(titleRequests).toHaveLength(2);
    expect(titleRequests[1]).toContain('"Escondida, a Herança 2" is too close to a title already used');
  });

  test('step 3: an empty chapter fails; a retry continues with that chapter only', async () => {
    const processId = await createProcess();
    const id = await execute(processId);
    script.emptyChapter = 2;
    await run(id);
    const failed = await execution(id);
    expect(failed).toMatchObject({ status: 'error', current_step: 2 });
    expect(failed.error).toBe('Writing chapter 2 failed: the chat model answered an empty text');
    expect((await execution(id, 'pt')).error).toBe('Falha ao escrever o capítulo 2: o modelo de chat respondeu um texto vazio');

    // A run stored before reasons were keys kept the provider's own text; migration 0010 replaces it.
    const stored = { chapter: 2, reason: '502 <html><body>Bad Gateway</body></html>' };
    await ctx.database.db.update(executions).set({ errorParams: stored }).where(eq(executions.id, id));
    await ctx.database.db.update(processes).set({ lastErrorParams: stored }).where(eq(processes.id, processId));
    expect((await execution(id)).error).toContain('Bad Gateway');
    const migration = fs.readFileSync(path.join(__dirname, '../drizzle/0010_failure_reason_keys.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await ctx.database.db.execute(sql.raw(statement));
    expect((await execution(id)).error).toBe('Writing chapter 2 failed: an unexpected error; the server log has its message');
    const listed = await call(ctx.app, 'GET', `/api/v1/processes/${processId}`, { token });
    expect(listed.json().last_error).toBe('Writing chapter 2 failed: an unexpected error; the server log has its message');

    script.emptyChapter = undefined;
    fake.reset();
    expect((await call(ctx.app, 'POST', `/api/v1/executions/${id}/retry`, { token })).statusCode).toBe(202);
    await run(id);
    expect(await execution(id)).toMatchObject({ status: 'completed', current_step: 6 });
    // Only the missing final chapter was asked for.
    expect(fake.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
  });
});

describe('a full disk', () => {
  afterEach(() => jest.restoreAllMocks());

  test('step 6 stops before rendering when the disk cannot hold the video, saying how much is needed', async () => {
    const id = await execute(await createProcess());
    const statfs = jest.spyOn(fs.promises, 'statfs').mockImplementation(async () => ({
      type: 0,
      bsize: 4096,
      blocks: 1_000_000,
      bfree: 10_000,
      bavail: 10_000,
      files: 0,
      ffree: 0,
    }));
    await run(id);
    expect(statfs).toHaveBeenCalled();
    const failed = await execution(id);
    expect(failed).toMatchObject({ status: 'error', current_step: 5 });
    expect(failed.error).toMatch(/39 MB free.*420 MB/);
    expect(fs.existsSync(path.join(mediaDir(id), 'video.mp4'))).toBe(false);
    // The scene cards were drawn at the render's size: the tests' RENDER_SCALE of 0.25 of 1920x1080.
    expect((await probe(path.join(mediaDir(id), 'scene-1.png'))).streams[0]).toMatchObject({ width: 480, height: 270 });

    // Space freed: the retry renders at that size too.
    statfs.mockRestore();
    expect((await call(ctx.app, 'POST', `/api/v1/executions/${id}/retry`, { token })).statusCode).toBe(202);
    await run(id);
    expect(await execution(id)).toMatchObject({ status: 'completed' });
    const video = (await probe(path.join(mediaDir(id), 'video.mp4'))).streams.find((s) => s.codec_type === 'video');
    expect(video).toMatchObject({ width: 480, height: 270 });
  });
});

describe('publishing', () => {
  test('a connection broken mid-upload resumes the same upload session: one video, not two', async () => {
    const before = google.uploads.length;
    const sessions = google.uploadSessions.size;
    const id = await execute(await createProcess());
    google.breakUploadAfter(100_000);
    await run(id);
    expect(await execution(id)).toMatchObject({ status: 'completed' });
    expect(google.uploads).toHaveLength(before + 1);
    expect(google.uploadSessions.size).toBe(sessions + 1);
    const file = path.join(mediaDir(id), 'video.mp4');
    expect(google.uploads[before]!.sha256).toBe(crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'));
  });

  test('a caption track YouTube refuses does not undo the upload: the run completes and says so', async () => {
    const before = google.uploads.length;
    const tracks = google.captions.length;
    const id = await execute(await createProcess());
    google.answerPageNext('/upload/youtube/v3/captions', 10, 400, UPSTREAM_HTML);
    try {
      await run(id);
    } finally {
      google.answerPageNext('/upload/youtube/v3/captions', 0, 400, '');
    }
    const done = await execution(id);
    expect(done).toMatchObject({ status: 'completed' });
    expect(google.uploads).toHaveLength(before + 1);
    expect(google.captions).toHaveLength(tracks);
    expect(done.warnings).toEqual([
      'YouTube did not take the caption track; the video is published with its subtitles burnt in, and the server log says why',
    ]);
    expect((await execution(id, 'pt')).warnings).toEqual([
      'O YouTube não aceitou a faixa de legendas; o vídeo é publicado com as legendas gravadas na imagem, e o log do servidor diz por quê',
    ]);
    expectNoUpstreamText(JSON.stringify(done));
  });

  test('an authorization Google no longer accepts ends the run saying to authorize again', async () => {
    const other = await signUp(ctx.app);
    await call(ctx.app, 'POST', '/api/v1/chatgpt/config', { token: other.token, body: { api_key: KEY } });
    const otherChannel = (
      await call(ctx.app, 'POST', '/api/v1/channels/', { token: other.token, body: { channel_id: 'UC_revoked', name: 'R' } })
    ).json().id;
    const refresh = google.issueRefreshToken(
      'id.apps.googleusercontent.com',
      google.addAccount([{ id: 'UC_revoked', title: 'R', subscriberCount: 0, videoCount: 0, viewCount: 0 }]),
    );
    const otherConfig = (
      await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
        token: other.token,
        body: {
          name: 'R',
          channel_id: 'UC_revoked',
          client_id: 'id.apps.googleusercontent.com',
          client_secret: 'GOCSPX-x',
          refresh_token: refresh,
        },
      })
    ).json().id;
    const processId = await createProcess({ channel_id: otherChannel, youtube_api_id: otherConfig }, other.token);
    const id = await execute(processId, other.token);
    google.revoke(refresh);
    await run(id);
    const failed = (await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token: other.token })).json();
    expect(failed).toMatchObject({ status: 'error', current_step: 6 });
    expect(failed.error).toMatch(/^Google refused the stored authorization/);
    // Its owner is told that the authorization needs them, not just that a run failed.
    await ctx.app.services.alerts.drain();
    const mail = ctx.mailer.sent.filter((sent) => sent.to === other.user.email).map((sent) => sent.subject);
    expect(mail).toContainEqual(expect.stringMatching(/^YouTube no longer accepts the authorization of “/));
  });
});

describe('publication times', () => {
  // The day after the execution, at the process's time, in the owner's zone, across daylight saving.
  const cases = [
    // Sat 10:00 EST; the next day clocks go forward at 02:00: 09:00 EDT is 13:00 UTC, not 14:00.
    { zone: 'America/New_York', executedAt: '2026-03-07T15:00:00.000Z', time: '09:00', publishAt: '2026-03-08T13:00:00.000Z' },
    // Sat 13:00 WEST; the next day clocks go back at 02:00: 09:00 WET is 09:00 UTC, not 08:00.
    { zone: 'Europe/Lisbon', executedAt: '2026-10-24T12:00:00.000Z', time: '09:00', publishAt: '2026-10-25T09:00:00.000Z' },
    // Already Sunday 05:00 in Tokyo: the day after is Monday there.
    { zone: 'Asia/Tokyo', executedAt: '2026-03-07T20:00:00.000Z', time: '21:30', publishAt: '2026-03-09T12:30:00.000Z' },
  ];

  test.each(cases)('$zone: executed at $executedAt, published at $publishAt', async ({ zone, executedAt, time, publishAt }) => {
    const realNow = ctx.clock.now;
    // YouTube refuses a publishAt in its past: the fake runs on the test's clock here.
    google.setNow(() => ctx.clock.now);
    try {
      ctx.clock.now = new Date(executedAt);
      await signInAgain();
      const me = (await call(ctx.app, 'GET', '/api/v1/auth/me', { token })).json();
      const profile = await call(ctx.app, 'PUT', '/api/v1/auth/profile', {
        token,
        body: { name: me.name, email: me.email, time_zone: zone },
      });
      expect(profile.json().time_zone).toBe(zone);
      const id = await execute(await createProcess({ publication_time: time }));
      await run(id);
      const done = await execution(id);
      expect(done).toMatchObject({ status: 'completed', started_at: executedAt });
      const upload = google.uploads.find(
        (u) => (u.metadata as { snippet: { title: string } }).snippet.title === done.story_title,
      )!;
      expect((upload.metadata as { status: { publishAt: string } }).status.publishAt).toBe(publishAt);
      const history = (await call(ctx.app, 'GET', '/api/v1/publications/', { token })).json();
      expect(history.publications.find((p: { video_id: string }) => p.video_id === upload.id)).toMatchObject({
        published_at: publishAt,
      });
    } finally {
      await ctx.database.db.execute(sql`update users set time_zone = 'America/Sao_Paulo' where email = ${email}`);
      ctx.clock.now = realNow;
      google.setNow(() => new Date());
      await signInAgain();
    }
  });
});

describe('outbound calls', () => {
  test("go through the admins' active proxy, with its credentials; a disabled proxy is not used", async () => {
    const proxy = await startHttpProxy({ username: 'engine', password: 'tunnel-pass' });
    const admin = (await signUp(ctx.app, { email: TEST_ADMIN_EMAIL })).token;
    const created = await call(ctx.app, 'POST', '/api/v1/proxies/', {
      token: admin,
      body: { name: 'Outbound', url: `http://engine:tunnel-pass@127.0.0.1:${proxy.port}` },
    });
    expect(created.statusCode).toBe(201);
    try {
      script.emptyChapter = 1;
      const id = await execute(await createProcess());
      await run(id);
      expect((await execution(id)).current_step).toBe(2);
      expect(proxy.tunnels.length).toBeGreaterThan(0);
      expect(proxy.tunnels.every((t) => t === `127.0.0.1:${fake.port}`)).toBe(true);
      expect(proxy.refusals).toBe(0);

      const before = proxy.tunnels.length;
      await call(ctx.app, 'PUT', `/api/v1/proxies/${created.json().id}/toggle`, { token: admin });
      const direct = await execute(await createProcess());
      await run(direct);
      expect((await execution(direct)).current_step).toBe(2);
      expect(proxy.tunnels.length).toBe(before);
    } finally {
      await call(ctx.app, 'DELETE', `/api/v1/proxies/${created.json().id}`, { token: admin });
      await proxy.close();
    }
  });
});

describe('publishing through a proxy', () => {
  test('the token refresh, the upload and the thumbnail go through the admins’ active proxy too', async () => {
    const proxy = await startHttpProxy({ username: 'youtube', password: 'tunnel-pass' });
    // The admin of the test before, or a new one when this test runs alone.
    const login = await call(ctx.app, 'POST', '/api/v1/auth/login', { body: { email: TEST_ADMIN_EMAIL, password: 'secret123' } });
    const admin: string =
      login.statusCode === 200 ? login.json().access_token : (await signUp(ctx.app, { email: TEST_ADMIN_EMAIL })).token;
    const created = await call(ctx.app, 'POST', '/api/v1/proxies/', {
      token: admin,
      body: { name: 'Outbound', url: `http://youtube:tunnel-pass@127.0.0.1:${proxy.port}` },
    });
    expect(created.statusCode).toBe(201);
    try {
      const uploads = google.uploads.length;
      const id = await execute(await createProcess());
      await run(id);
      expect(await execution(id)).toMatchObject({ status: 'completed' });
      expect(google.uploads).toHaveLength(uploads + 1);
      const googleHost = new URL(google.url).host;
      expect(proxy.tunnels.filter((t) => t === googleHost).length).toBeGreaterThan(0);
      expect(proxy.refusals).toBe(0);
    } finally {
      await call(ctx.app, 'DELETE', `/api/v1/proxies/${created.json().id}`, { token: admin });
      await proxy.close();
    }
  });
});

describe('recovery of runs a stopped server left', () => {
  test('a stale run is resumed from its checkpoint; one interrupted too often ends in error', async () => {
    const processId = await createProcess();
    const id = await execute(processId);
    // A worker took it, then died: the heartbeat stops.
    const takenByADeadWorker = (executionId: string) =>
      ctx.database.db
        .update(executions)
        .set({
          status: 'running',
          leaseOwner: 'dead-host:1:0',
          heartbeatAt: new Date(ctx.clock.now.getTime() - STALE_AFTER_MS - 1000),
          jobId: 'dead-job',
        })
        .where(eq(executions.id, executionId));
    await takenByADeadWorker(id);
    queued.length = 0;
    expect(await engine.recover(false)).toBe(1);
    expect(queued).toEqual([id]);
    // Waiting for a worker again, and saying so.
    expect(await execution(id)).toMatchObject({ status: 'queued', queue_position: expect.any(Number) });
    expect((await processJson(processId)).status).toBe('queued');
    await run(id);
    expect(await execution(id)).toMatchObject({ status: 'completed', current_step: 6 });

    const other = await execute(await createProcess());
    for (let i = 0; i < MAX_RECOVERIES; i += 1) {
      await takenByADeadWorker(other);
      expect(await engine.recover(true)).toBe(1);
    }
    await takenByADeadWorker(other);
    expect(await engine.recover(true)).toBe(1);
    const ended = await execution(other);
    expect(ended).toMatchObject({
      status: 'error',
      error: `The server stopped during this run ${MAX_RECOVERIES} times; retry it`,
    });
  });
});

describe('the scheduler', () => {
  test('runs an active process when due, once for missed slots, and keeps its 3-day rhythm', async () => {
    const processId = await createProcess({ is_active: true });
    const due = new Date((await processJson(processId)).next_execution);
    queued.length = 0;
    expect(await engine.tick()).toBe(0);

    ctx.clock.now = new Date(due.getTime() + 60_000);
    await signInAgain(); // the slot may be days away: past the session's idle timeout
    expect(await engine.tick()).toBe(1);
    const [first] = queued.splice(0);
    const running = await processJson(processId);
    expect(running).toMatchObject({ status: 'queued', latest_execution_id: first });
    expect(running.next_execution).toBe(new Date(due.getTime() + 3 * DAY_MS).toISOString());
    expect((await execution(first!)).trigger).toBe('schedule');
    script.emptyChapter = 1; // a quick end at step 3: only the schedule matters here
    await run(first!);
    script.emptyChapter = undefined;

    // Down for ten days: one run, then the next slot after now.
    ctx.clock.now = new Date(due.getTime() + 10 * DAY_MS);
    await signInAgain();
    expect(await engine.tick()).toBe(1);
    expect(await engine.tick()).toBe(0);
    expect((await processJson(processId)).next_execution).toBe(new Date(due.getTime() + 12 * DAY_MS).toISOString());

    // Switching it off cancels the scheduled run nobody started; the process is back to its last status.
    const [pending] = queued.splice(0);
    const off = await call(ctx.app, 'PUT', `/api/v1/processes/${processId}/toggle`, { token });
    expect(off.json()).toMatchObject({ is_active: false, status: 'error' });
    expect((await execution(pending!)).status).toBe('cancelled');
    await run(pending!);
    expect((await execution(pending!)).status).toBe('cancelled');

    // Switched on after a long pause: the next run waits for its next slot.
    ctx.clock.now = new Date(due.getTime() + 20 * DAY_MS);
    await signInAgain();
    const on = await call(ctx.app, 'PUT', `/api/v1/processes/${processId}/toggle`, { token });
    expect(on.json().next_execution).toBe(new Date(due.getTime() + 21 * DAY_MS).toISOString());
    expect(await engine.tick()).toBe(0);
    const [row] = await ctx.database.db.select().from(processes).where(eq(processes.id, processId));
    expect(row?.isActive).toBe(true);
  });
  test('switched off with a scheduled run waiting, a process whose last video was rejected shows the run before it', async () => {
    const processId = await createProcess({ is_active: true });
    const [owner] = await ctx.database.db.select({ userId: processes.userId }).from(processes).where(eq(processes.id, processId));
    const earlier = ctx.clock.now.getTime();
    await ctx.database.db.insert(executions).values([
      { processId, userId: owner!.userId, language: 'en', status: 'completed', createdAt: new Date(earlier - 2 * DAY_MS) },
      { processId, userId: owner!.userId, language: 'en', status: 'rejected', createdAt: new Date(earlier - DAY_MS) },
    ]);
    ctx.clock.now = new Date(new Date((await processJson(processId)).next_execution).getTime() + 60_000);
    await signInAgain();
    await engine.tick();
    queued.length = 0;
    const [pending] = await ctx.database.db
      .select({ id: executions.id })
      .from(executions)
      .where(and(eq(executions.processId, processId), eq(executions.status, 'queued')));

    const off = await call(ctx.app, 'PUT', `/api/v1/processes/${processId}/toggle`, { token });

    // "rejected" is a run's outcome, not a process status: the process shows the completed run.
    expect(off.json()).toMatchObject({ is_active: false, status: 'completed' });
    expect((await execution(pending!.id)).status).toBe('cancelled');
  });
});
