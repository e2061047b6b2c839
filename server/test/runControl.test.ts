import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { createStoryResponder } from '../fakes/storyResponder';
import { executions, publications } from '../src/db/schema';
import { createEngine, type Engine } from '../src/pipeline/engine';
import { buildTestApp, call, type TestContext, pipelineEnv } from './helper';
import { runnableProcess, runnableUser, until, type RunnableUser } from './runnable';

// Each test runs the engine through narration, images and a render.
jest.setTimeout(180_000);

/**
 * Cancel, review before publishing, and the lease that keeps one run in one worker's hands
 * (docs/engine.md, "Leases", "Cancel and review").
 */

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let fake: FakeOpenAI;
let google: FakeGoogle;
let ctx: TestContext;
let engine: Engine;
let user: RunnableUser;
const queued: string[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: createStoryResponder({ brief: true }) });
  google = await startFakeGoogle();
  ctx = await buildTestApp(pipelineEnv(fake.url, google), {
    enqueue: async (id) => {
      queued.push(id);
      return null;
    },
  });
  engine = createEngine({ services: ctx.app.services, config: ctx.config, log: silent });
  user = await runnableUser(ctx, google, 'UC_run_control');
});

afterAll(async () => {
  await ctx.close();
  await fake.close();
  await google.close();
});

async function execute(processId: string): Promise<string> {
  const response = await call(ctx.app, 'POST', `/api/v1/processes/${processId}/execute`, { token: user.token });
  expect(response.statusCode).toBe(202);
  return response.json().execution_id;
}

const execution = async (id: string) => (await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token: user.token })).json();
const processOf = async (id: string) => (await call(ctx.app, 'GET', `/api/v1/processes/${id}`, { token: user.token })).json();

/** The ffmpeg processes this test process has started that are still alive. */
function ffmpegChildren(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === process.pid && stat.includes('(ffmpeg)');
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('cancel', () => {
  test('stops a running execution within seconds: ffmpeg killed, nothing uploaded, the process free to run again', async () => {
    const processId = await runnableProcess(ctx, user, { name: 'Cancelada' });
    const id = await execute(processId);
    const running = engine.run(id);
    // Wait until the render has begun (an ffmpeg child is working).
    await until(
      async () => ffmpegChildren().length,
      (count) => count > 0,
      120_000,
    );
    const uploadsBefore = google.uploads.length;
    const cancelled = await call(ctx.app, 'POST', `/api/v1/executions/${id}/cancel`, { token: user.token });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ id, status: 'cancelled' });
    const started = Date.now();
    await running;
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(ffmpegChildren()).toEqual([]);
    expect(google.uploads.length).toBe(uploadsBefore);
    // The card says what happened to its last run (not "completed" from the run before, nor idle).
    expect(await processOf(processId)).toMatchObject({ status: 'cancelled' });
    expect((await execution(id)).status).toBe('cancelled');
    // Free to run again; cancelling twice is refused.
    expect((await call(ctx.app, 'POST', `/api/v1/executions/${id}/cancel`, { token: user.token })).statusCode).toBe(409);
    const again = await execute(processId);
    expect(again).not.toBe(id);
    await engine.run(again);
    expect((await execution(again)).status).toBe('completed');
  });

  test('a video YouTube already has for a cancelled run is deleted; another user cannot cancel', async () => {
    const processId = await runnableProcess(ctx, user, { name: 'Enviada' });
    const id = await execute(processId);
    // Run to the end but make the thumbnail wait, so the run is still "running" with its video uploaded.
    google.failNextApiCalls(0);
    const running = engine.run(id);
    await until(
      async () => (await ctx.database.db.select().from(publications).where(eq(publications.executionId, id)))[0]?.videoId ?? null,
      (videoId) => videoId !== null,
      120_000,
    );
    const [publication] = await ctx.database.db.select().from(publications).where(eq(publications.executionId, id));
    const other = (await runnableUser(ctx, google, 'UC_other_user')).token;
    expect((await call(ctx.app, 'POST', `/api/v1/executions/${id}/cancel`, { token: other })).statusCode).toBe(404);
    const cancel = await call(ctx.app, 'POST', `/api/v1/executions/${id}/cancel`, { token: user.token });
    await running;
    if (cancel.statusCode === 200) {
      // Cancelled while still running: the uploaded video is gone from YouTube and from the history.
      expect(google.videos.has(publication!.videoId!)).toBe(false);
      expect(await ctx.database.db.select().from(publications).where(eq(publications.executionId, id))).toEqual([]);
    } else {
      // The run finished first (the thumbnail is quick): nothing to cancel, the video stays.
      expect(cancel.statusCode).toBe(409);
      expect(google.videos.has(publication!.videoId!)).toBe(true);
    }
  });
});

describe('review before publishing', () => {
  test('uploads private with no publication time and waits; approve schedules it for the next publication time', async () => {
    const processId = await runnableProcess(ctx, user, { name: 'Revisar', publish_mode: 'review', publication_time: '18:30' });
    expect(await processOf(processId)).toMatchObject({ publish_mode: 'review' });
    const id = await execute(processId);
    await engine.run(id);
    const waiting = await execution(id);
    expect(waiting.status).toBe('awaiting_review');
    expect(await processOf(processId)).toMatchObject({ status: 'awaiting_review' });
    const [publication] = await ctx.database.db.select().from(publications).where(eq(publications.executionId, id));
    expect(publication).toMatchObject({ status: 'awaiting_review', publishedAt: null });
    const video = google.videos.get(publication!.videoId!)!;
    expect(video.status.privacyStatus).toBe('private');
    expect(video.status.publishAt).toBeUndefined();
    // The owner is told a video waits for them.
    await ctx.app.services.alerts.drain();
    expect(ctx.mailer.sent.map((mail) => mail.subject)).toContain('A video of “Revisar” is waiting for your review');

    const approved = await call(ctx.app, 'POST', `/api/v1/executions/${id}/approve`, {
      token: user.token,
      body: { when: 'scheduled' },
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().status).toBe('completed');
    const scheduled = google.videos.get(publication!.videoId!)!;
    expect(scheduled.status.privacyStatus).toBe('private');
    expect(Date.parse(scheduled.status.publishAt!)).toBeGreaterThan(Date.now());
    expect(new Date(scheduled.status.publishAt!).getUTCMinutes()).toBe(30);
    expect((await call(ctx.app, 'POST', `/api/v1/executions/${id}/approve`, { token: user.token })).statusCode).toBe(409);
  });

  test('approve now publishes at once; reject deletes the video on YouTube', async () => {
    const processId = await runnableProcess(ctx, user, { name: 'Revisar 2', publish_mode: 'review' });
    const first = await execute(processId);
    await engine.run(first);
    const now = await call(ctx.app, 'POST', `/api/v1/executions/${first}/approve`, { token: user.token, body: { when: 'now' } });
    expect(now.statusCode).toBe(200);
    const [published] = await ctx.database.db.select().from(publications).where(eq(publications.executionId, first));
    expect(google.videos.get(published!.videoId!)!.status.privacyStatus).toBe('public');
    expect(published).toMatchObject({ status: 'published', visibility: 'public' });

    const second = await execute(processId);
    await engine.run(second);
    const [pending] = await ctx.database.db.select().from(publications).where(eq(publications.executionId, second));
    const rejected = await call(ctx.app, 'POST', `/api/v1/executions/${second}/reject`, { token: user.token });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().status).toBe('rejected');
    expect(google.videos.has(pending!.videoId!)).toBe(false);
    expect(await ctx.database.db.select().from(publications).where(eq(publications.executionId, second))).toEqual([]);
    expect(await processOf(processId)).toMatchObject({ status: 'completed' });
  });
});

describe('leases', () => {
  test('a worker whose run was given to another writes nothing more and stops; the new holder finishes with one video', async () => {
    const processId = await runnableProcess(ctx, user, { name: 'Dois' });
    const id = await execute(processId);
    const slow = createEngine({ services: ctx.app.services, config: ctx.config, log: silent });
    const first = slow.run(id);
    await until(
      async () => (await ctx.database.db.select().from(executions).where(eq(executions.id, id)))[0]!.currentStep,
      (step) => step >= 3,
    );
    // A recovery decides the first worker is dead: the run is claimed for a resume.
    const [row] = await ctx.database.db.select().from(executions).where(eq(executions.id, id));
    expect(await ctx.app.services.runs.claimOrphan(row!)).toBe(1);
    await first;
    const [after] = await ctx.database.db.select().from(executions).where(eq(executions.id, id));
    expect(after).toMatchObject({ status: 'queued', leaseOwner: null }); // waiting for a worker again
    const uploadsBefore = google.uploads.length;
    await engine.run(id);
    expect((await execution(id)).status).toBe('completed');
    expect(google.uploads.length).toBe(uploadsBefore + 1);
  });

  test('a graceful stop hands the run back without spending a recovery', async () => {
    const processId = await runnableProcess(ctx, user, { name: 'Parada' });
    const id = await execute(processId);
    queued.length = 0;
    const stopping = createEngine({ services: ctx.app.services, config: ctx.config, log: silent });
    const run = stopping.run(id);
    await until(
      async () => (await ctx.database.db.select().from(executions).where(eq(executions.id, id)))[0]!.currentStep,
      (step) => step >= 2,
    );
    await stopping.stopAll();
    await run;
    const [handed] = await ctx.database.db.select().from(executions).where(eq(executions.id, id));
    expect(handed).toMatchObject({ status: 'running', recoveries: 0, leaseOwner: null });
    expect(queued).toContain(id);
    await engine.run(id);
    expect((await execution(id)).status).toBe('completed');
  });
});
