import { eq } from 'drizzle-orm';
import { sessions } from '../src/db/schema';
import { loadConfig } from '../src/config';
import { SESSION_TOUCH_MS, USER_AGENT_MAX_LENGTH } from '../src/services/sessions';
import { buildTestApp, call, signUp, type TestContext } from './helper';

/**
 * Sessions (docs/security.md, "Sessions and passwords"): an idle timeout, the list of signed-in
 * devices in Settings › Security, signing one out and signing out everywhere else.
 */

jest.setTimeout(120_000);

let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp({ SESSION_IDLE_HOURS: '24' });
});

afterAll(async () => {
  await ctx.close();
});

const HOUR = 3_600_000;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface SessionJson {
  id: string;
  created_at: string;
  last_used_at: string;
  user_agent: string;
  ip: string;
  current: boolean;
}

async function signIn(email: string, password: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    headers,
    remoteAddress: headers['x-test-address'] ?? '127.0.0.1',
  });
  expect(response.statusCode).toBe(200);
  return response.json().access_token as string;
}

const me = (token: string) => call(ctx.app, 'GET', '/api/v1/auth/me', { token });
const list = async (token: string) => {
  const response = await call(ctx.app, 'GET', '/api/v1/auth/sessions', { token });
  expect(response.statusCode).toBe(200);
  return (response.json() as { sessions: SessionJson[] }).sessions;
};

describe('the idle timeout', () => {
  test('a session unused for SESSION_IDLE_HOURS answers 401; one in use goes on until its 7 days', async () => {
    const { token, user, password } = await signUp(ctx.app);
    const idle = await signIn(user.email, password);

    // 23 hours apart, three times: the busy session is used each time, the idle one never.
    for (let i = 0; i < 3; i += 1) {
      ctx.clock.advance(23 * HOUR);
      expect((await me(token)).statusCode).toBe(200);
    }
    const expired = await me(idle);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ detail: 'Your session has expired; please sign in again' });
    // Past the 7 days the busy one ends too, however busy.
    for (let i = 0; i < 5; i += 1) {
      ctx.clock.advance(23 * HOUR);
      await me(token);
    }
    expect((await me(token)).statusCode).toBe(401);
  });

  test('the last use is written at most every few minutes, not on every request', async () => {
    const { token } = await signUp(ctx.app);
    const [row] = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, (await me(token)).json().id));
    const opened = row!.lastUsedAt.getTime();
    for (let i = 0; i < 5; i += 1) {
      ctx.clock.advance(30_000);
      expect((await me(token)).statusCode).toBe(200);
    }
    const read = async () =>
      (await ctx.database.db.select().from(sessions).where(eq(sessions.id, row!.id)))[0]!.lastUsedAt.getTime();
    expect(await read()).toBe(opened);

    ctx.clock.advance(SESSION_TOUCH_MS);
    const usedAt = ctx.clock.now.getTime();
    expect((await me(token)).statusCode).toBe(200);
    // Written after the answer: give it a moment.
    for (let tries = 0; tries < 50 && (await read()) === opened; tries += 1) await new Promise((r) => setTimeout(r, 50));
    expect(await read()).toBe(usedAt);
    expect((await list(token))[0]!.last_used_at).toBe(new Date(usedAt).toISOString());
  });

  test('SESSION_IDLE_HOURS is validated: 1 to 168 hours, 72 by default', () => {
    const base = { APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/unused' };
    expect(loadConfig(base).sessionIdleHours).toBe(72);
    expect(loadConfig({ ...base, SESSION_IDLE_HOURS: '12' }).sessionIdleHours).toBe(12);
    for (const bad of ['0', '169', '2.5', 'soon']) {
      expect(() => loadConfig({ ...base, SESSION_IDLE_HOURS: bad })).toThrow(
        /SESSION_IDLE_HOURS must be an integer between 1 and 168/,
      );
    }
  });
});

describe('the list of sessions', () => {
  test('lists the account’s working sessions with device and address, the caller’s marked current', async () => {
    const { token, user, password } = await signUp(ctx.app);
    ctx.clock.advance(60_000);
    const phone = await signIn(user.email, password, { 'user-agent': IPHONE, 'x-test-address': '203.0.113.9' });
    ctx.clock.advance(60_000);
    const laptop = await signIn(user.email, password, { 'user-agent': FIREFOX, 'x-test-address': '2001:db8::17' });
    const gone = await signIn(user.email, password);
    expect((await call(ctx.app, 'POST', '/api/v1/auth/logout', { token: gone })).statusCode).toBe(200);
    const stranger = await signUp(ctx.app);

    const seen = await list(phone);
    expect(seen).toHaveLength(3);
    const byAgent = Object.fromEntries(seen.map((session) => [session.user_agent, session]));
    expect(byAgent[IPHONE]).toMatchObject({ ip: '203.0.113.9', current: true });
    expect(byAgent[FIREFOX]).toMatchObject({ ip: '2001:db8::17', current: false });
    expect(seen.filter((session) => session.current)).toHaveLength(1);
    // The most recently used first.
    expect(seen[0]!.user_agent).toBe(FIREFOX);
    for (const session of seen) {
      expect(Object.keys(session).sort()).toEqual(['created_at', 'current', 'id', 'ip', 'last_used_at', 'user_agent']);
    }
    expect((await list(laptop)).find((session) => session.current)!.user_agent).toBe(FIREFOX);
    // Nobody sees another account's sessions.
    const theirs = await list(stranger.token);
    expect(theirs).toHaveLength(1);
    expect(theirs.map((session) => session.id)).not.toContain(byAgent[IPHONE]!.id);
    expect((await call(ctx.app, 'GET', '/api/v1/auth/sessions')).statusCode).toBe(401);
    expect(token).toBeTruthy();
  });

  test('keeps a short, clean User-Agent: control characters out, 200 characters at most', async () => {
    const { user, password } = await signUp(ctx.app);
    const long = `Evil\u0007Agent\u0085 ${'x'.repeat(5000)}`;
    const token = await signIn(user.email, password, { 'user-agent': long });
    const mine = (await list(token)).find((session) => session.current)!;
    expect(mine.user_agent.startsWith('Evil Agent x')).toBe(true);
    expect(mine.user_agent).toHaveLength(USER_AGENT_MAX_LENGTH);
    expect([...mine.user_agent].every((char) => char >= ' ' && (char < '\u007f' || char > '\u009f'))).toBe(true);
  });
});

describe('signing sessions out', () => {
  test('one session of one’s own: that device answers 401, the others go on', async () => {
    const { token, user, password } = await signUp(ctx.app);
    const other = await signIn(user.email, password, { 'user-agent': FIREFOX });
    const target = (await list(token)).find((session) => session.user_agent === FIREFOX)!;

    const out = await call(ctx.app, 'DELETE', `/api/v1/auth/sessions/${target.id}`, { token });
    expect(out.statusCode).toBe(204);
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(200);
    expect((await list(token)).map((session) => session.id)).not.toContain(target.id);
    // Already ended: 404.
    const again = await call(ctx.app, 'DELETE', `/api/v1/auth/sessions/${target.id}`, { token });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: 'This session does not exist or has already ended' });
  });

  test('another account’s session is 404 and goes on; a malformed id is 400', async () => {
    const mine = await signUp(ctx.app);
    const theirs = await signUp(ctx.app);
    const [their] = await list(theirs.token);
    const refused = await call(ctx.app, 'DELETE', `/api/v1/auth/sessions/${their!.id}`, {
      token: mine.token,
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ detail: 'Esta sessão não existe ou já foi encerrada' });
    expect((await me(theirs.token)).statusCode).toBe(200);
    expect((await call(ctx.app, 'DELETE', '/api/v1/auth/sessions/not-a-uuid', { token: mine.token })).statusCode).toBe(400);
  });

  test('signing out the current session signs this device out', async () => {
    const { token } = await signUp(ctx.app);
    const [current] = await list(token);
    expect((await call(ctx.app, 'DELETE', `/api/v1/auth/sessions/${current!.id}`, { token })).statusCode).toBe(204);
    expect((await me(token)).statusCode).toBe(401);
  });

  test('everywhere else: every other session ends, this one goes on, and the answer counts them', async () => {
    const { token, user, password } = await signUp(ctx.app);
    const others = [await signIn(user.email, password), await signIn(user.email, password)];
    const stranger = await signUp(ctx.app);

    const out = await call(ctx.app, 'POST', '/api/v1/auth/sessions/revoke-others', { token });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ detail: 'Signed out of 2 other sessions.', revoked: 2 });
    for (const other of others) expect((await me(other)).statusCode).toBe(401);
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(stranger.token)).statusCode).toBe(200);
    expect(await list(token)).toHaveLength(1);

    const none = await call(ctx.app, 'POST', '/api/v1/auth/sessions/revoke-others', {
      token,
      headers: { 'accept-language': 'pt' },
    });
    expect(none.json()).toEqual({ detail: 'Não havia outra sessão para encerrar.', revoked: 0 });
  });
});
