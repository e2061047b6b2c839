import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { executions, loginFailures, publications, rateLimits, sessions } from '../src/db/schema';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { buildTestApp, call, signUp, type TestContext } from './helper';
import { runnableProcess, runnableUser, type RunnableUser } from './runnable';

/** Retention (docs/engine.md, "Retention"): nothing on disk or in the database grows forever. */

const DAY = 24 * 60 * 60 * 1000;
const RUN_FILES = [
  'texts.json',
  'story.json',
  'chapter-1.wav',
  'chapter-1.words.json',
  'scene-1.png',
  'narration.wav',
  'video.mp4',
  'thumbnail.jpg',
];

let google: FakeGoogle;
let ctx: TestContext;
let user: RunnableUser;
let processId: string;

beforeAll(async () => {
  google = await startFakeGoogle();
  ctx = await buildTestApp(
    { GOOGLE_TOKEN_URL: google.tokenUrl, YOUTUBE_API_URL: google.apiUrl, MEDIA_RETENTION_DAYS: '14' },
    { enqueue: async () => null },
  );
  user = await runnableUser(ctx, google, 'UC_retention');
  processId = await runnableProcess(ctx, user);
});

afterAll(async () => {
  await ctx.close();
  await google.close();
});

const folder = (id: string) => path.join(ctx.config.mediaDir, id);

/** A run in `status` with every file a run leaves, a scratch folder, and (optionally) its video on YouTube. */
async function runWithFiles(status: string, options: { finishedDaysAgo?: number; videoId?: string } = {}): Promise<string> {
  const [row] = await ctx.database.db
    .insert(executions)
    .values({
      processId,
      userId: user.userId,
      status,
      language: 'pt',
      currentStep: 6,
      checkpoint: { video: { file: 'video.mp4', durationSeconds: 5 } },
      finishedAt: new Date(ctx.clock.now.getTime() - (options.finishedDaysAgo ?? 0) * DAY),
    } as typeof executions.$inferInsert)
    .returning({ id: executions.id });
  const id = row!.id;
  fs.mkdirSync(path.join(folder(id), 'render'), { recursive: true });
  for (const name of RUN_FILES) fs.writeFileSync(path.join(folder(id), name), `${name} `.repeat(100));
  fs.writeFileSync(path.join(folder(id), 'render', 'part-1.mp4'), 'x'.repeat(1000));
  if (options.videoId !== undefined) {
    await ctx.database.db.insert(publications).values({
      userId: user.userId,
      processId,
      executionId: id,
      videoTitle: 'T',
      videoId: options.videoId || null,
      status: options.videoId ? 'published' : 'failed',
    });
  }
  return id;
}

const files = (id: string) => (fs.existsSync(folder(id)) ? fs.readdirSync(folder(id)).sort() : []);

test('a completed run keeps its video, thumbnail and texts; a failed run keeps everything for its retry', async () => {
  const completed = await runWithFiles('completed');
  const waiting = await runWithFiles('awaiting_review');
  const failed = await runWithFiles('error');
  const report = await ctx.app.services.retention.pruneFinished();
  expect(files(completed)).toEqual(['story.json', 'texts.json', 'thumbnail.jpg', 'video.mp4']);
  expect(files(waiting)).toEqual(['story.json', 'texts.json', 'thumbnail.jpg', 'video.mp4']);
  expect(files(failed)).toEqual([...RUN_FILES, 'render'].sort());
  expect(report.runs).toBeGreaterThanOrEqual(2);
  expect(report.files).toBeGreaterThanOrEqual(10);
  expect(report.bytes).toBeGreaterThan(2000);

  // Idempotent: a second pass removes nothing.
  expect(await ctx.app.services.retention.pruneFinished()).toEqual({ runs: 0, files: 0, bytes: 0 });
  // The console still serves what it shows.
  const shown = (await call(ctx.app, 'GET', `/api/v1/executions/${completed}`, { token: user.token })).json();
  expect((await ctx.app.inject({ method: 'GET', url: shown.thumbnail_url })).statusCode).toBe(200);
});

test('a video on YouTube for longer than MEDIA_RETENTION_DAYS leaves the disk; the thumbnail stays', async () => {
  const old = await runWithFiles('completed', { finishedDaysAgo: 15, videoId: 'vid-old' });
  const recent = await runWithFiles('completed', { finishedDaysAgo: 13, videoId: 'vid-recent' });
  const neverUploaded = await runWithFiles('completed', { finishedDaysAgo: 30, videoId: '' });
  const report = await ctx.app.services.retention.run();
  expect(files(old)).toEqual(['story.json', 'texts.json', 'thumbnail.jpg']);
  expect(files(recent)).toEqual(['story.json', 'texts.json', 'thumbnail.jpg', 'video.mp4']);
  // Not on YouTube: the only copy of the video is kept.
  expect(files(neverUploaded)).toContain('video.mp4');
  expect(report.videos).toMatchObject({ runs: 1, files: 1 });
  expect((await ctx.app.services.retention.purgeVideos()).files).toBe(0);

  // The console says the video is gone rather than linking to nothing.
  const shown = (await call(ctx.app, 'GET', `/api/v1/executions/${old}`, { token: user.token })).json();
  expect(shown.video_url).toBeNull();
  expect(shown.thumbnail_url).not.toBeNull();
});

test('old sign-in failures, limiter windows and ended sessions are purged; recent ones stay', async () => {
  const { user: other } = await signUp(ctx.app);
  const now = ctx.clock.now.getTime();
  await ctx.database.db.insert(loginFailures).values([
    { email: 'a@example.com', address: '1.2.3.4', createdAt: new Date(now - 2 * DAY) },
    { email: 'a@example.com', address: '1.2.3.4', createdAt: new Date(now - 60_000) },
  ]);
  await ctx.database.db.insert(rateLimits).values([
    { key: 'retention-old', windowStart: new Date(now - 3 * 3_600_000), count: 3 },
    { key: 'retention-new', windowStart: new Date(now - 60_000), count: 3 },
  ]);
  await ctx.database.db.insert(sessions).values([
    { userId: other.id, expiresAt: new Date(now - 8 * DAY) },
    { userId: other.id, expiresAt: new Date(now + DAY), revokedAt: new Date(now - 8 * DAY) },
    { userId: other.id, expiresAt: new Date(now + DAY) },
  ]);
  const records = await ctx.app.services.retention.purgeRecords();
  expect(records.loginFailures).toBe(1);
  expect(records.rateLimits).toBeGreaterThanOrEqual(1);
  expect(records.sessions).toBe(2);
  const left = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, other.id));
  // The sign-up's own session and the live one stay.
  expect(left).toHaveLength(2);
  expect(left.every((session) => session.revokedAt === null)).toBe(true);
  const [limits] = await ctx.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(rateLimits)
    .where(sql`${rateLimits.key} like 'retention-%'`);
  expect(limits!.n).toBe(1);
  const again = await ctx.app.services.retention.purgeRecords();
  expect(again).toMatchObject({ loginFailures: 0, sessions: 0 });
});
