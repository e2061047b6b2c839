import { eq, sql } from 'drizzle-orm';
import { oauthStates } from '../src/db/schema';
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
  /** A browser's cookie jar: the cookies the console's answers set, sent back on the window's requests. */
  type Jar = Map<string, string>;
  const newJar = (): Jar => new Map();
  function keep(jar: Jar, response: { headers: Record<string, unknown> }) {
    const raw = response.headers['set-cookie'];
    for (const line of raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)]) {
      const [pair] = String(line).split(';');
      const at = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, at), pair!.slice(at + 1)];
      if (/Max-Age=0/i.test(String(line))) jar.delete(name);
      else jar.set(name, value);
    }
  }
  const cookieHeader = (jar: Jar) => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  /** A top-level GET of ours from this browser (the window, Google's redirect back). */
  async function visit(jar: Jar, url: string, headers: Record<string, string> = {}) {
    const response = await ctx.app.inject({
      method: 'GET',
      url: url.replace('http://console.test', ''),
      headers: { accept: 'text/html,*/*;q=0.8', ...(jar.size > 0 ? { cookie: cookieHeader(jar) } : {}), ...headers },
    });
    keep(jar, response);
    return response;
  }
  /** The console asks for the window's URL (a same-origin fetch: its cookie lands in the jar). */
  async function authorize(user: { token: string }, configId: string, jar: Jar) {
    const response = await call(ctx.app, 'POST', `${base}/${configId}/authorize`, { token: user.token });
    expect(response.statusCode).toBe(200);
    keep(jar, response);
    return response.json().url as string;
  }
  /** The window, Google's consent screen, and back to our callback, in this browser. */
  async function throughGoogle(jar: Jar, url: string) {
    const window = await visit(jar, url);
    expect(window.statusCode).toBe(302);
    const approved = await fetch(window.headers.location as string, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    return {
      window,
      back: back.pathname + back.search,
      callback: (headers: Record<string, string> = {}) => visit(jar, back.pathname + back.search, headers),
    };
  }

  async function prepared() {
    const user = await signUp(ctx.app);
    const b = body();
    google.addClient(b.client_id, b.client_secret);
    google.addAccount([{ id: b.channel_id, title: 'Contos', subscriberCount: 5, videoCount: 6, viewCount: 7 }]);
    const created = (await create(b, user.token)).json();
    const jar = newJar();
    const url = await authorize(user, created.id, jar);
    return { user, b, created, url, jar };
  }
  const stored = async (user: { token: string }, id: string) =>
    (await call(ctx.app, 'GET', `${base}/${id}`, { token: user.token })).json();

  test('goes to Google’s consent screen without the client secret, stores the refresh token and tells the opener', async () => {
    const { user, b, created, url, jar } = await prepared();
    expect(url).toMatch(/^http:\/\/console\.test\/api\/v1\/youtube-auth\?state=/);
    expect(url).not.toContain(b.client_secret);
    // The cookie that binds the state to this browser: HttpOnly, Lax, only for the window's path, 10 minutes.
    const answer = await call(ctx.app, 'POST', `${base}/${created.id}/authorize`, { token: user.token });
    const setCookie = String(answer.headers['set-cookie']);
    expect(setCookie).toMatch(/^storyflow_oauth_[A-Za-z0-9_-]+=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/api/v1/youtube-auth');
    expect(setCookie).toContain('Max-Age=600');
    expect(setCookie).not.toContain('Secure'); // PUBLIC_URL is http here
    // The nonce itself is not in the state (only its hash).
    expect(url).not.toContain(setCookie.split(';')[0]!.split('=')[1]!);

    const { window, callback } = await throughGoogle(jar, url);
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
    const before = jar.size;
    const page = await callback();
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('"type":"youtube-auth"');
    expect(page.body).toContain('"ok":true');
    expect(page.body).toContain(created.id);
    expect(page.body).toContain('Connected to YouTube channel “Contos”.');
    // The spent state's cookie is removed from the browser.
    expect(jar.size).toBe(before - 1);
    expect(await stored(user, created.id)).toMatchObject({ has_refresh_token: true, is_connected: true });
  });

  test('the cookie is Secure when the console is on https', async () => {
    const secure = await buildTestApp({ PUBLIC_URL: 'https://console.example' });
    try {
      const user = await signUp(secure.app);
      const created = (await call(secure.app, 'POST', `${base}/`, { token: user.token, body: body() })).json();
      const answer = await call(secure.app, 'POST', `${base}/${created.id}/authorize`, { token: user.token });
      expect(String(answer.headers['set-cookie'])).toMatch(/; Secure$/);
    } finally {
      await secure.close();
    }
  });

  test('a state opened in another browser is refused at the window and at the callback, and stores nothing', async () => {
    const { user, created, url, jar } = await prepared();
    // The victim's browser: no cookie at all, then a cookie of its own (another authorization it asked for).
    const victim = await signUp(ctx.app);
    const victimConfig = (await create(body(), victim.token)).json();
    const victimJar = newJar();
    await authorize(victim, victimConfig.id, victimJar);
    for (const other of [newJar(), victimJar]) {
      const window = await visit(other, url, { 'accept-language': 'pt-BR' });
      expect(window.statusCode).toBe(400);
      expect(window.headers['content-type']).toContain('text/html');
      expect(window.headers.location).toBeUndefined();
      expect(window.body).toContain('"ok":false');
      expect(window.body).toContain('Abra a autorização pelo console neste navegador.');
    }
    // A cookie with the right name but another value (guessed, or from a state issued earlier) is no better.
    const [[name]] = [...jar];
    const forgedJar: Jar = new Map([[name!, 'A'.repeat(43)]]);
    expect((await visit(forgedJar, url)).statusCode).toBe(400);

    // The attacker went through Google with their own browser and hands the victim the redirect back.
    const { back } = await throughGoogle(jar, url);
    for (const other of [newJar(), victimJar, forgedJar]) {
      const page = await visit(other, back);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('"ok":false');
      expect(page.body).toContain('This authorization was not started in this browser.');
    }
    expect(await stored(user, created.id)).toMatchObject({ has_refresh_token: false, is_connected: false });
    expect(await stored(victim, victimConfig.id)).toMatchObject({ has_refresh_token: false });
    // Refused attempts did not spend it: the browser that asked still completes.
    const page = await visit(jar, back);
    expect(page.body).toContain('"ok":true');
  });

  test('a state is spent by its callback: the same redirect back, or the window again, is refused', async () => {
    const { user, created, url, jar } = await prepared();
    const { back } = await throughGoogle(jar, url);
    // Keep the cookie as a browser that ignored the removal would.
    const copy: Jar = new Map(jar);
    expect((await visit(jar, back)).body).toContain('"ok":true');
    await call(ctx.app, 'PUT', `${base}/${created.id}`, { token: user.token, body: { refresh_token: '1//typed-by-hand' } });
    const again = await visit(new Map(copy), back);
    expect(again.body).toContain('"ok":false');
    expect(again.body).toContain('This authorization link was already used.');
    const window = await visit(new Map(copy), url);
    expect(window.statusCode).toBe(400);
    expect(window.body).toContain('already used');
    // The second use stored nothing: the hand-typed token is still the one (not connected to Google).
    expect(await stored(user, created.id)).toMatchObject({ has_refresh_token: true, is_connected: false });
  });

  test('a state issued before a password change is void', async () => {
    const { user, created, url, jar } = await prepared();
    const { back } = await throughGoogle(jar, url);
    const changed = await call(ctx.app, 'PUT', '/api/v1/auth/password', {
      token: user.token,
      body: { current_password: 'secret123', new_password: 'another-secret-456' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await visit(new Map(jar), url)).statusCode).toBe(400);
    const page = await visit(jar, back);
    expect(page.body).toContain('"ok":false');
    expect(page.body).toContain('invalid or has expired');
    const fresh = changed.json().access_token as string;
    expect(await stored({ token: fresh }, created.id)).toMatchObject({ has_refresh_token: false });
    // A new authorization after the change works.
    const second = newJar();
    const { callback } = await throughGoogle(second, await authorize({ token: fresh }, created.id, second));
    expect((await callback()).body).toContain('"ok":true');
  });

  test('a user keeps at most 20 pending authorizations, the newest; expired ones are removed', async () => {
    const { user, created, url: oldest, jar } = await prepared();
    const urls: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      ctx.clock.advance(1000);
      urls.push(await authorize(user, created.id, jar));
    }
    const { id: userId } = (await call(ctx.app, 'GET', '/api/v1/auth/me', { token: user.token })).json();
    const pending = async () => (await ctx.database.db.select().from(oauthStates).where(eq(oauthStates.userId, userId))).length;
    expect(await pending()).toBe(20);
    expect((await visit(jar, oldest)).statusCode).toBe(400);
    expect((await visit(jar, urls[0]!)).statusCode).toBe(302);
    ctx.clock.advance(11 * 60_000);
    try {
      await authorize(user, created.id, newJar());
      expect(await pending()).toBe(1);
    } finally {
      ctx.clock.advance(-11 * 60_000 - 20 * 1000);
    }
  });

  test('a token endpoint answering an HTML error page: the callback says so in our words, never the page', async () => {
    const { user, created, url, jar } = await prepared();
    const { callback } = await throughGoogle(jar, url);
    google.answerPageNext('/token', 10, 400, UPSTREAM_HTML);
    try {
      const page = await callback({ 'accept-language': 'pt-BR' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('"ok":false');
      // The page is our own HTML: none of Google's words (nor its link) may be in it.
      expect(page.body).not.toContain(UPSTREAM_MARKER);
      expect(page.body).not.toMatch(/Bad Gateway|upstream server|error guide|docs\/errors/);
    } finally {
      google.answerPageNext('/token', 0, 400, '');
    }
    const answer = await call(ctx.app, 'GET', `${base}/${created.id}`, { token: user.token });
    expect(answer.json()).toMatchObject({ has_refresh_token: false, is_connected: false });
    expectNoUpstreamText(answer.body);
  });

  test('a denied consent, a forged or expired state, and a missing refresh token all fail cleanly', async () => {
    const { user, created, url, jar } = await prepared();
    google.setConsent('deny');
    try {
      const { callback } = await throughGoogle(jar, url);
      const page = await callback();
      expect(page.body).toContain('"ok":false');
      expect(page.body).toContain('Access was not granted');
    } finally {
      google.setConsent('approve');
    }

    const forged = await visit(jar, '/api/v1/youtube-auth?state=not-a-state');
    expect(forged.statusCode).toBe(400);
    expect(forged.headers['content-type']).toContain('text/html');
    expect(forged.body).toMatch(/invalid or has expired/);
    // A client that does not ask for a page gets the API's usual answer.
    const asApi = await ctx.app.inject({ method: 'GET', url: '/api/v1/youtube-auth?state=not-a-state' });
    expect(asApi.statusCode).toBe(400);
    expect(asApi.json().detail).toMatch(/invalid or has expired/);
    const forgedCallback = await visit(jar, '/api/v1/youtube-auth/callback?code=x&state=nope');
    expect(forgedCallback.body).toContain('"ok":false');

    const lateJar = newJar();
    const lateUrl = await authorize(user, created.id, lateJar);
    ctx.clock.advance(11 * 60_000);
    try {
      const late = await visit(lateJar, lateUrl);
      expect(late.statusCode).toBe(400);
      expect(late.body).toMatch(/invalid or has expired/);
    } finally {
      ctx.clock.advance(-11 * 60_000);
    }

    google.setIssueRefreshToken(false);
    try {
      const again = newJar();
      const { callback } = await throughGoogle(again, await authorize(user, created.id, again));
      expect((await callback()).body).toContain('did not return a refresh token');
    } finally {
      google.setIssueRefreshToken(true);
    }
    expect((await stored(user, created.id)).has_refresh_token).toBe(false);
  });
});
