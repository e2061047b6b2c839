import { sql } from 'drizzle-orm';
import { startFakeTiktok, type FakeTiktok } from '../fakes/tiktok';
import { startFakeMeta, type FakeMeta, type FakeMetaUser } from '../fakes/meta';
import { UPSTREAM_HTML, buildTestApp, call, expectNoUpstreamText, signUp, type TestContext } from './helper';

/**
 * TikTok and Instagram accounts through the real app, against the platforms' fakes: the API's
 * shapes, ownership, the authorization window (state bound to the browser, PKCE for TikTok, the
 * Instagram account picked among the Pages), the check, removal, and the pipeline's credentials.
 */

const TIKTOK_APP = { key: 'tt-operator-key', secret: 'tt-operator-secret-value' };
const META_APP = { id: '100200300', secret: 'meta-operator-secret-value' };
const REDIRECT = {
  tiktok: 'http://console.test/api/v1/platform-auth/tiktok/callback',
  instagram: 'http://console.test/api/v1/platform-auth/instagram/callback',
};

let tiktok: FakeTiktok;
let meta: FakeMeta;
let ctx: TestContext;
let token: string;

function platformEnv(): Record<string, string> {
  return {
    TIKTOK_AUTH_URL: tiktok.authUrl,
    TIKTOK_API_URL: tiktok.apiUrl,
    TIKTOK_UPLOAD_ORIGINS: tiktok.url,
    META_AUTH_URL: meta.authUrl,
    META_GRAPH_URL: meta.apiUrl,
    META_UPLOAD_URL: meta.uploadUrl,
  };
}

beforeAll(async () => {
  tiktok = await startFakeTiktok();
  meta = await startFakeMeta();
  tiktok.addClient(TIKTOK_APP.key, TIKTOK_APP.secret, [REDIRECT.tiktok]);
  meta.addApp(META_APP.id, META_APP.secret);
  ctx = await buildTestApp({
    ...platformEnv(),
    TIKTOK_CLIENT_KEY: TIKTOK_APP.key,
    TIKTOK_CLIENT_SECRET: TIKTOK_APP.secret,
    META_APP_ID: META_APP.id,
    META_APP_SECRET: META_APP.secret,
  });
  ({ token } = await signUp(ctx.app));
});
afterAll(async () => {
  await ctx.close();
  await tiktok.close();
  await meta.close();
});

const base = '/api/v1/platform-accounts';
let n = 0;
const create = (body: unknown, as = token, app = ctx.app) => call(app, 'POST', `${base}/`, { token: as, body });
const list = async (as = token) => (await call(ctx.app, 'GET', `${base}/`, { token: as })).json();
const get = async (id: string, as = token) => (await call(ctx.app, 'GET', `${base}/${id}`, { token: as })).json();

/** A TikTok user of the fake, the next one to consent. */
function tiktokUser(overrides: Partial<Parameters<FakeTiktok['addUser']>[0]> = {}) {
  n += 1;
  const user = {
    openId: `open-${n}`,
    displayName: `Creator ${n}`,
    username: `creator${n}`,
    avatarUrl: `https://p.test/${n}.jpg`,
    ...overrides,
  };
  tiktok.addUser(user);
  tiktok.useUser(user.openId);
  return user;
}

/** A Facebook user of the fake with these Pages (linked Instagram accounts or not), the next one to consent. */
function metaUser(pages: Array<{ linked: boolean }>): FakeMetaUser {
  n += 1;
  const user: FakeMetaUser = {
    id: `fb-${n}`,
    name: `Owner ${n}`,
    pages: pages.map((page, i) => ({
      id: `page-${n}-${i}`,
      name: `Page ${n}.${i}`,
      ...(page.linked
        ? {
            instagram: {
              id: `1784${n}0${i}`,
              username: `insta_${n}_${i}`,
              name: `Insta ${n}.${i}`,
              profilePictureUrl: `https://ig.test/${n}-${i}.jpg`,
            },
          }
        : {}),
    })),
  };
  meta.addUser(user);
  meta.setConsentUser(user.id);
  return user;
}

/** A browser's cookie jar: the cookies our answers set, sent back on the window's requests. */
type Jar = Map<string, string>;
function keep(jar: Jar, response: { headers: Record<string, unknown> }) {
  const raw = response.headers['set-cookie'];
  for (const line of raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)]) {
    const [pair] = String(line).split(';');
    const at = pair!.indexOf('=');
    if (/Max-Age=0/i.test(String(line))) jar.delete(pair!.slice(0, at));
    else jar.set(pair!.slice(0, at), pair!.slice(at + 1));
  }
}
async function visit(jar: Jar, url: string, headers: Record<string, string> = {}) {
  const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const response = await ctx.app.inject({
    method: 'GET',
    url: url.replace('http://console.test', ''),
    headers: { accept: 'text/html,*/*;q=0.8', ...(cookie ? { cookie } : {}), ...headers },
  });
  keep(jar, response);
  return response;
}
async function authorize(id: string, jar: Jar, as = token) {
  const response = await call(ctx.app, 'POST', `${base}/${id}/authorize`, { token: as });
  expect(response.statusCode).toBe(200);
  keep(jar, response);
  return response.json().url as string;
}
/** Our window, the platform's consent page, and back: the callback, ready to be visited in this browser. */
async function throughConsent(jar: Jar, url: string) {
  const window = await visit(jar, url);
  expect(window.statusCode).toBe(302);
  const consent = new URL(window.headers.location as string);
  const answered = await fetch(consent, { redirect: 'manual' });
  expect(answered.status).toBe(302);
  const back = new URL(answered.headers.get('location')!);
  return { consent, back, callback: (headers: Record<string, string> = {}) => visit(jar, back.pathname + back.search, headers) };
}
/** The whole dance for a new account of this platform: the result page. */
async function connect(platform: 'tiktok' | 'instagram', as = token) {
  const account = (await create({ platform, name: `${platform} ${n}` }, as)).json();
  const jar: Jar = new Map();
  const { callback } = await throughConsent(jar, await authorize(account.id, jar, as));
  const page = await callback();
  return { account, page, jar };
}
/** The rows of a raw query (PGlite's and node-postgres's answers both carry `rows`). */
async function rowsOf(query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  return ((await ctx.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
}
const payloadOf = (html: string) => JSON.parse(/var data=(\{.*?\});/.exec(html)![1]!.replace(/\\u003c/g, '<'));

describe('accounts', () => {
  test('created with the operator’s app or their own; secrets never answered; the list’s shape', async () => {
    const user = await signUp(ctx.app);
    const own = await create(
      { platform: 'tiktok', name: ' Mine ', client_id: 'my-key', client_secret: 'my-very-secret-value' },
      user.token,
    );
    expect(own.statusCode).toBe(201);
    expect(own.json()).toMatchObject({
      platform: 'tiktok',
      name: 'Mine',
      uses_operator_app: false,
      client_id: 'my-key',
      has_client_secret: true,
      is_active: true,
      is_connected: false,
      needs_authorization: true,
      // The operator has not declared the app audited: TikTok keeps its posts private.
      private_only: true,
      choices: null,
      external_id: null,
      disconnect_reason: null,
      last_tested: null,
    });
    const operators = await create({ platform: 'instagram', name: 'Reels' }, user.token);
    expect(operators.json()).toMatchObject({
      uses_operator_app: true,
      client_id: null,
      has_client_secret: false,
      private_only: false,
    });
    const listed = await list(user.token);
    expect(listed).toMatchObject({
      total: 2,
      redirect_uris: REDIRECT,
      operator_apps: { tiktok: true, instagram: true },
    });
    expect(listed.platform_accounts.map((a: { name: string }) => a.name)).toEqual(['Mine', 'Reels']);
    expect(JSON.stringify(listed) + own.body).not.toContain('my-very-secret-value');
    const stored = await rowsOf(sql`select client_secret_enc from platform_accounts where name = 'Mine'`);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain('my-very-secret-value');
  });

  test('refuses what cannot authorize: half an app, no name, an unknown platform, no app anywhere (translated)', async () => {
    expect((await create({ platform: 'tiktok', name: 'x', client_id: 'only-the-id' })).statusCode).toBe(422);
    expect((await create({ platform: 'tiktok', name: '  ' })).json()).toEqual({ detail: 'The account name is required' });
    expect((await create({ platform: 'youtube', name: 'x' })).statusCode).toBe(400);
    const bare = await buildTestApp({ ...platformEnv(), TIKTOK_APP_AUDITED: 'true' });
    try {
      const user = await signUp(bare.app);
      const en = await create({ platform: 'tiktok', name: 'x' }, user.token, bare.app);
      expect(en.statusCode).toBe(422);
      expect(en.json().detail).toContain('TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET');
      const pt = await call(bare.app, 'POST', `${base}/`, {
        token: user.token,
        body: { platform: 'instagram', name: 'x' },
        headers: { 'accept-language': 'pt-BR' },
      });
      expect(pt.statusCode).toBe(422);
      expect(pt.json().detail).toMatch(/^Não há app da Meta para autorizar: .*META_APP_ID e META_APP_SECRET$/);
      const listed = (await call(bare.app, 'GET', `${base}/`, { token: user.token })).json();
      expect(listed).toMatchObject({ total: 0, operator_apps: { tiktok: false, instagram: false } });
      // Their own app is enough.
      expect(
        (await create({ platform: 'tiktok', name: 'x', client_id: 'k', client_secret: 's' }, user.token, bare.app)).statusCode,
      ).toBe(201);
    } finally {
      await bare.close();
    }
  });

  test('another user’s account is not found on every route', async () => {
    const account = (await create({ platform: 'tiktok', name: 'Private' })).json();
    const other = await signUp(ctx.app);
    for (const [method, path, body] of [
      ['GET', `${base}/${account.id}`],
      ['PUT', `${base}/${account.id}`, { name: 'stolen' }],
      ['PUT', `${base}/${account.id}/toggle`],
      ['POST', `${base}/${account.id}/test`],
      ['POST', `${base}/${account.id}/authorize`],
      ['DELETE', `${base}/${account.id}`],
    ] as const) {
      const response = await call(ctx.app, method, path, { token: other.token, ...(body ? { body } : {}) });
      expect([method, path, response.statusCode]).toEqual([method, path, 404]);
      expect(response.json()).toEqual({ detail: 'Platform account not found' });
    }
    expect(await get(account.id)).toMatchObject({ name: 'Private', is_active: true });
  });

  test('a secret sealed under another APP_SECRET: authorize and check say to enter it again', async () => {
    const account = (await create({ platform: 'tiktok', name: 'Moved', client_id: 'k-moved', client_secret: 's-moved' })).json();
    await rowsOf(sql`update platform_accounts set client_secret_enc = 'v1:AAAA:BBBB:CCCC' where id = ${account.id}`);
    const asked = await call(ctx.app, 'POST', `${base}/${account.id}/authorize`, { token });
    expect(asked.statusCode).toBe(422);
    expect(asked.json().detail).toContain('can no longer be read');
    await rowsOf(sql`update platform_accounts set access_token_enc = 'v1:AAAA:BBBB:CCCC' where id = ${account.id}`);
    const checked = await call(ctx.app, 'POST', `${base}/${account.id}/test`, { token });
    expect(checked.json()).toMatchObject({ is_connected: false, needs_authorization: true });
    expect(checked.json().detail).toContain('can no longer be read');
    expect(await get(account.id)).toMatchObject({ is_connected: false, needs_authorization: true });
  });

  test('toggle switches it off and on', async () => {
    const account = (await create({ platform: 'instagram', name: 'Toggle' })).json();
    const off = await call(ctx.app, 'PUT', `${base}/${account.id}/toggle`, { token });
    expect(off.json().is_active).toBe(false);
    expect((await call(ctx.app, 'PUT', `${base}/${account.id}/toggle`, { token })).json().is_active).toBe(true);
  });

  test('a check before any authorization says to authorize', async () => {
    const account = (await create({ platform: 'tiktok', name: 'New' })).json();
    const checked = await call(ctx.app, 'POST', `${base}/${account.id}/test`, { token, headers: { 'accept-language': 'pt' } });
    expect(checked.json()).toMatchObject({ is_connected: false, needs_authorization: true });
    expect(checked.json().detail).toContain('Autorize a conta primeiro');
  });
});

describe('TikTok authorization', () => {
  test('window → consent with PKCE → callback: connected, the profile filled, the opener told', async () => {
    const user = tiktokUser({ maxVideoPostDurationSec: 600 });
    const account = (await create({ platform: 'tiktok', name: 'Contos' })).json();
    const jar: Jar = new Map();
    const url = await authorize(account.id, jar);
    expect(url).toMatch(/^http:\/\/console\.test\/api\/v1\/platform-auth\/tiktok\?state=/);
    expect([...jar.keys()]).toHaveLength(1);
    const { consent, callback } = await throughConsent(jar, url);
    expect(consent.origin + consent.pathname).toBe(tiktok.authUrl);
    expect(consent.searchParams.get('client_key')).toBe(TIKTOK_APP.key);
    expect(consent.searchParams.get('redirect_uri')).toBe(REDIRECT.tiktok);
    // TikTok's challenge: the hex SHA-256 of a verifier that never reaches the browser.
    expect(consent.searchParams.get('code_challenge')).toMatch(/^[0-9a-f]{64}$/);
    expect(consent.href).not.toContain(TIKTOK_APP.secret);
    const page = await callback();
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'sha256-/);
    expect(payloadOf(page.body)).toEqual({
      type: 'platform-auth',
      platform: 'tiktok',
      ok: true,
      account_id: account.id,
      message: `Connected to TikTok account @${user.username}.`,
    });
    // The spent state's cookie is removed.
    expect(jar.size).toBe(0);
    const exchange = tiktok.requests.filter((r) => r.path === '/v2/oauth/token/').at(-1)!;
    expect(exchange.body).toMatchObject({
      grant_type: 'authorization_code',
      client_key: TIKTOK_APP.key,
      redirect_uri: REDIRECT.tiktok,
    });
    expect(exchange.body.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(await get(account.id)).toMatchObject({
      is_connected: true,
      needs_authorization: false,
      external_id: user.openId,
      username: user.username,
      display_name: user.displayName,
      avatar_url: user.avatarUrl,
      max_duration_sec: 600,
      private_only: true,
    });
    const [row] = (await rowsOf(
      sql`select access_token_enc, refresh_token_enc, scopes, privacy_levels from platform_accounts where id = ${account.id}`,
    )) as [Record<string, unknown>];
    expect(row.scopes).toEqual(['user.info.basic', 'video.publish']);
    expect(row.privacy_levels).toContain('SELF_ONLY');
    expect(String(row.access_token_enc)).not.toMatch(/^act\./);
    expect(JSON.stringify(await list())).not.toMatch(/act\.|rft\./);
  });

  test('a denied consent stores nothing and says so', async () => {
    tiktokUser();
    tiktok.setConsent('deny');
    try {
      const { account, page } = await connect('tiktok');
      expect(payloadOf(page.body)).toMatchObject({
        ok: false,
        account_id: account.id,
        message: 'Access was not granted on TikTok’s consent page.',
      });
      expect(await get(account.id)).toMatchObject({ is_connected: false, external_id: null, needs_authorization: true });
    } finally {
      tiktok.setConsent('approve');
    }
  });

  test('a TikTok state is refused at the Instagram window and callback', async () => {
    tiktokUser();
    const account = (await create({ platform: 'tiktok', name: 'Crossed' })).json();
    const jar: Jar = new Map();
    const url = new URL(await authorize(account.id, jar));
    const crossed = await visit(jar, `/api/v1/platform-auth/instagram${url.search}`);
    expect(crossed.statusCode).toBe(400);
    expect(crossed.body).toContain('This authorization link is invalid or has expired.');
    // (A copy of the jar: the refusal's cookie removal is for the Instagram path, which this jar does not tell apart.)
    const callback = await visit(new Map(jar), `/api/v1/platform-auth/instagram/callback${url.search}&code=anything`);
    expect(payloadOf(callback.body)).toMatchObject({ ok: false, account_id: null });
    // Still pending for its own window.
    expect((await visit(jar, url.href)).statusCode).toBe(302);
  });

  test('a consent that leaves out video.publish: not connected, the page says a permission is missing', async () => {
    tiktokUser();
    tiktok.setConsent('approve', ['user.info.basic']);
    try {
      const { account, page } = await connect('tiktok');
      expect(payloadOf(page.body)).toMatchObject({ ok: false, message: expect.stringContaining('lacks a permission') });
      expect(await get(account.id)).toMatchObject({ is_connected: false, needs_authorization: true });
    } finally {
      tiktok.setConsent('approve');
    }
  });

  test('a state from another browser, used twice, or issued before a password change is refused and stores nothing', async () => {
    const owner = await signUp(ctx.app);
    tiktokUser();
    const account = (await create({ platform: 'tiktok', name: 'Guarded' }, owner.token)).json();
    const jar: Jar = new Map();
    const url = await authorize(account.id, jar, owner.token);
    // Another browser (no cookie): the window refuses, to a script with {detail}, to a browser with the page.
    const elsewhere = await visit(new Map(), url);
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.body).toContain('This authorization was not started in this browser.');
    const script = await ctx.app.inject({ method: 'GET', url: url.replace('http://console.test', '') });
    expect(script.json()).toEqual({
      detail: 'This authorization was not started in this browser. Open the authorization from the console in this browser.',
    });
    const { back, callback } = await throughConsent(jar, url);
    const stolen = await visit(new Map(), back.pathname + back.search);
    expect(payloadOf(stolen.body)).toMatchObject({ ok: false, account_id: null });
    expect((await get(account.id, owner.token)).external_id).toBeNull();
    // This browser: once, then never again.
    const kept = new Map(jar);
    expect(payloadOf((await callback()).body).ok).toBe(true);
    const again = await visit(kept, back.pathname + back.search);
    expect(payloadOf(again.body)).toMatchObject({
      ok: false,
      message: 'This authorization link was already used. Start again from the settings page.',
    });

    // A password change voids every state issued before it.
    const second = await create({ platform: 'tiktok', name: 'Later' }, owner.token);
    const laterJar: Jar = new Map();
    const laterUrl = await authorize(second.json().id, laterJar, owner.token);
    const changed = await call(ctx.app, 'PUT', '/api/v1/auth/password', {
      token: owner.token,
      body: { current_password: owner.password, new_password: 'another-secret-456' },
    });
    expect(changed.statusCode).toBe(200);
    const void_ = await visit(laterJar, laterUrl);
    expect(void_.statusCode).toBe(400);
    expect(void_.body).toContain('This authorization link is invalid or has expired.');
    const [stored] = await rowsOf(sql`select access_token_enc from platform_accounts where id = ${second.json().id}`);
    expect(stored!.access_token_enc).toBeNull();
  });

  test('a check after the grant is revoked: disconnected with the reason, needs authorization', async () => {
    tiktokUser();
    const { account } = await connect('tiktok');
    expect((await get(account.id)).is_connected).toBe(true);
    const held = (await ctx.app.services.platformAccounts.credentialsFor((await me()).id, account.id))!;
    const revoked = await fetch(`${tiktok.apiUrl}v2/oauth/revoke/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_key: TIKTOK_APP.key, client_secret: TIKTOK_APP.secret, token: held.tokens.accessToken }),
    });
    expect(revoked.status).toBe(200);
    const checked = await call(ctx.app, 'POST', `${base}/${account.id}/test`, { token });
    expect(checked.json()).toMatchObject({ is_connected: false, needs_authorization: true });
    expect(checked.json().detail).toContain('The TikTok authorization has expired, was revoked');
    const pt = await call(ctx.app, 'GET', `${base}/${account.id}`, { token, headers: { 'accept-language': 'pt-BR' } });
    expect(pt.json()).toMatchObject({ is_connected: false, needs_authorization: true });
    expect(pt.json().disconnect_reason).toContain('A autorização do TikTok expirou');
  });

  test('a rate limit during a check leaves the account connected and says to wait', async () => {
    tiktokUser();
    const { account } = await connect('tiktok');
    const infos = () => tiktok.requests.filter((r) => r.path === '/v2/user/info/').length;
    const before = infos();
    tiktok.failNext('/v2/user/info/', 10, { status: 429, code: 'rate_limit_exceeded' });
    try {
      const checked = await call(ctx.app, 'POST', `${base}/${account.id}/test`, { token });
      expect(checked.json()).toMatchObject({ is_connected: true, needs_authorization: false });
      expect(checked.json().detail).toContain('too many requests');
      // A person is waiting: answered at once, no retry and no storm.
      expect(infos() - before).toBe(1);
    } finally {
      tiktok.failNext('/v2/user/info/', 0, { status: 429, code: 'rate_limit_exceeded' });
    }
  }, 60_000);

  test('a token endpoint answering a gateway’s HTML page: the window says so in our words, nothing stored', async () => {
    tiktokUser();
    const account = (await create({ platform: 'tiktok', name: 'Gateway' })).json();
    const jar: Jar = new Map();
    const { callback } = await throughConsent(jar, await authorize(account.id, jar));
    tiktok.answerPageNext('/v2/oauth/token/', 5, 502, UPSTREAM_HTML);
    try {
      const page = await callback({ 'accept-language': 'pt-BR' });
      expect(payloadOf(page.body)).toMatchObject({
        ok: false,
        message: 'Não foi possível falar com o TikTok. Tente de novo daqui a pouco.',
      });
      expectNoUpstreamText(payloadOf(page.body).message);
    } finally {
      tiktok.answerPageNext('/v2/oauth/token/', 0, 502, UPSTREAM_HTML);
    }
    expect(await get(account.id)).toMatchObject({ external_id: null, is_connected: false });
  });

  test('delete revokes the grant at TikTok, then removes the account', async () => {
    tiktokUser();
    const { account } = await connect('tiktok');
    const before = tiktok.requests.filter((r) => r.path === '/v2/oauth/revoke/').length;
    const removed = await call(ctx.app, 'DELETE', `${base}/${account.id}`, { token });
    expect(removed.statusCode).toBe(204);
    expect(tiktok.requests.filter((r) => r.path === '/v2/oauth/revoke/')).toHaveLength(before + 1);
    expect((await call(ctx.app, 'GET', `${base}/${account.id}`, { token })).statusCode).toBe(404);
  });

  test('credentialsFor refreshes a token near its end exactly once under two concurrent callers', async () => {
    tiktokUser();
    const { account } = await connect('tiktok');
    const userId = (await me()).id;
    const soon = new Date(ctx.clock.now.getTime() + 5 * 60_000);
    await ctx.database.db.execute(
      sql`update platform_accounts set access_expires_at = ${soon.toISOString()} where id = ${account.id}`,
    );
    const refreshes = () =>
      tiktok.requests.filter((r) => r.path === '/v2/oauth/token/' && r.body.grant_type === 'refresh_token').length;
    const before = refreshes();
    const [a, b] = await Promise.all([
      ctx.app.services.platformAccounts.credentialsFor(userId, account.id),
      ctx.app.services.platformAccounts.credentialsFor(userId, account.id),
    ]);
    expect(refreshes()).toBe(before + 1);
    expect(a!.tokens.accessToken).toBe(b!.tokens.accessToken);
    expect(a!.tokens.accessExpiresAt!.getTime()).toBeGreaterThan(soon.getTime());
    expect(a).toMatchObject({
      platform: 'tiktok',
      externalId: expect.any(String),
      privateOnly: true,
      app: { clientId: TIKTOK_APP.key },
    });
    // The refreshed token works at TikTok; a switched-off account gives nothing to publish with.
    await call(ctx.app, 'PUT', `${base}/${account.id}/toggle`, { token });
    expect(await ctx.app.services.platformAccounts.credentialsFor(userId, account.id)).toBeUndefined();
  });
});

describe('Instagram authorization', () => {
  test('one Page with a linked account: chosen at once, connected with its profile', async () => {
    const owner = metaUser([{ linked: false }, { linked: true }]);
    const ig = owner.pages[1]!.instagram!;
    const { account, page } = await connect('instagram');
    expect(payloadOf(page.body)).toMatchObject({
      ok: true,
      account_id: account.id,
      message: `Connected to Instagram account @${ig.username}.`,
    });
    expect(await get(account.id)).toMatchObject({
      is_connected: true,
      external_id: ig.id,
      username: ig.username,
      avatar_url: ig.profilePictureUrl,
      choices: null,
      max_duration_sec: 900,
      private_only: false,
    });
    const dialog = meta.requests.find((r) => r.path.endsWith('/dialog/oauth'))!;
    expect(dialog.params).toMatchObject({ client_id: META_APP.id, redirect_uri: REDIRECT.instagram, response_type: 'code' });
  });

  test('several: the choices wait, PUT picks a listed one, an unlisted one is refused', async () => {
    const owner = metaUser([{ linked: true }, { linked: true }]);
    const { account, page } = await connect('instagram');
    expect(payloadOf(page.body)).toMatchObject({ ok: true, message: expect.stringContaining('choose the one to publish to') });
    const waiting = await get(account.id);
    expect(waiting).toMatchObject({ is_connected: false, needs_authorization: false, external_id: null });
    expect(waiting.choices).toEqual(
      owner.pages.map((p) => ({
        external_id: p.instagram!.id,
        username: p.instagram!.username,
        page_name: p.name,
        picture_url: p.instagram!.profilePictureUrl,
      })),
    );
    expect(JSON.stringify(waiting)).not.toMatch(/token/i);
    const wrong = await call(ctx.app, 'PUT', `${base}/${account.id}`, { token, body: { external_id: 'not-listed' } });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ detail: 'Choose one of the Instagram accounts listed for this connection' });
    const second = owner.pages[1]!.instagram!;
    const chosen = await call(ctx.app, 'PUT', `${base}/${account.id}`, { token, body: { external_id: second.id } });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({ is_connected: true, external_id: second.id, username: second.username, choices: null });
  });

  test('no Page with a linked account: the page says what to link, nothing is stored', async () => {
    metaUser([{ linked: false }]);
    const account = (await create({ platform: 'instagram', name: 'None' })).json();
    const jar: Jar = new Map();
    const { callback } = await throughConsent(jar, await authorize(account.id, jar));
    const page = await callback({ 'accept-language': 'pt-BR' });
    expect(payloadOf(page.body)).toMatchObject({
      ok: false,
      message: expect.stringContaining('Vincule uma conta Comercial ou de Criador'),
    });
    expect(page.body).toContain('<html lang="pt-BR">');
    expect(await get(account.id)).toMatchObject({ is_connected: false, external_id: null, needs_authorization: true });
  });

  test('the same Instagram account twice for one user: the second is refused', async () => {
    const owner = metaUser([{ linked: true }]);
    await connect('instagram');
    meta.setConsentUser(owner.id);
    const { account, page } = await connect('instagram');
    expect(payloadOf(page.body)).toMatchObject({
      ok: false,
      message: 'This Instagram account is already connected in another of your entries',
    });
    expect((await get(account.id)).external_id).toBeNull();
  });

  test('a check after the user removed the app: disconnected, needs authorization', async () => {
    const owner = metaUser([{ linked: true }]);
    const { account } = await connect('instagram');
    meta.invalidateUser(owner.id, 458);
    const checked = await call(ctx.app, 'POST', `${base}/${account.id}/test`, { token });
    expect(checked.json()).toMatchObject({ is_connected: false, needs_authorization: true });
    expect(checked.json().detail).toContain('The Instagram authorization has expired, was revoked');
    expect((await get(account.id)).disconnect_reason).toContain('Authorize the account again');
  });

  test('a revocation Meta does not answer does not keep the account', async () => {
    metaUser([{ linked: true }]);
    const { account } = await connect('instagram');
    meta.failNextApiCalls(5, { code: 2, status: 500, message: 'An unexpected error has occurred.' }, 'permissions');
    try {
      const removed = await call(ctx.app, 'DELETE', `${base}/${account.id}`, { token });
      expect(removed.statusCode).toBe(204);
    } finally {
      meta.failNextApiCalls(0, { code: 2 });
    }
    expect((await call(ctx.app, 'GET', `${base}/${account.id}`, { token })).statusCode).toBe(404);
  });

  test('delete revokes the permissions at Meta', async () => {
    metaUser([{ linked: true }]);
    const { account } = await connect('instagram');
    const revocations = () => meta.requests.filter((r) => r.method === 'DELETE' && r.path.endsWith('/me/permissions')).length;
    const before = revocations();
    const removed = await call(ctx.app, 'DELETE', `${base}/${account.id}`, { token });
    expect(removed.statusCode).toBe(204);
    expect(revocations()).toBe(before + 1);
  });
});

async function me(): Promise<{ id: string }> {
  return (await call(ctx.app, 'GET', '/api/v1/auth/me', { token })).json();
}
