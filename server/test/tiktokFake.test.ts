import crypto from 'node:crypto';
import { startFakeTiktok, type FakeTiktok } from '../fakes/tiktok';

/**
 * The fake TikTok itself, spoken to by hand: it must refuse what TikTok refuses (so that a client
 * bug fails a test), answer in TikTok's shapes, and keep its documented limits on its own clock.
 */

const KEY = 'fakekey';
const SECRET = 'fake-secret';
const REDIRECT = 'https://console.example/cb';
const MIB = 2 ** 20;

let fake: FakeTiktok;
let user = 0;

beforeAll(async () => {
  fake = await startFakeTiktok();
  fake.addClient(KEY, SECRET, [REDIRECT]);
});

afterEach(() => {
  fake.setNow(() => new Date());
  fake.setConsent('approve');
  fake.setRotateRefreshTokens(true);
});

afterAll(() => fake.close());

function creator(privateAccount = false) {
  user += 1;
  const openId = `fake-open-${user}`;
  fake.addUser({ openId, displayName: `U${user}`, username: `u${user}`, privateAccount });
  return { openId, ...fake.issueTokens(KEY, openId) };
}

const form = (body: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(body).toString(),
});

async function api(path: string, token: string, body?: unknown) {
  const response = await fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { data: Record<string, unknown>; error: { code: string; log_id: string } },
  };
}

function initBody(size: number, chunk: number, count: number, privacy = 'PUBLIC_TO_EVERYONE') {
  return {
    post_info: { title: 'x', privacy_level: privacy, brand_content_toggle: false, is_aigc: true },
    source_info: { source: 'FILE_UPLOAD', video_size: size, chunk_size: chunk, total_chunk_count: count },
  };
}

async function consentCode(challenge: string): Promise<string> {
  const url = new URL(fake.authUrl);
  for (const [k, v] of Object.entries({
    client_key: KEY,
    response_type: 'code',
    scope: 'user.info.basic,video.publish',
    redirect_uri: REDIRECT,
    state: 'st',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })) {
    url.searchParams.set(k, v);
  }
  const answer = await fetch(url, { redirect: 'manual' });
  return new URL(answer.headers.get('location')!).searchParams.get('code')!;
}

describe('fake TikTok', () => {
  it('takes a code once, only with its verifier and redirect URI', async () => {
    creator();
    const verifier = 'v'.repeat(50);
    const code = await consentCode(crypto.createHash('sha256').update(verifier).digest('hex'));
    const exchange = (extra: Record<string, string>) =>
      fetch(
        `${fake.url}/v2/oauth/token/`,
        form({ client_key: KEY, client_secret: SECRET, grant_type: 'authorization_code', code, ...extra }),
      );
    const wrongUri = await exchange({ redirect_uri: 'https://other.example/cb', code_verifier: verifier });
    expect(await wrongUri.json()).toMatchObject({ error: 'invalid_grant' });
    const ok = await exchange({ redirect_uri: REDIRECT, code_verifier: verifier });
    expect(await ok.json()).toMatchObject({ expires_in: 86_400, refresh_expires_in: 31_536_000, token_type: 'Bearer' });
    const again = await exchange({ redirect_uri: REDIRECT, code_verifier: verifier });
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    const badSecret = await fetch(
      `${fake.url}/v2/oauth/token/`,
      form({ client_key: KEY, client_secret: 'no', grant_type: 'refresh_token', refresh_token: 'x' }),
    );
    expect([badSecret.status, ((await badSecret.json()) as { error: string }).error]).toEqual([401, 'invalid_client']);
  });

  it('keeps the refresh token when rotation is off, and refuses the API to a partial grant', async () => {
    const c = creator();
    fake.setRotateRefreshTokens(false);
    const refreshed = (await (
      await fetch(
        `${fake.url}/v2/oauth/token/`,
        form({ client_key: KEY, client_secret: SECRET, grant_type: 'refresh_token', refresh_token: c.refreshToken }),
      )
    ).json()) as { refresh_token: string };
    expect(refreshed.refresh_token).toBe(c.refreshToken);
    const partial = fake.issueTokens(KEY, c.openId, ['user.info.basic']);
    expect(await api('/v2/post/publish/creator_info/query/', partial.accessToken)).toMatchObject({
      status: 401,
      body: { error: { code: 'scope_not_authorized' } },
    });
  });

  it('refuses inits that break the chunk rules, the title limit or the privacy options', async () => {
    const c = creator();
    const path = '/v2/post/publish/video/init/';
    const cases: Array<[unknown, string]> = [
      [initBody(4 * MIB, 2 * MIB, 2), 'invalid_param'], // under 5 MB must go whole
      [initBody(70_000_000, 70_000_000, 1), 'invalid_param'], // over 64 MB must be chunked
      [initBody(50_000_123, 10_000_000, 6), 'invalid_param'], // count is floor(size / chunk)
      [initBody(20 * MIB, 4 * MIB, 5), 'invalid_param'], // chunks under 5 MB
      [initBody(1000, 1000, 1, 'FOLLOWER_OF_CREATOR'), 'privacy_level_option_mismatch'], // a private account's option
      [
        {
          ...initBody(1000, 1000, 1, 'SELF_ONLY'),
          post_info: { title: 'é'.repeat(2201), privacy_level: 'SELF_ONLY', brand_content_toggle: false },
        },
        'invalid_param',
      ],
      [{ ...initBody(1000, 1000, 1, 'SELF_ONLY'), post_info: { title: 'x', privacy_level: 'SELF_ONLY' } }, 'invalid_param'], // brand_content_toggle required
    ];
    for (const [body, code] of cases) {
      // A token each: the 6-a-minute init limit counts refused inits too.
      expect((await api(path, fake.issueTokens(KEY, c.openId).accessToken, body)).body.error.code).toBe(code);
    }
    expect(fake.inits.filter((i) => i.openId === c.openId)).toHaveLength(0);
  });

  it('takes the bytes in order only, answering 206, 416, 400, 201, and 403 after an hour', async () => {
    const c = creator();
    const size = 11 * MIB;
    const chunk = 5 * MIB;
    const init = await api('/v2/post/publish/video/init/', c.accessToken, initBody(size, chunk, 2));
    const uploadUrl = String(init.body.data.upload_url);
    const put = (first: number, last: number, bytes = last - first + 1) =>
      fetch(uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4', 'content-range': `bytes ${first}-${last}/${size}` },
        body: new Uint8Array(bytes),
      });
    expect((await put(chunk, size - 1)).status).toBe(416);
    expect((await put(0, chunk - 2)).status).toBe(400);
    const first = await put(0, chunk - 1);
    expect([first.status, first.headers.get('content-range')]).toEqual([206, `bytes 0-${chunk - 1}/${size}`]);
    const status = await api('/v2/post/publish/status/fetch/', c.accessToken, { publish_id: init.body.data.publish_id });
    expect(status.body.data).toMatchObject({ status: 'PROCESSING_UPLOAD', uploaded_bytes: chunk });
    fake.setNow(() => new Date(Date.now() + 60 * 60_000 + 1));
    expect((await put(chunk, size - 1)).status).toBe(403);
    fake.setNow(() => new Date());
    expect((await put(chunk, size - 1)).status).toBe(201);
    expect((await fetch(`${fake.url}/upload/?upload_id=nope&upload_token=x`, { method: 'PUT', body: 'x' })).status).toBe(404);
    expect(await api('/v2/post/publish/status/fetch/', c.accessToken, { publish_id: 'v_pub_file~nope' })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_publish_id' } },
    });
  });

  it('limits creator_info to 20 a minute per token, with a 429 envelope', async () => {
    const c = creator();
    for (let i = 0; i < 20; i += 1) expect((await api('/v2/post/publish/creator_info/query/', c.accessToken)).status).toBe(200);
    const limited = await api('/v2/post/publish/creator_info/query/', c.accessToken);
    expect(limited).toMatchObject({ status: 429, body: { data: {}, error: { code: 'rate_limit_exceeded' } } });
    expect(limited.body.error.log_id).toMatch(/^[0-9A-F]{24}$/);
    fake.setNow(() => new Date(Date.now() + 61_000));
    expect((await api('/v2/post/publish/creator_info/query/', c.accessToken)).status).toBe(200);
  });
});

describe('fake TikTok, lenient (for clicking through by hand)', () => {
  it('takes any client key and redirect URI, remembers the secret, and consents as its user', async () => {
    const lenient = await startFakeTiktok({ lenient: { user: { openId: 'hand-1', displayName: 'À mão', username: 'amao' } } });
    try {
      const verifier = 'w'.repeat(43);
      const url = new URL(lenient.authUrl);
      url.search = new URLSearchParams({
        client_key: 'anykey',
        response_type: 'code',
        scope: 'user.info.basic,video.publish',
        redirect_uri: 'http://localhost:3000/cb',
        state: 's',
        code_challenge: crypto.createHash('sha256').update(verifier).digest('hex'),
        code_challenge_method: 'S256',
      }).toString();
      const consent = await fetch(url, { redirect: 'manual' });
      const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
      const token = (body: Record<string, string>) => fetch(`${lenient.url}/v2/oauth/token/`, form(body));
      const tokens = (await (
        await token({
          client_key: 'anykey',
          client_secret: 'first',
          grant_type: 'authorization_code',
          code,
          redirect_uri: 'http://localhost:3000/cb',
          code_verifier: verifier,
        })
      ).json()) as { open_id: string; refresh_token: string };
      expect(tokens.open_id).toBe('hand-1');
      const wrong = await token({
        client_key: 'anykey',
        client_secret: 'second',
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
      });
      expect(((await wrong.json()) as { error: string }).error).toBe('invalid_client');
    } finally {
      await lenient.close();
    }
  });
});
