import { eq } from 'drizzle-orm';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { publications } from '../src/db/schema';
import { UPSTREAM_HTML, buildTestApp, call, expectNoUpstreamText, signUp, type TestContext } from './helper';

/**
 * The publications API and the history: filters and paging in the database, the CSV report,
 * stats, and the actions that change the video on YouTube first (the fake YouTube API).
 */

let google: FakeGoogle;
let ctx: TestContext;
let token: string;
let userId: string;
const DAY_MS = 24 * 60 * 60 * 1000;

const api = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  as = token,
  headers?: Record<string, string>,
) => call(ctx.app, method, `/api/v1/publications${url}`, { token: as, body, headers });

beforeAll(async () => {
  google = await startFakeGoogle();
  ctx = await buildTestApp({
    GOOGLE_AUTH_URL: google.authUrl,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    YOUTUBE_API_URL: google.apiUrl,
  });
  const user = await signUp(ctx.app);
  token = user.token;
  userId = user.user.id;
});

afterAll(async () => {
  await ctx.close();
  await google.close();
});

async function make(fields: Record<string, unknown>, as = token) {
  const response = await api('POST', '/', fields, as);
  expect(response.statusCode).toBe(201);
  return response.json();
}

describe('the history', () => {
  let owner: { token: string };

  beforeAll(async () => {
    owner = await signUp(ctx.app);
    const now = ctx.clock.now.getTime();
    await make(
      {
        video_title: 'A Carta Esquecida',
        video_id: 'vid_carta',
        status: 'published',
        visibility: 'public',
        published_at: new Date(now - 2 * DAY_MS).toISOString(),
      },
      owner.token,
    );
    await make(
      {
        video_title: 'O Segredo da Avó',
        video_id: 'vid_avo',
        status: 'processing',
        published_at: new Date(now + DAY_MS).toISOString(),
      },
      owner.token,
    );
    await make(
      {
        video_title: 'The Forgotten Letter',
        video_id: 'vid_letter',
        status: 'failed',
        published_at: new Date(now - 20 * DAY_MS).toISOString(),
      },
      owner.token,
    );
    await make(
      {
        video_title: 'Herança, 50% dela',
        status: 'published',
        visibility: 'public',
        published_at: new Date(now - 60 * DAY_MS).toISOString(),
      },
      owner.token,
    );
    await make(
      {
        video_title: 'Old story',
        status: 'published',
        visibility: 'public',
        published_at: new Date(now - 200 * DAY_MS).toISOString(),
      },
      owner.token,
    );
  });

  const titles = async (query: string, as = owner.token) => {
    const response = await api('GET', `/${query}`, undefined, as);
    expect(response.statusCode).toBe(200);
    return {
      titles: response.json().publications.map((p: { video_title: string }) => p.video_title),
      total: response.json().total,
    };
  };

  test('newest first, with links built from the video id, and nobody else sees them', async () => {
    const listed = await api('GET', '/', undefined, owner.token);
    const body = listed.json();
    expect(body.total).toBe(5);
    expect(body.publications.map((p: { video_title: string }) => p.video_title)).toEqual([
      'O Segredo da Avó',
      'A Carta Esquecida',
      'The Forgotten Letter',
      'Herança, 50% dela',
      'Old story',
    ]);
    expect(body.publications[1]).toMatchObject({
      video_id: 'vid_carta',
      thumbnail_url: 'https://i.ytimg.com/vi/vid_carta/mqdefault.jpg',
      watch_url: 'https://www.youtube.com/watch?v=vid_carta',
      below_min_views: false,
      views: 0,
      likes: 0,
    });
    expect(body.publications[3]).toMatchObject({ video_id: null, thumbnail_url: null, watch_url: null });
    expect((await titles('')).total).toBe(5);
    expect((await api('GET', '/', undefined, token)).json().total).toBe(0);
    const other = (await api('GET', `/${body.publications[0].id}`, undefined, token)).statusCode;
    expect(other).toBe(404);
  });

  test('search ignores case and accents; LIKE characters match themselves', async () => {
    expect((await titles('?search=segredo da avo')).titles).toEqual(['O Segredo da Avó']);
    expect((await titles('?search=CARTA')).titles).toEqual(['A Carta Esquecida']);
    expect((await titles('?search=50%25')).titles).toEqual(['Herança, 50% dela']);
    expect((await titles('?search=%25')).titles).toEqual(['Herança, 50% dela']);
    expect((await titles('?search=nothing like it')).total).toBe(0);
  });

  test('status and period filters combine with search and paging', async () => {
    expect((await titles('?status=published')).titles).toEqual(['A Carta Esquecida', 'Herança, 50% dela', 'Old story']);
    expect((await titles('?date_range=7')).titles).toEqual(['O Segredo da Avó', 'A Carta Esquecida']);
    expect((await titles('?date_range=30')).total).toBe(3);
    expect((await titles('?date_range=90&status=published')).titles).toEqual(['A Carta Esquecida', 'Herança, 50% dela']);
    expect((await titles('?date_range=90&status=published&search=heranca')).titles).toEqual(['Herança, 50% dela']);
    const page = await titles('?skip=1&limit=2');
    expect(page).toEqual({ titles: ['A Carta Esquecida', 'The Forgotten Letter'], total: 5 });
  });

  test('bad filters answer 400 and change nothing', async () => {
    expect((await api('GET', '/?status=lost', undefined, owner.token)).statusCode).toBe(400);
    expect((await api('GET', '/?date_range=15', undefined, owner.token)).statusCode).toBe(400);
    expect((await api('GET', `/?search=${'x'.repeat(201)}`, undefined, owner.token)).statusCode).toBe(400);
  });

  test('stats count per status', async () => {
    const stats = (await api('GET', '/stats', undefined, owner.token)).json();
    expect(stats).toMatchObject({ total: 5, published: 3, processing: 1, failed: 1, total_views: 0, total_likes: 0 });
  });

  test('the CSV report: BOM, headers in the reader language, the filters, quoting', async () => {
    const response = await api('GET', '/report.csv?status=published', undefined, owner.token, { 'accept-language': 'pt-BR' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="publications-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = response.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines[0]).toBe(
      'Título,ID do vídeo,Status,Visibilidade,Publicado em (UTC),Visualizações,Curtidas,Canal,Processo,Abaixo do mínimo do canal,Motivo da falha,Link para assistir',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^A Carta Esquecida,vid_carta,Publicado,Público,/);
    expect(lines[2]).toMatch(/^"Herança, 50% dela",,Publicado,/);
    const english = await api('GET', '/report.csv', undefined, owner.token);
    expect(english.rawPayload.subarray(3).toString('utf8').split('\r\n')[0]).toMatch(/^Title,Video ID,Status,Visibility,/);
  });

  test('create and update validate what they get', async () => {
    expect((await api('POST', '/', { video_title: '   ' }, owner.token)).statusCode).toBe(422);
    expect((await api('POST', '/', { video_title: 'x', status: 'gone' }, owner.token)).statusCode).toBe(400);
    expect(
      (await api('POST', '/', { video_title: 'x', channel_id: '00000000-0000-4000-8000-000000000000' }, owner.token)).statusCode,
    ).toBe(422);
    const made = await make({ video_title: 'Draft' }, owner.token);
    expect(made).toMatchObject({ status: 'processing', visibility: 'private', published_at: null });
    const updated = await api('PUT', `/${made.id}`, { video_title: 'Final title', status: 'failed' }, owner.token);
    expect(updated.json()).toMatchObject({ video_title: 'Final title', status: 'failed' });
    expect((await titles('?search=final title')).titles).toEqual(['Final title']);
    expect((await api('DELETE', `/${made.id}`, undefined, owner.token)).statusCode).toBe(204);
    expect((await api('GET', `/${made.id}`, undefined, owner.token)).statusCode).toBe(404);
  });
});

describe('actions on YouTube', () => {
  const CHANNEL = 'UC_publications_test';
  const CLIENT = 'pubs.apps.googleusercontent.com';
  let videoId: string;

  beforeAll(async () => {
    google.addClient(CLIENT, 'GOCSPX-pubs');
    const account = google.addAccount([{ id: CHANNEL, title: 'Pubs', subscriberCount: 10, videoCount: 1, viewCount: 100 }]);
    const refresh = google.issueRefreshToken(CLIENT, account);
    const created = await call(ctx.app, 'POST', '/api/v1/youtube-apis/', {
      token,
      body: { name: 'Pubs', channel_id: CHANNEL, client_id: CLIENT, client_secret: 'GOCSPX-pubs', refresh_token: refresh },
    });
    expect(created.statusCode).toBe(201);
    videoId = google.addVideo({ channelId: CHANNEL, title: 'Uploaded story', privacyStatus: 'private' });
  });

  test('publish as public changes YouTube, then the record; without a video it is refused', async () => {
    const made = await make({ video_title: 'Uploaded story', video_id: videoId, status: 'processing', visibility: 'private' });
    const published = await api('PUT', `/${made.id}/publish-public`);
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ visibility: 'public', status: 'published' });
    expect(google.videos.get(videoId)?.status.privacyStatus).toBe('public');
    const none = await make({ video_title: 'No video' });
    const refused = await api('PUT', `/${none.id}/publish-public`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ detail: 'This publication has no YouTube video' });
  });

  test('a video scheduled for tomorrow and made public today is published now, not still scheduled', async () => {
    const tomorrow = new Date(ctx.clock.now.getTime() + 24 * 3600_000).toISOString();
    const made = await make({
      video_title: 'Scheduled story',
      video_id: videoId,
      status: 'processing',
      visibility: 'private',
      published_at: tomorrow,
    });
    const published = await api('PUT', `/${made.id}/publish-public`);
    expect(published.statusCode).toBe(200);
    expect(published.json().published_at).toBe(ctx.clock.now.toISOString());
    expect((await api('GET', `/${made.id}`)).json()).toMatchObject({
      status: 'published',
      published_at: published.json().published_at,
    });
  });

  test('a YouTube failure answers 502 and changes nothing', async () => {
    const made = await make({ video_title: 'Quota day', video_id: videoId, visibility: 'private' });
    google.failNextApiCalls(5, 'quotaExceeded');
    const failed = await api('PUT', `/${made.id}/publish-public`);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().detail).toMatch(/^YouTube quota exceeded; nothing was changed/);
    // The kind of failure, never YouTube's own sentence (with its HTML) on screen.
    expect(failed.json().detail).toContain('quotaExceeded');
    expect(failed.json().detail).not.toMatch(/<a |exceeded your/);
    expect((await api('GET', `/${made.id}`)).json()).toMatchObject({ visibility: 'private' });
    const notDeleted = await api('DELETE', `/${made.id}`);
    expect(notDeleted.statusCode).toBe(502);
    expect((await api('GET', `/${made.id}`)).statusCode).toBe(200);
    google.failNextApiCalls(0);
  });

  test('YouTube behind a gateway answering an HTML page: the 502 names its status, never the page', async () => {
    const made = await make({ video_title: 'Gateway day', video_id: videoId, visibility: 'private' });
    // A 4xx, which the client does not retry (a 5xx page would be retried with backoff first).
    google.answerPageNext('/youtube/v3/videos', 10, 400, UPSTREAM_HTML);
    const en = await api('PUT', `/${made.id}/publish-public`);
    const pt = await api('PUT', `/${made.id}/publish-public`, undefined, token, { 'accept-language': 'pt-BR' });
    google.answerPageNext('/youtube/v3/videos', 0, 502, '');
    expect(en.statusCode).toBe(502);
    expect(en.json().detail).toMatch(/^YouTube could not do it; nothing was changed \(.*400.*\)$/);
    expect(pt.json().detail).toMatch(/^O YouTube não conseguiu fazer isso; nada foi alterado \(.*400.*\)$/);
    expectNoUpstreamText(en.body + pt.body + (await api('GET', `/${made.id}`)).body);
  });

  test('delete removes the video on YouTube, then the record; a video YouTube no longer has is fine', async () => {
    const doomed = google.addVideo({ channelId: CHANNEL, title: 'Doomed', privacyStatus: 'private' });
    const made = await make({ video_title: 'Doomed', video_id: doomed });
    expect((await api('DELETE', `/${made.id}`)).statusCode).toBe(204);
    expect(google.videos.has(doomed)).toBe(false);
    const ghost = await make({ video_title: 'Ghost', video_id: 'gone_video_1' });
    expect((await api('DELETE', `/${ghost.id}`)).statusCode).toBe(204);
  });

  test('keep_video removes the record only: the video stays on YouTube, and no authorization is needed', async () => {
    const kept = google.addVideo({ channelId: CHANNEL, title: 'Kept', privacyStatus: 'public' });
    const made = await make({ video_title: 'Kept', video_id: kept });
    expect((await api('DELETE', `/${made.id}?keep_video=true`)).statusCode).toBe(204);
    expect((await api('GET', `/${made.id}`)).statusCode).toBe(404);
    expect(google.videos.has(kept)).toBe(true);

    // Another user with no authorized configuration: YouTube cannot be asked, the record can still go.
    const other = await signUp(ctx.app);
    const orphan = await make({ video_title: 'Orphan', video_id: kept }, other.token);
    const refused = await api('DELETE', `/${orphan.id}`, undefined, other.token);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toMatch(/or remove the publication from the history only$/);
    expect((await api('DELETE', `/${orphan.id}?keep_video=true`, undefined, other.token)).statusCode).toBe(204);
    expect((await api('DELETE', `/${orphan.id}?keep_video=maybe`, undefined, other.token)).statusCode).toBe(400);
  });

  test('the stats job reads views and likes, follows publication, and flags videos under the channel minimum', async () => {
    const channel = (
      await call(ctx.app, 'POST', '/api/v1/channels/', { token, body: { channel_id: CHANNEL, name: 'Pubs', min_views: 500 } })
    ).json();
    const old = google.addVideo({ channelId: CHANNEL, title: 'Old', privacyStatus: 'public' });
    const fresh = google.addVideo({ channelId: CHANNEL, title: 'Fresh', privacyStatus: 'public' });
    google.setVideoStats(old, { views: 120, likes: 7 });
    google.setVideoStats(fresh, { views: 80, likes: 3 });
    const now = ctx.clock.now.getTime();
    const a = await make({
      video_title: 'Old',
      video_id: old,
      channel_id: channel.id,
      status: 'processing',
      published_at: new Date(now - 10 * DAY_MS).toISOString(),
    });
    const b = await make({
      video_title: 'Fresh',
      video_id: fresh,
      channel_id: channel.id,
      status: 'processing',
      published_at: new Date(now - 2 * DAY_MS).toISOString(),
    });
    expect(await ctx.app.services.publications.refreshStatsFor(userId)).toBeGreaterThanOrEqual(2);
    expect((await api('GET', `/${a.id}`)).json()).toMatchObject({
      views: 120,
      likes: 7,
      status: 'published',
      visibility: 'public',
      below_min_views: true,
    });
    expect((await api('GET', `/${b.id}`)).json()).toMatchObject({ views: 80, likes: 3, below_min_views: false });
    const [row] = await ctx.database.db.select().from(publications).where(eq(publications.id, a.id));
    expect(row?.statsUpdatedAt).not.toBeNull();
    const stats = (await api('GET', '/stats')).json();
    expect(stats.total_views).toBeGreaterThanOrEqual(200);
    // The channel's own counts were refreshed by channels.list.
    const channels = (await call(ctx.app, 'GET', '/api/v1/channels/', { token })).json();
    expect(JSON.stringify(channels)).toContain('"subscriber_count":10');
    expect((await api('POST', '/stats/refresh')).statusCode).toBe(202);
  });

  test('the stats job meeting an HTML error page changes nothing and shows none of it', async () => {
    const shown = async () =>
      [
        (await api('GET', '/')).body,
        (await api('GET', '/stats')).body,
        (await api('GET', '/', undefined, token, { 'accept-language': 'pt-BR' })).body,
        (await call(ctx.app, 'GET', '/api/v1/channels/', { token })).body,
        (await call(ctx.app, 'GET', '/api/v1/processes/stats', { token })).body,
      ].join('\n');
    const before = await shown();
    google.answerPageNext('/youtube/v3/', 100, 403, UPSTREAM_HTML);
    await ctx.app.services.publications.refreshStatsFor(userId).catch(() => undefined);
    google.answerPageNext('/youtube/v3/', 0, 500, '');
    const after = await shown();
    expectNoUpstreamText(after);
    expect(after).toBe(before);
  });
});
