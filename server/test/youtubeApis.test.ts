import { sql } from 'drizzle-orm';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { UPSTREAM_HTML, UPSTREAM_MARKER, buildTestApp, call, expectNoUpstreamText, signUp, type TestContext } from './helper';

let google: FakeGoogle;
let ctx: TestContext;
let token: string;

beforeAll(async () => {
  google = await startFakeGoogle();
  ctx = await buildTestApp({
    GOOGLE_AUTH_URL: google.authUrl,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    YOUTUBE_API_URL: google.apiUrl,
  });
  ({ token } = await signUp(ctx.app));
});
afterAll(async () => {
  await ctx.close();
  await google.close();
});

const base = '/api/v1/youtube-apis';
let n = 0;
function body(overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    name: `Config ${n}`,
    channel_id: `UC_channel_${n}`,
    client_id: `client-${n}.apps.googleusercontent.com`,
    client_secret: `GOCSPX-secret-value-${n}`,
    ...overrides,
  };
}
const create = (b: unknown, as = token) => call(ctx.app, 'POST', `${base}/`, { token: as, body: b });
const list = async (as = token) => (await call(ctx.app, 'GET', `${base}/`, { token: as })).json();

describe('configurations', () => {
  let user: { token: string };
  beforeEach(async () => {
    user = await signUp(ctx.app);
  });

  test('the first one is active, secrets are masked and stored encrypted', async () => {
    const first = await create(body({ api_key: 'AIzaSy-the-api-key-1234', refresh_token: '1//refresh-token-abcd' }), user.token);
    expect(first.statusCode).toBe(201);
    const json = first.json();
    expect(json).toMatchObject({
      is_active: true,
      is_enabled: true,
      is_connected: false,
      last_tested: null,
      has_api_key: true,
      has_refresh_token: true,
      has_client_secret: true,
    });
    expect(json.client_secret_masked).toMatch(/^•+.{0,4}$/);
    expect(json.api_key_masked).toBe('••••••••1234');
    expect(first.body).not.toContain('GOCSPX-secret-value');
    expect(first.body).not.toContain('AIzaSy-the-api-key');
    expect(first.body).not.toContain('refresh-token');
    const stored = await ctx.database.db.execute(
      sql`select client_secret_enc, api_key_enc, refresh_token_enc from youtube_apis where id = ${json.id}`,
    );
    const row = (stored as unknown as { rows: Record<string, string>[] }).rows[0]!;
    expect(Object.values(row).join(' ')).not.toMatch(/GOCSPX|AIzaSy|refresh-token/);
    const second = await create(body(), user.token);
    expect(second.json().is_active).toBe(false);
    const listed = await list(user.token);
    expect(listed.youtube_apis).toHaveLength(2);
    expect(listed.oauth_redirect_uri).toBe('http://console.test/api/v1/youtube-auth/callback');
    expect(JSON.stringify(listed)).not.toContain('GOCSPX');
  });

  test('refuses missing fields with 4xx and stores nothing', async () => {
    const blank = await create(body({ client_secret: '  ' }), user.token);
    expect(blank.statusCode).toBe(422);
    expect(blank.json()).toEqual({ detail: 'Name, channel id, client id and client secret are required' });
    const missing = await create({ name: 'x', channel_id: 'y', client_id: 'z' }, user.token);
    expect(missing.statusCode).toBe(400);
    expect((await list(user.token)).youtube_apis).toHaveLength(0);
  });

  test('set-active leaves exactly one active; deleting the active activates the oldest remaining', async () => {
    const a = (await create(body(), user.token)).json();
    const b = (await create(body(), user.token)).json();
    const c = (await create(body(), user.token)).json();
    const active = await call(ctx.app, 'PUT', `${base}/${c.id}/set-active`, { token: user.token });
    expect(active.json().is_active).toBe(true);
    let rows = (await list(user.token)).youtube_apis as { id: string; is_active: boolean }[];
    expect(rows.filter((r) => r.is_active).map((r) => r.id)).toEqual([c.id]);
    expect((await call(ctx.app, 'DELETE', `${base}/${c.id}`, { token: user.token })).statusCode).toBe(204);
    rows = (await list(user.token)).youtube_apis;
    expect(rows.filter((r) => r.is_active).map((r) => r.id)).toEqual([a.id]);
    // Deleting one that is not active changes nothing else.
    await call(ctx.app, 'DELETE', `${base}/${b.id}`, { token: user.token });
    rows = (await list(user.token)).youtube_apis;
    expect(rows).toEqual([expect.objectContaining({ id: a.id, is_active: true })]);
  });

  test('update keeps blank secrets, replaces given ones, and resets the connection on new credentials', async () => {
    const created = (await create(body({ api_key: 'AIzaSy-keep-me-9999' }), user.token)).json();
    await ctx.database.db.execute(sql`update youtube_apis set is_connected = true where id = ${created.id}`);
    const renamed = await call(ctx.app, 'PUT', `${base}/${created.id}`, {
      token: user.token,
      body: { name: 'Renamed', client_secret: '', api_key: null },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'Renamed',
      is_connected: true,
      api_key_masked: '••••••••9999',
      client_secret_masked: created.client_secret_masked,
    });
    const newSecret = await call(ctx.app, 'PUT', `${base}/${created.id}`, {
      token: user.token,
      body: { client_secret: 'GOCSPX-brand-new-7777' },
    });
    expect(newSecret.json()).toMatchObject({ is_connected: false, client_secret_masked: '••••••••7777' });
    const cleared = await call(ctx.app, 'PUT', `${base}/${created.id}`, { token: user.token, body: { clear_api_key: true } });
    expect(cleared.json()).toMatchObject({ has_api_key: false, api_key_masked: null });
    const blankName = await call(ctx.app, 'PUT', `${base}/${created.id}`, { token: user.token, body: { name: ' ' } });
    expect(blankName.statusCode).toBe(422);
  });

  test('toggle flips is_enabled; enabled_only filters', async () => {
    const created = (await create(body(), user.token)).json();
    const off = await call(ctx.app, 'PUT', `${base}/${created.id}/toggle`, { token: user.token });
    expect(off.json().is_enabled).toBe(false);
    const enabled = await call(ctx.app, 'GET', `${base}/?enabled_only=true`, { token: user.token });
    expect(enabled.json().youtube_apis).toHaveLength(0);
    await call(ctx.app, 'PUT', `${base}/${created.id}/toggle`, { token: user.token });
    expect((await call(ctx.app, 'GET', `${base}/?enabled_only=true`, { token: user.token })).json().youtube_apis).toHaveLength(1);
  });

  test('a run uses only its own configuration while enabled, never another one in its place', async () => {
    const active = (await create(body({ refresh_token: '1//refresh-active' }), user.token)).json();
    const chosen = (await create(body({ refresh_token: '1//refresh-chosen' }), user.token)).json();
    expect(active.is_active).toBe(true);
    const { credentialsFor } = ctx.app.services.youtubeApis;
    const { id: userId } = (await call(ctx.app, 'GET', '/api/v1/auth/me', { token: user.token })).json();
    expect((await credentialsFor(userId, { youtubeApiId: chosen.id, exact: true }))?.youtubeApiId).toBe(chosen.id);

    // Switched off: nothing for a run (it would upload to another channel); managing videos may still fall back.
    await call(ctx.app, 'PUT', `${base}/${chosen.id}/toggle`, { token: user.token });
    expect(await credentialsFor(userId, { youtubeApiId: chosen.id, exact: true })).toBeUndefined();
    expect((await credentialsFor(userId, { youtubeApiId: null }))?.youtubeApiId).toBe(active.id);
    // Deleted (the process's reference is cleared): nothing either.
    expect(await credentialsFor(userId, { youtubeApiId: null, exact: true })).toBeUndefined();
  });

  test('another user’s configuration answers 404 everywhere', async () => {
    const created = (await create(body(), user.token)).json();
    for (const [method, url] of [
      ['GET', `${base}/${created.id}`],
      ['PUT', `${base}/${created.id}`],
      ['PUT', `${base}/${created.id}/toggle`],
      ['PUT', `${base}/${created.id}/set-active`],
      ['POST', `${base}/${created.id}/test`],
      ['POST', `${base}/${created.id}/authorize`],
      ['DELETE', `${base}/${created.id}`],
    ] as const) {
      const response = await call(ctx.app, method, url, {
        token,
        body: method === 'PUT' && !url.includes('/t') && !url.includes('set-') ? { name: 'stolen' } : undefined,
      });
      expect(response.statusCode).toBe(404);
    }
    expect((await list(user.token)).youtube_apis[0]).toMatchObject({ name: created.name, is_active: true });
  });
});

describe('connection test', () => {
  test('without a refresh token it says authorization is needed and records the test', async () => {
    const user = await signUp(ctx.app);
    const created = (await create(body(), user.token)).json();
    const result = await call(ctx.app, 'POST', `${base}/${created.id}/test`, { token: user.token });
    expect(result.statusCode).toBe(200);
    expect(result.json()).toMatchObject({ is_connected: false, needs_authorization: true, channel: null });
    expect(result.json().detail).toMatch(/Authorize access/);
    expect((await call(ctx.app, 'GET', `${base}/${created.id}`, { token: user.token })).json().last_tested).not.toBeNull();
  });

  test('with a valid refresh token it connects and refreshes the channel counts', async () => {
    const user = await signUp(ctx.app);
    const b = body();
    google.addClient(b.client_id, b.client_secret);
    const account = google.addAccount([
      { id: b.channel_id, title: 'Histórias da Noite', subscriberCount: 1200, videoCount: 34, viewCount: 98765 },
    ]);
    const refresh = google.issueRefreshToken(b.client_id, account);
    await call(ctx.app, 'POST', '/api/v1/channels/', { token: user.token, body: { channel_id: b.channel_id } });
    const created = (await create({ ...b, refresh_token: refresh }, user.token)).json();
    const result = await call(ctx.app, 'POST', `${base}/${created.id}/test`, { token: user.token });
    expect(result.json()).toMatchObject({
      is_connected: true,
      needs_authorization: false,
      detail: 'Connected to YouTube channel “Histórias da Noite”.',
      channel: { id: b.channel_id, subscriber_count: 1200, video_count: 34, view_count: 98765 },
    });
    const channels = (await call(ctx.app, 'GET', '/api/v1/channels/', { token: user.token })).json().channels;
    expect(channels[0]).toMatchObject({ subscriber_count: 1200, video_count: 34, view_count: 98765 });
    const channelsCall = google.requests.find((r) => r.path === '/youtube/v3/channels');
    expect(channelsCall?.query).toMatchObject({ mine: 'true' });
    expect(channelsCall?.query.part).toContain('statistics');

    // Revoked at Google: not connected, authorization needed again, last_tested still set.
    google.revoke(refresh);
    const revoked = await call(ctx.app, 'POST', `${base}/${created.id}/test`, {
      token: user.token,
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(revoked.json()).toMatchObject({
      is_connected: false,
      needs_authorization: true,
      detail: 'A autorização expirou ou foi revogada. Autorize o acesso novamente.',
    });
    const stored = (await call(ctx.app, 'GET', `${base}/${created.id}`, { token: user.token })).json();
    expect(stored.is_connected).toBe(false);
    expect(stored.last_tested).toBe(revoked.json().last_tested);
  });

  test('an account that does not own the channel, a quota error and a wrong secret are failures with their reasons', async () => {
    const user = await signUp(ctx.app);
    const b = body();
    google.addClient(b.client_id, b.client_secret);
    const account = google.addAccount([
      { id: 'UC_someone_else', title: 'Other', subscriberCount: 1, videoCount: 1, viewCount: 1 },
    ]);
    const created = (await create({ ...b, refresh_token: google.issueRefreshToken(b.client_id, account) }, user.token)).json();
    const mismatch = await call(ctx.app, 'POST', `${base}/${created.id}/test`, { token: user.token });
    expect(mismatch.json()).toMatchObject({ is_connected: false });
    expect(mismatch.json().detail).toContain(b.channel_id);

    google.failNextApiCalls(1, 'quotaExceeded');
    const quota = await call(ctx.app, 'POST', `${base}/${created.id}/test`, { token: user.token });
    expect(quota.json()).toMatchObject({
      is_connected: false,
      detail: 'The YouTube API quota is used up for today. Try again tomorrow.',
    });

    await call(ctx.app, 'PUT', `${base}/${created.id}`, { token: user.token, body: { client_secret: 'GOCSPX-wrong' } });
    const wrong = await call(ctx.app, 'POST', `${base}/${created.id}/test`, { token: user.token });
    expect(wrong.json()).toMatchObject({
      is_connected: false,
      detail: 'Google refused the OAuth client id or client secret. Check them in the Google Cloud console.',
    });
  });
});

describe('authorization window', () => {
  async function prepared() {
    const user = await signUp(ctx.app);
    const b = body();
    google.addClient(b.client_id, b.client_secret);
    google.addAccount([{ id: b.channel_id, title: 'Contos', subscriberCount: 5, videoCount: 6, viewCount: 7 }]);
    const created = (await create(b, user.token)).json();
    const { url } = (await call(ctx.app, 'POST', `${base}/${created.id}/authorize`, { token: user.token })).json();
    return { user, b, created, url: url as string };
  }

  test('goes to Google’s consent screen without the client secret, stores the refresh token and tells the opener', async () => {
    const { user, b, created, url } = await prepared();
    expect(url).toMatch(/^http:\/\/console\.test\/api\/v1\/youtube-auth\?state=/);
    expect(url).not.toContain(b.client_secret);
    const window = await ctx.app.inject({ method: 'GET', url: url.replace('http://console.test', '') });
    expect(window.statusCode).toBe(302);
    const consent = new URL(window.headers.location as string);
    expect(consent.origin + consent.pathname).toBe(google.authUrl);
    expect(consent.searchParams.get('client_id')).toBe(b.client_id);
    expect(consent.searchParams.get('access_type')).toBe('offline');
    expect(consent.searchParams.get('prompt')).toBe('consent');
    expect(consent.searchParams.get('redirect_uri')).toBe('http://console.test/api/v1/youtube-auth/callback');
    expect(consent.searchParams.get('scope')!.split(' ')).toEqual(
      expect.arrayContaining([
        'https://www.googleapis.com/auth/youtube.upload',
        'https://www.googleapis.com/auth/youtube.force-ssl',
        'https://www.googleapis.com/auth/youtube.readonly',
      ]),
    );
    expect(window.headers.location).not.toContain(b.client_secret);

    // The browser follows Google's consent screen back to our callback.
    const approved = await fetch(window.headers.location as string, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    const callback = await ctx.app.inject({ method: 'GET', url: back.pathname + back.search });
    expect(callback.statusCode).toBe(200);
    expect(callback.headers['content-type']).toContain('text/html');
    expect(callback.body).toContain('"type":"youtube-auth"');
    expect(callback.body).toContain('"ok":true');
    expect(callback.body).toContain(created.id);
    expect(callback.body).toContain('Connected to YouTube channel “Contos”.');
    const stored = (await call(ctx.app, 'GET', `${base}/${created.id}`, { token: user.token })).json();
    expect(stored).toMatchObject({ has_refresh_token: true, is_connected: true });
  });

  test('a token endpoint answering an HTML error page: the callback says so in our words, never the page', async () => {
    const { user, created, url } = await prepared();
    const window = await ctx.app.inject({ method: 'GET', url: url.replace('http://console.test', '') });
    const approved = await fetch(window.headers.location as string, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    google.answerPageNext('/token', 10, 400, UPSTREAM_HTML);
    try {
      const callback = await ctx.app.inject({
        method: 'GET',
        url: back.pathname + back.search,
        headers: { 'accept-language': 'pt-BR' },
      });
      expect(callback.statusCode).toBe(200);
      expect(callback.body).toContain('"ok":false');
      // The page is our own HTML: none of Google's words (nor its link) may be in it.
      expect(callback.body).not.toContain(UPSTREAM_MARKER);
      expect(callback.body).not.toMatch(/Bad Gateway|upstream server|error guide|docs\/errors/);
    } finally {
      google.answerPageNext('/token', 0, 400, '');
    }
    const stored = await call(ctx.app, 'GET', `${base}/${created.id}`, { token: user.token });
    expect(stored.json()).toMatchObject({ has_refresh_token: false, is_connected: false });
    expectNoUpstreamText(stored.body);
  });

  test('a denied consent, a forged or expired state, and a missing refresh token all fail cleanly', async () => {
    const { user, created, url } = await prepared();
    google.setConsent('deny');
    try {
      const window = await ctx.app.inject({ method: 'GET', url: url.replace('http://console.test', '') });
      const denied = await fetch(window.headers.location as string, { redirect: 'manual' });
      const back = new URL(denied.headers.get('location')!);
      const callback = await ctx.app.inject({ method: 'GET', url: back.pathname + back.search });
      expect(callback.body).toContain('"ok":false');
      expect(callback.body).toContain('Access was not granted');
    } finally {
      google.setConsent('approve');
    }

    const forged = await ctx.app.inject({ method: 'GET', url: '/api/v1/youtube-auth?state=not-a-state' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().detail).toMatch(/invalid or has expired/);
    const forgedCallback = await ctx.app.inject({ method: 'GET', url: '/api/v1/youtube-auth/callback?code=x&state=nope' });
    expect(forgedCallback.body).toContain('"ok":false');

    ctx.clock.advance(11 * 60_000);
    const late = await ctx.app.inject({ method: 'GET', url: url.replace('http://console.test', '') });
    expect(late.statusCode).toBe(400);
    ctx.clock.advance(-11 * 60_000);

    google.setIssueRefreshToken(false);
    try {
      const window = await ctx.app.inject({ method: 'GET', url: url.replace('http://console.test', '') });
      const approved = await fetch(window.headers.location as string, { redirect: 'manual' });
      const back = new URL(approved.headers.get('location')!);
      const callback = await ctx.app.inject({ method: 'GET', url: back.pathname + back.search });
      expect(callback.body).toContain('did not return a refresh token');
    } finally {
      google.setIssueRefreshToken(true);
    }
    const stored = (await call(ctx.app, 'GET', `${base}/${created.id}`, { token: user.token })).json();
    expect(stored.has_refresh_token).toBe(false);
  });
});
