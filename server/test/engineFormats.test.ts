import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeOpenAI, type FakeChatRequest, type FakeOpenAI } from '../fakes/openai';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { createEngine, type Engine } from '../src/pipeline/engine';
import { SHORT_INSTRUCTION, SHORT_MAX_TEMPO } from '../src/pipeline/format';
import { concatAudio } from '../src/media/audio';
import { resolveMediaTools } from '../src/media/ffmpeg';
import { StepFailure } from '../src/pipeline/context';
import { fitNarration } from '../src/pipeline/steps/generatingVideo';
import { pcmToWav } from '../src/lib/wav';
import { TEST_ADMIN_EMAIL, buildTestApp, call, signUp, type TestContext, pipelineEnv } from './helper';
import { runnableProcess, runnableUser, type RunnableUser } from './runnable';

// Full runs narrate, draw and render: minutes on a busy 2-core machine.
jest.setTimeout(240_000);

/**
 * The formats and the music end to end: a Short (one chapter asked to tell the whole story,
 * four portrait scenes, a 1080x1920 video with a 720x1280 thumbnail, #Shorts in the description;
 * rendered here at buildTestApp's quarter size, 270x480 and 180x320: engine.test.ts renders the full size)
 * with background music mixed under it, and a video whose track was switched off (made without
 * music, and the run says so). The fakes stand in for the chat model and YouTube.
 */

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let fake: FakeOpenAI;
let google: FakeGoogle;
let ctx: TestContext;
let engine: Engine;
let user: RunnableUser;
let token: string;
let admin: string;
let scratch: string;
let titles = 0;

function lastUser(request: FakeChatRequest): string {
  const message = [...request.messages].reverse().find((m) => m.role === 'user');
  return typeof message?.content === 'string' ? message.content : '';
}

function responder(request: FakeChatRequest): string {
  const text = lastUser(request);
  if (/^Crie um título/.test(text)) {
    titles += 1;
    return `A Música do Farol ${titles}`;
  }
  if (/^Escreva, em .*, a premissa/.test(text)) return 'Um faroleiro ouve uma canção no nevoeiro.';
  if (/^Summarise/.test(text)) return 'O faroleiro seguiu a canção.';
  // Four short sentences: a Short's four scenes, and a narration of a few seconds to render.
  return 'O faroleiro subiu. O nevoeiro cantava. A luz acendeu. Ele sorriu.';
}

/** A stereo WAV with a 1 kHz tone in the left channel only: a mix with it has left and right apart. */
function leftToneWav(seconds: number): Buffer {
  const rate = 44_100;
  const pcm = Buffer.alloc(Math.round(seconds * rate) * 4);
  for (let i = 0; i < pcm.length / 4; i += 1)
    pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 1000 * i) / rate) * 9000), i * 4);
  return pcmToWav(pcm, { sampleRate: rate, channels: 2 });
}

async function uploadTrack(name: string): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/music/?name=${encodeURIComponent(name)}&mood=calm`,
    payload: leftToneWav(8),
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'audio/wav' },
  });
  expect(response.statusCode).toBe(201);
  return response.json().id;
}

const createProcess = (overrides: Record<string, unknown>) => runnableProcess(ctx, user, { name: 'Farol', ...overrides });

async function runOnce(processId: string) {
  const started = await call(ctx.app, 'POST', `/api/v1/processes/${processId}/execute`, { token });
  expect(started.statusCode).toBe(202);
  const id = started.json().execution_id as string;
  await engine.run(id);
  return (await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token })).json();
}

async function probe(file: string) {
  const { ffprobe } = await resolveMediaTools();
  return JSON.parse(
    execFileSync(ffprobe.path, ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file], {
      encoding: 'utf8',
    }),
  ) as { streams: Array<Record<string, unknown>>; format: { duration: string } };
}

/** How far apart the left and right channels of the video's sound are (0: the same). */
async function channelDifference(video: string): Promise<number> {
  const { ffmpeg } = await resolveMediaTools();
  const raw = execFileSync(ffmpeg.path, ['-v', 'error', '-i', video, '-map', '0:a:0', '-ac', '2', '-f', 's16le', '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  let difference = 0;
  let total = 0;
  for (let i = 0; i + 3 < raw.length; i += 4) {
    difference += Math.abs(raw.readInt16LE(i) - raw.readInt16LE(i + 2));
    total += Math.abs(raw.readInt16LE(i));
  }
  return difference / Math.max(1, total);
}

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-formats-'));
  fake = await startFakeOpenAI({ respond: responder });
  google = await startFakeGoogle();
  ctx = await buildTestApp(pipelineEnv(fake.url, google), { enqueue: async () => null });
  engine = createEngine({ services: ctx.app.services, config: ctx.config, log: silent, now: () => ctx.clock.now });
  admin = (await signUp(ctx.app, { email: TEST_ADMIN_EMAIL })).token;
  user = await runnableUser(ctx, google, 'UC_formats');
  ({ token } = user);
}, 120_000);

afterAll(async () => {
  await ctx.close();
  await fake.close();
  await google.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test('a Short with music: one chapter, four portrait scenes, vertical under three minutes, #Shorts, the music under the voice', async () => {
  const track = await uploadTrack('Névoa');
  const processId = await createProcess({ format: 'short', music_id: track });
  const process = (await call(ctx.app, 'GET', `/api/v1/processes/${processId}`, { token })).json();
  expect(process).toMatchObject({ format: 'short', music_id: track, music_name: 'Névoa', music_active: true });

  fake.reset();
  const done = await runOnce(processId);
  expect({ status: done.status, error: done.error, warnings: done.warnings }).toEqual({
    status: 'completed',
    error: null,
    warnings: [],
  });

  // One chapter, asked to tell the whole story; no summary is asked for.
  const chats = fake.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => lastUser(r.body as FakeChatRequest));
  const chapters = chats.filter((text) => text.includes(SHORT_INSTRUCTION));
  expect(chapters).toHaveLength(1);
  expect(chats.some((text) => /^Summarise/.test(text))).toBe(false);

  const folder = path.join(ctx.config.mediaDir, done.id);
  const info = await probe(path.join(folder, 'video.mp4'));
  // 1080x1920 and a 720x1280 thumbnail, at the tests' RENDER_SCALE of 0.25.
  expect(ctx.config.renderScale).toBe(0.25);
  expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 270, height: 480 });
  expect(Number(info.format.duration)).toBeLessThanOrEqual(180);
  const thumbnail = await probe(path.join(folder, 'thumbnail.jpg'));
  expect(thumbnail.streams[0]).toMatchObject({ width: 180, height: 320 });
  // The music is there: left and right differ (the track plays in the left channel only).
  expect(await channelDifference(path.join(folder, 'video.mp4'))).toBeGreaterThan(0.05);

  const upload = google.uploads.at(-1)!;
  expect(JSON.stringify(upload.metadata)).toContain('#Shorts');
}, 240_000);

test("a video whose track was switched off is made without music, and the run says so in the reader's language", async () => {
  const track = await uploadTrack('Desligada');
  const processId = await createProcess({ format: 'video', music_id: track });
  expect((await call(ctx.app, 'PUT', `/api/v1/music/${track}/toggle`, { token: admin })).json().is_active).toBe(false);
  const process = (await call(ctx.app, 'GET', `/api/v1/processes/${processId}`, { token })).json();
  expect(process).toMatchObject({ music_id: track, music_active: false, needs: [] });

  const done = await runOnce(processId);
  expect(done.status).toBe('completed');
  const pt = (
    await call(ctx.app, 'GET', `/api/v1/executions/${done.id}`, { token, headers: { 'accept-language': 'pt' } })
  ).json();
  expect(pt.warnings).toEqual([expect.stringContaining('"Desligada" está desativada')]);
  const folder = path.join(ctx.config.mediaDir, done.id);
  const info = await probe(path.join(folder, 'video.mp4'));
  // 1920x1080 at the tests' RENDER_SCALE of 0.25.
  expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 480, height: 270 });
  expect(await channelDifference(path.join(folder, 'video.mp4'))).toBeLessThan(0.001);
  expect(JSON.stringify(google.uploads.at(-1)!.metadata)).not.toContain('#Shorts');
}, 240_000);

test('a track whose file is gone (MEDIA_DIR not shared with this worker) is left out, and the run says so', async () => {
  const track = await uploadTrack('Perdida');
  const processId = await createProcess({ music_id: track });
  fs.rmSync(path.join(ctx.config.mediaDir, 'music', `${track}.wav`));
  const done = await runOnce(processId);
  expect(done.status).toBe('completed');
  expect(done.warnings).toEqual([expect.stringContaining('"Perdida"')]);
}, 240_000);

test('a track deleted while a run mixes it changes nothing for that run: it mixes its own link to the file', async () => {
  const track = await uploadTrack('Apagada');
  const processId = await createProcess({ music_id: track });
  const started = await call(ctx.app, 'POST', `/api/v1/processes/${processId}/execute`, { token });
  const id = started.json().execution_id as string;
  const own = path.join(ctx.config.mediaDir, id, 'music.wav');
  const running = engine.run(id);
  // As soon as the run holds its link, an admin deletes the track (and its file).
  for (let waited = 0; !fs.existsSync(own); waited += 50) {
    if (waited > 200_000) throw new Error('the run never took its own link to the track');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect((await call(ctx.app, 'DELETE', `/api/v1/music/${track}`, { token: admin })).statusCode).toBe(200);
  expect(fs.existsSync(path.join(ctx.config.mediaDir, 'music', `${track}.wav`))).toBe(false);
  await running;

  const done = (await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token })).json();
  expect({ status: done.status, warnings: done.warnings }).toEqual({ status: 'completed', warnings: [] });
  expect(await channelDifference(path.join(ctx.config.mediaDir, id, 'video.mp4'))).toBeGreaterThan(0.05);
  // The link went with the run's other intermediate files.
  expect(fs.existsSync(own)).toBe(false);
}, 240_000);

describe("a Short's narration over three minutes", () => {
  async function narrationOf(seconds: number): Promise<{ file: string; joined: Awaited<ReturnType<typeof concatAudio>> }> {
    const rate = 22_050;
    const pcm = Buffer.alloc(Math.round(seconds * rate) * 2);
    for (let i = 0; i < pcm.length / 2; i += 1) pcm.writeInt16LE(Math.round(Math.sin(i / 7) * 8000), i * 2);
    const part = path.join(scratch, `part-${seconds}.wav`);
    fs.writeFileSync(part, pcmToWav(pcm, { sampleRate: rate }));
    const file = path.join(scratch, `narration-${seconds}.wav`);
    return { file, joined: await concatAudio([part], file, { tools: await resolveMediaTools(), normalize: false }) };
  }

  test('is sped up to fit when it runs a little over, its times rescaled', async () => {
    const tools = await resolveMediaTools();
    const { file, joined } = await narrationOf(200);
    const tempo = await fitNarration(file, joined, 178, { tools });
    expect(tempo).toBeCloseTo(200 / 178, 3);
    expect(joined.durationSeconds).toBeCloseTo(178, 1);
    expect(joined.durations[0]).toBeCloseTo(178, 1);
    const info = await probe(file);
    expect(Number(info.format.duration)).toBeCloseTo(178, 0);
  }, 120_000);

  test('stops the run with how long it was when it would need more than the fastest tempo', async () => {
    const tools = await resolveMediaTools();
    const { file, joined } = await narrationOf(178 * SHORT_MAX_TEMPO + 10);
    const failure = await fitNarration(file, joined, 178, { tools }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StepFailure);
    expect(failure).toMatchObject({ key: 'pipeline.shortTooLong', params: { seconds: Math.round(178 * SHORT_MAX_TEMPO + 10) } });
  }, 120_000);
});
