import { and, eq } from 'drizzle-orm';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { apiCalls, publications } from '../src/db/schema';
import { nextQuotaDay, quotaDayStart, UPLOAD_RESERVE_UNITS } from '../src/services/youtubeQuota';
import { buildTestApp, call, signUp, type TestContext } from './helper';

/**
 * The statistics job spends YouTube quota the way Google counts it: units per OAuth client per
 * Pacific day, leaving the day's upload untouched, and stopping when YouTube says it is spent.
 */

let google: FakeGoogle;
let ctx: TestContext;
let token: string;
let userId: string;
let configId: string;
let publicationId: string;
const CHANNEL = 'UC_quota_test';
const CLIENT = 'quota.apps.googleusercontent.com';
const DAILY = 2500;

const listCalls = () => google.requests.filter((r) => r.path === '/youtube/v3/videos' && r.method === 'GET').length;
const channelCalls = () => google.requests.filter((r) => r.path === '/youtube/v3/channels').length;
const views = async () => (await ctx.database.db.select().from(publications).where(eq(publications.id, publicationId)))[0]!.views;

beforeAll(async () => {
  google = await startFakeGoogle();
  ctx = await buildTestApp({
    GOOGLE_AUTH_URL: google.authUrl,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    YOUTUBE_API_URL: google.apiUrl,
    YOUTUBE_DAILY_QUOTA: String(DAILY),
  });
  // Mid-morning in California, so "the next quota day" is a clear step.
  ctx.clock.now = new Date('2026-07-01T17:00:00.000Z');
  google.setNow(() => ctx.clock.now);
  const user = await signUp(ctx.app);
  ({ token } = user);
  userId = user.user.id;
  google.addClient(CLIENT, 'GOCSPX-quota');
  const account = google.addAccount([{ id: CHANNEL, title: 'Quota', subscriberCount: 3, videoCount: 1, viewCount: 30 }]);
  configId = (
    await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
      token,
      body: {
        name: 'Q',
        channel_id: CHANNEL,
        client_id: CLIENT,
        client_secret: 'GOCSPX-quota',
        refresh_token: google.issueRefreshToken(CLIENT, account),
      },
    })
  ).json().id;
  const channel = (
    await call(ctx.app, 'POST', '/api/v1/channels/', { token, body: { channel_id: CHANNEL, name: 'Quota' } })
  ).json();
  const videoId = google.addVideo({ channelId: CHANNEL, title: 'Counted', privacyStatus: 'public' });
  google.setVideoStats(videoId, { views: 10 });
  publicationId = (
    await call(ctx.app, 'POST', '/api/v1/publications/', {
      token,
      body: { video_title: 'Counted', video_id: videoId, channel_id: channel.id, published_at: '2026-06-30T12:00:00.000Z' },
    })
  ).json().id;
});

afterAll(async () => {
  await ctx.close();
  await google.close();
});

test('the quota day starts at midnight in California, daylight saving or not', () => {
  expect(quotaDayStart(new Date('2026-07-01T17:00:00Z')).toISOString()).toBe('2026-07-01T07:00:00.000Z');
  expect(quotaDayStart(new Date('2026-01-15T05:00:00Z')).toISOString()).toBe('2026-01-14T08:00:00.000Z');
  expect(nextQuotaDay(new Date('2026-03-07T20:00:00Z')).toISOString()).toBe('2026-03-08T08:00:00.000Z');
});

test('every call is recorded with its cost on the configuration', async () => {
  await ctx.app.services.publications.refreshStatsFor(userId);
  expect(await views()).toBe(10);
  const recorded = await ctx.database.db
    .select()
    .from(apiCalls)
    .where(and(eq(apiCalls.userId, userId), eq(apiCalls.service, 'youtube')));
  expect(recorded.map((r) => [r.operation, r.units, r.youtubeApiId]).sort()).toEqual([
    ['channels.list', 1, configId],
    ['videos.list', 1, configId],
  ]);
});

test('the job leaves the day’s upload untouched, and goes on when the quota day turns', async () => {
  // An upload today: 1600 units of 2500; the reserve for the next upload (2050) is more than what remains.
  await ctx.app.services.publications.recordYoutubeCall(userId, 'videos.insert', { youtubeApiId: configId });
  expect(UPLOAD_RESERVE_UNITS).toBe(2050);
  google.setVideoStats(
    (await ctx.database.db.select().from(publications).where(eq(publications.id, publicationId)))[0]!.videoId!,
    { views: 25 },
  );
  const [lists, channelsBefore] = [listCalls(), channelCalls()];
  await ctx.app.services.publications.refreshStatsFor(userId);
  expect(listCalls()).toBe(lists);
  expect(channelCalls()).toBe(channelsBefore);
  expect(await views()).toBe(10);

  ctx.clock.now = nextQuotaDay(ctx.clock.now);
  await ctx.app.services.publications.refreshStatsFor(userId);
  expect(listCalls()).toBe(lists + 1);
  expect(await views()).toBe(25);
});

test('quotaExceeded stops every call of that client until the next quota day', async () => {
  google.failNextApiCalls(1, 'quotaExceeded');
  const [lists, channelsBefore] = [listCalls(), channelCalls()];
  await ctx.app.services.publications.refreshStatsFor(userId);
  expect(listCalls()).toBe(lists + 1);
  // Refused: channels.list is not tried, nor is anything later the same day.
  expect(channelCalls()).toBe(channelsBefore);
  ctx.clock.now = new Date(ctx.clock.now.getTime() + 60 * 60 * 1000);
  await ctx.app.services.publications.refreshAllStats();
  expect(listCalls()).toBe(lists + 1);

  ctx.clock.now = nextQuotaDay(ctx.clock.now);
  await ctx.app.services.publications.refreshAllStats();
  expect(listCalls()).toBe(lists + 2);
  expect(channelCalls()).toBe(channelsBefore + 1);
});
