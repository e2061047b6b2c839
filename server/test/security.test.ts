import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { users } from '../src/db/schema';
import { isBlockedAddress } from '../src/lib/egress';
import { DEFAULT_HASH_COST, hashPassword, needsRehash, verifyPassword } from '../src/lib/passwords';
import { redactText, redactUrl } from '../src/lib/redact';
import { createChatModelClient } from '../src/providers/chatModel';
import { memoryMailer } from '../src/providers/mailer';
import { LOGIN_MAX_FAILURES_PER_EMAIL, VERIFY_TOKEN_TTL_HOURS } from '../src/services/auth';
import { TEST_ADMIN_EMAIL, buildTestApp, call, freshDatabase, signUp, type TestContext } from './helper';

/**
 * What the console promises on a public address (docs/security.md), tried as an attacker would:
 * who is admin, sessions, limits that hold, server-side requests, headers and logs.
 */

let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp();
});

afterAll(async () => {
  await ctx.close();
});

/** The link of the last email sent to `to`, and its token. */
async function linkFor(context: TestContext, to: string, path: '/verify-email' | '/reset-password') {
  await context.app.services.drainEmails();
  const mail = [...context.mailer.sent].reverse().find((sent) => sent.to.toLowerCase() === to.toLowerCase());
  const match = mail ? new RegExp(`http://console\\.test${path}\\?token=([\\w-]+)`).exec(mail.text) : null;
  return match?.[1];
}

const verify = (token: string, app = ctx.app) => call(app, 'POST', '/api/v1/auth/verify-email', { body: { token } });

describe('email confirmation and who is admin', () => {
  test('sign-up sends a one-time link valid 24 hours; /me says whether the address is confirmed', async () => {
    const { token, user } = await signUp(ctx.app, { verified: false, name: 'Ana' });
    expect(user).toMatchObject({ email_verified: false, is_admin: false, is_admin_pending: false });
    const link = await linkFor(ctx, user.email, '/verify-email');
    expect(link).toBeTruthy();
    const mail = ctx.mailer.sent.find((sent) => sent.to === user.email)!;
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.text).toContain(`${VERIFY_TOKEN_TTL_HOURS} hours`);

    expect((await verify('not-a-real-token')).statusCode).toBe(422);
    const ok = await verify(link!);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ detail: 'Your email address is confirmed.' });
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token })).json()).toMatchObject({ email_verified: true });
    const again = await verify(link!);
    expect(again.statusCode).toBe(422);
    expect(again.json().detail).toMatch(/invalid, was already used or has expired/);
  });

  test('an expired link is refused, and so is one sent to an address the account no longer has', async () => {
    const late = await signUp(ctx.app, { verified: false });
    const lateLink = await linkFor(ctx, late.user.email, '/verify-email');
    ctx.clock.advance((VERIFY_TOKEN_TTL_HOURS * 3600 + 60) * 1000);
    expect((await verify(lateLink!)).statusCode).toBe(422);

    const moved = await signUp(ctx.app, { verified: false, password: 'secret123' });
    const oldLink = await linkFor(ctx, moved.user.email, '/verify-email');
    const changed = await call(ctx.app, 'PUT', '/api/v1/auth/profile', {
      token: moved.token,
      body: { name: 'Moved', email: `moved-${moved.user.id.slice(0, 8)}@example.com`, current_password: 'secret123' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await verify(oldLink!)).statusCode).toBe(422);
    const newLink = await linkFor(ctx, changed.json().email, '/verify-email');
    expect((await verify(newLink!)).statusCode).toBe(200);
  });

  test('the ADMIN_EMAIL address is an ordinary user until its owner confirms it', async () => {
    const app = await buildTestApp({ ADMIN_EMAIL: 'boss@example.com' });
    try {
      const squatter = await signUp(app.app, { email: 'boss@example.com', verified: false });
      expect(squatter.user).toMatchObject({ is_admin: false, is_admin_pending: true, email_verified: false });
      const denied = await call(app.app, 'POST', '/api/v1/proxies/', {
        token: squatter.token,
        body: { name: 'x', url: 'http://proxy.example.com:8080' },
      });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ detail: 'Only administrators can do this' });
      // Whoever reads the mailbox and knows the account's password confirms it (adminConfirm.test.ts), and only then is admin.
      const link = (await linkFor(app, 'boss@example.com', '/verify-email'))!;
      expect((await verify(link, app.app)).statusCode).toBe(422);
      const confirmed = await call(app.app, 'POST', '/api/v1/auth/verify-email', {
        body: { token: link, password: squatter.password },
      });
      expect(confirmed.statusCode).toBe(200);
      expect((await call(app.app, 'GET', '/api/v1/auth/me', { token: squatter.token })).json()).toMatchObject({
        is_admin: true,
        is_admin_pending: false,
      });
    } finally {
      await app.close();
    }
  });

  test('an admin address set free (the admin moved to another address) is not admin for the next taker until confirmed', async () => {
    const app = await buildTestApp({ ADMIN_EMAIL: 'chief@example.com' });
    try {
      const chief = await signUp(app.app, { email: 'chief@example.com', password: 'secret123' });
      expect(chief.user.is_admin).toBe(true);
      const moved = await call(app.app, 'PUT', '/api/v1/auth/profile', {
        token: chief.token,
        body: { name: 'Chief', email: 'chief-private@example.com', current_password: 'secret123' },
      });
      expect(moved.json()).toMatchObject({ is_admin: false });
      const next = await signUp(app.app, { email: 'chief@example.com', verified: false });
      expect(next.user).toMatchObject({ is_admin: false, is_admin_pending: true });
      // The address is the new taker's now.
      const back = await call(app.app, 'PUT', '/api/v1/auth/profile', {
        token: chief.token,
        body: { name: 'Chief', email: 'Chief@Example.com', current_password: 'secret123' },
      });
      expect(back.statusCode).toBe(409);
    } finally {
      await app.close();
    }
  });

  test('the link can be sent again, but not more than once a minute', async () => {
    const { token, user } = await signUp(ctx.app, { verified: false });
    await ctx.app.services.drainEmails();
    const soon = await call(ctx.app, 'POST', '/api/v1/auth/verify-email/resend', { token });
    expect(soon.statusCode).toBe(429);
    expect(soon.headers['retry-after']).toBeDefined();
    ctx.clock.advance(61_000);
    const later = await call(ctx.app, 'POST', '/api/v1/auth/verify-email/resend', {
      token,
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(later.statusCode).toBe(202);
    expect(later.json()).toEqual({ detail: `Enviamos um link de confirmação para ${user.email}.` });
    await ctx.app.services.drainEmails();
    expect(ctx.mailer.sent.filter((sent) => sent.to === user.email)).toHaveLength(2);
    const confirmed = await signUp(ctx.app);
    const already = await call(ctx.app, 'POST', '/api/v1/auth/verify-email/resend', { token: confirmed.token });
    expect(already.statusCode).toBe(409);
  });
});

describe('sessions', () => {
  test('signing out ends this session on the server; other sessions go on', async () => {
    const { token, user, password } = await signUp(ctx.app);
    const other = (await call(ctx.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password } })).json()
      .access_token;
    const out = await call(ctx.app, 'POST', '/api/v1/auth/logout', { token });
    expect(out.statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token })).statusCode).toBe(401);
    expect((await call(ctx.app, 'POST', '/api/v1/auth/logout', { token })).statusCode).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token: other })).statusCode).toBe(200);
  });

  test('changing the email needs the current password and ends the other sessions, not this one', async () => {
    const { token, user, password } = await signUp(ctx.app);
    const other = (await call(ctx.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password } })).json()
      .access_token;
    const wrong = await call(ctx.app, 'PUT', '/api/v1/auth/profile', {
      token,
      body: { name: 'N', email: 'elsewhere@example.com', current_password: 'wrong-one' },
    });
    expect(wrong.statusCode).toBe(422);
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token: other })).statusCode).toBe(200);
    const changed = await call(ctx.app, 'PUT', '/api/v1/auth/profile', {
      token,
      body: { name: 'N', email: `elsewhere-${user.id.slice(0, 8)}@example.com`, current_password: password },
    });
    expect(changed.statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token: other })).statusCode).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token })).statusCode).toBe(200);
  });

  test('a token of an old kind (no session) or for a made-up session is refused', async () => {
    const { token } = await signUp(ctx.app);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    const reforged = Buffer.from(JSON.stringify({ ...claims, sid: '00000000-0000-4000-8000-000000000000' })).toString(
      'base64url',
    );
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token: `${header}.${reforged}.${signature}` })).statusCode).toBe(401);
  });
});

/** A scrypt hash as this product stored them before Argon2id (N = 2^cost, r = 8, p = 1). */
function legacyScryptHash(password: string, cost: number): string {
  const n = 2 ** cost;
  const salt = crypto.randomBytes(16);
  const hash = crypto.scryptSync(password.normalize('NFKC'), salt, 64, {
    N: n,
    r: 8,
    p: 1,
    maxmem: 128 * n * 8 + 16 * 1024 * 1024,
  });
  return ['scrypt', n, 8, 1, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

describe('passwords', () => {
  test('new hashes are Argon2id over 128 MiB, 3 passes, by default; the setting cannot go below 17', async () => {
    expect(DEFAULT_HASH_COST).toBe(17);
    expect(loadConfig({ APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/unused-config-dir' }).passwordHashCost).toBe(17);
    expect(() =>
      loadConfig({ APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/unused-config-dir', PASSWORD_HASH_COST: '15' }),
    ).toThrow(/PASSWORD_HASH_COST/);
    const strong = await hashPassword('correct horse');
    expect(strong).toMatch(/^\$argon2id\$v=19\$m=131072,t=3,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(needsRehash(strong)).toBe(false);
    expect(await verifyPassword('correct horse', strong)).toBe(true);
    expect(await verifyPassword('correct horsf', strong)).toBe(false);
    // The same password gets a new salt each time.
    expect(await hashPassword('correct horse')).not.toBe(strong);
  }, 60_000);

  test('a password is compared in NFKC, as it was with scrypt', async () => {
    const stored = await hashPassword('ﬁsh', 12);
    expect(await verifyPassword('fish', stored)).toBe(true);
    expect(await verifyPassword('fish', legacyScryptHash('ﬁsh', 12))).toBe(true);
  });

  test('stored hashes that are tampered with, or ask for absurd work, are refused without being computed', async () => {
    const stored = await hashPassword('secret', 12);
    const [, , version, , salt, hash] = stored.split('$');
    const variants = [
      `$argon2id$${version}$m=4194304,t=3,p=1$${salt}$${hash}`, // 4 GiB
      `$argon2id$${version}$m=4096,t=1000,p=1$${salt}$${hash}`,
      `$argon2id$${version}$m=4096,t=3,p=64$${salt}$${hash}`,
      `$argon2id$${version}$m=512,t=3,p=1$${salt}$${hash}`,
      `$argon2i$${version}$m=4096,t=3,p=1$${salt}$${hash}`,
      `$argon2id$v=16$m=4096,t=3,p=1$${salt}$${hash}`,
      `$argon2id$${version}$m=4096,t=3,p=1$${salt}$`,
      `$argon2id$${version}$m=4096,t=3,p=1$${salt}$${hash}$extra`,
      'scrypt$1073741824$8$1$c2FsdA$aGFzaA',
      'scrypt$131072$8$1$c2FsdA$',
      '',
      'secret',
    ];
    for (const variant of variants) {
      const started = performance.now();
      expect(await verifyPassword('secret', variant)).toBe(false);
      expect(needsRehash(variant)).toBe(true);
      expect(performance.now() - started).toBeLessThan(5_000);
    }
    // A hash whose stored value was changed does not verify.
    // (The character changed is the second-to-last: always made different from what it was.)
    const flipped = stored.slice(0, -2) + (stored.at(-2) === 'A' ? 'B' : 'A') + stored.slice(-1);
    expect(await verifyPassword('secret', flipped)).toBe(false);
  });

  test('a scrypt hash from before Argon2id signs in, and is made again as Argon2id; so is a hash with less memory', async () => {
    const app = await buildTestApp({}, { passwordHashCost: 17 });
    try {
      const { user } = await signUp(app.app, { password: 'old-password' });
      for (const old of [legacyScryptHash('old-password', 17), await hashPassword('old-password', 15)]) {
        expect(needsRehash(old)).toBe(true);
        await app.database.db.update(users).set({ passwordHash: old }).where(eq(users.id, user.id));
        const wrong = await call(app.app, 'POST', '/api/v1/auth/login', {
          body: { email: user.email, password: 'old-passwore' },
        });
        expect(wrong.statusCode).toBe(401);
        const [kept] = await app.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
        expect(kept!.hash).toBe(old);
        const signedIn = await call(app.app, 'POST', '/api/v1/auth/login', {
          body: { email: user.email, password: 'old-password' },
        });
        expect(signedIn.statusCode).toBe(200);
        const [row] = await app.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id));
        expect(row!.hash).toMatch(/^\$argon2id\$v=19\$m=131072,t=3,p=1\$/);
        expect(await verifyPassword('old-password', row!.hash)).toBe(true);
      }
    } finally {
      await app.close();
    }
  }, 120_000);
});

describe('limits that hold', () => {
  test('20 parallel wrong passwords for one account: 5 are checked, the rest answer 429', async () => {
    const { user } = await signUp(ctx.app);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(ctx.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: 'guess' } }),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 401)).toHaveLength(LOGIN_MAX_FAILURES_PER_EMAIL);
    expect(codes.filter((code) => code === 429)).toHaveLength(20 - LOGIN_MAX_FAILURES_PER_EMAIL);
    expect(answers.find((answer) => answer.statusCode === 429)!.json().detail).toMatch(/Too many sign-in attempts/);
  });

  test('sign-up and reset are limited per client address, with a 429 that says when to try again', async () => {
    const app = await buildTestApp({ AUTH_RATE_LIMIT_PER_HOUR: '2' });
    try {
      const register = (n: number, headers: Record<string, string> = {}) =>
        call(app.app, 'POST', '/api/v1/auth/register', {
          body: { name: `N${n}`, email: `limit-${n}@example.com`, password: 'secret123' },
          headers,
        });
      expect((await register(1)).statusCode).toBe(201);
      expect((await register(2)).statusCode).toBe(201);
      const third = await register(3, { 'accept-language': 'pt-BR' });
      expect(third.statusCode).toBe(429);
      expect(third.json().detail).toMatch(/^Muitas solicitações\. Tente novamente em \d+ minutos\.$/);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      // X-Forwarded-For is not believed without TRUST_PROXY: a made-up address changes nothing.
      expect((await register(4, { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(429);
      // The reset link, per address and per email (so nobody can flood a mailbox).
      const reset = () => call(app.app, 'POST', '/api/v1/auth/reset-password', { body: { email: 'limit-1@example.com' } });
      expect((await reset()).statusCode).toBe(202);
      expect((await reset()).statusCode).toBe(202);
      expect((await reset()).statusCode).toBe(429);
    } finally {
      await app.close();
    }
  });

  test('behind a reverse proxy named by TRUST_PROXY, the limit counts clients, not the proxy', async () => {
    const app = await buildTestApp({ AUTH_RATE_LIMIT_PER_HOUR: '1', TRUST_PROXY: '1' });
    try {
      const register = (n: number, client: string) =>
        call(app.app, 'POST', '/api/v1/auth/register', {
          body: { name: `P${n}`, email: `proxied-${n}@example.com`, password: 'secret123' },
          headers: { 'x-forwarded-for': client },
        });
      expect((await register(1, '198.51.100.1')).statusCode).toBe(201);
      expect((await register(2, '198.51.100.2')).statusCode).toBe(201);
      expect((await register(3, '198.51.100.1')).statusCode).toBe(429);
    } finally {
      await app.close();
    }
    expect(() => loadConfig({ APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/unused-config-dir', TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY/,
    );
    expect(
      loadConfig({ APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/unused-config-dir', TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' })
        .trustProxy,
    ).toEqual(['10.0.0.1', '192.168.0.0/16']);
  });

  test('connection tests are limited per account and address', async () => {
    const fake = await startFakeOpenAI({ apiKeys: ['sk-test-limit-0123456789'] });
    const app = await buildTestApp({ TEST_RATE_LIMIT_PER_HOUR: '2', OPENAI_BASE_URL: fake.url });
    try {
      const { token } = await signUp(app.app);
      const test = () => call(app.app, 'POST', '/api/v1/chatgpt/test', { token, body: { api_key: 'sk-test-limit-0123456789' } });
      expect((await test()).statusCode).toBe(200);
      expect((await test()).statusCode).toBe(200);
      expect((await test()).statusCode).toBe(429);
      expect(fake.requests).toHaveLength(2);
    } finally {
      await app.close();
      await fake.close();
    }
  });

  test('a ceiling per client address on the whole API (API_RATE_LIMIT_PER_MINUTE)', async () => {
    const app = await buildTestApp({ API_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i += 1) codes.push((await call(app.app, 'GET', '/api/v1/health')).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
      const last = await call(app.app, 'GET', '/api/v1/health');
      expect(typeof last.json().detail).toBe('string');
    } finally {
      await app.close();
    }
  });

  test('a reset answers the same, at once, whether the account exists or not: the email goes out from the queue', async () => {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = { ...memoryMailer(), send: () => held };
    const database = await freshDatabase();
    const config = loadConfig({
      APP_SECRET: 'y'.repeat(40),
      DATA_DIR: '/tmp/unused-config-dir',
      LOG_LEVEL: 'silent',
      WEB_DIR: '/nonexistent',
    });
    const app = await buildApp({ config, database, mailer: slow, logger: false, passwordHashCost: 12 });
    try {
      await call(app, 'POST', '/api/v1/auth/register', {
        body: { name: 'R', email: 'reset-me@example.com', password: 'secret123' },
      });
      const known = await call(app, 'POST', '/api/v1/auth/reset-password', { body: { email: 'reset-me@example.com' } });
      const unknown = await call(app, 'POST', '/api/v1/auth/reset-password', { body: { email: 'nobody@example.com' } });
      // Both answered while the mailer was still holding the email.
      expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
      expect(known.body).toBe(unknown.body);
    } finally {
      release();
      await app.close();
      await database.close();
    }
  });
});

describe('no server-side requests to private addresses', () => {
  let fake: FakeOpenAI;
  let app: TestContext;
  let token: string;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKeys: ['sk-test-ssrf-0123456789'] });
    app = await buildTestApp({ ALLOW_PRIVATE_URLS: 'false' });
    token = (await signUp(app.app)).token;
  });

  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  const port = () => new URL(fake.url).port;

  test.each([
    ['127.0.0.1', (p: string) => `http://127.0.0.1:${p}/v1`],
    ['localhost', (p: string) => `http://localhost:${p}/v1`],
    ['2130706433', (p: string) => `http://2130706433:${p}/v1`],
    ['0x7f.0.0.1', (p: string) => `http://0x7f.0.0.1:${p}/v1`],
    ['127.1', (p: string) => `http://127.1:${p}/v1`],
    ['[::1]', (p: string) => `http://[::1]:${p}/v1`],
    ['[::ffff:127.0.0.1]', (p: string) => `http://[::ffff:127.0.0.1]:${p}/v1`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data'],
    ['a private network', () => 'http://10.1.2.3/v1'],
  ])('a chat-model base URL at %s is refused before any byte is sent', async (_name, url) => {
    const before = fake.requests.length;
    const response = await call(app.app, 'POST', '/api/v1/chatgpt/test', {
      token,
      body: { api_key: 'sk-test-ssrf-0123456789', base_url: url(port()) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ is_connected: false });
    expect(response.json().detail).toMatch(/this address is not allowed/);
    expect(fake.requests.length).toBe(before);
  });

  test('with ALLOW_PRIVATE_URLS=true an operator may use a local model server', async () => {
    const open = await buildTestApp({ ALLOW_PRIVATE_URLS: 'true' });
    try {
      const { token: own } = await signUp(open.app);
      const response = await call(open.app, 'POST', '/api/v1/chatgpt/test', {
        token: own,
        body: { api_key: 'sk-test-ssrf-0123456789', base_url: fake.url },
      });
      expect(response.json()).toMatchObject({ is_connected: true });
    } finally {
      await open.close();
    }
  });

  test('the operator’s own OPENAI_BASE_URL is trusted as it is', async () => {
    const operator = await buildTestApp({ ALLOW_PRIVATE_URLS: 'false', OPENAI_BASE_URL: fake.url });
    try {
      const { token: own } = await signUp(operator.app);
      const response = await call(operator.app, 'POST', '/api/v1/chatgpt/test', {
        token: own,
        body: { api_key: 'sk-test-ssrf-0123456789' },
      });
      expect(response.json()).toMatchObject({ is_connected: true });
    } finally {
      await operator.close();
    }
  });

  test('a proxy on a private address is refused by its test', async () => {
    const admin = await buildTestApp({ ALLOW_PRIVATE_URLS: 'false' });
    try {
      const { token: adminToken } = await signUp(admin.app, { email: TEST_ADMIN_EMAIL });
      const created = await call(admin.app, 'POST', '/api/v1/proxies/', {
        token: adminToken,
        body: { name: 'Inside', url: `http://127.0.0.1:${port()}` },
      });
      expect(created.statusCode).toBe(201);
      const tested = await call(admin.app, 'POST', `/api/v1/proxies/${created.json().id}/test`, { token: adminToken });
      expect(tested.json()).toMatchObject({ is_connected: false });
      expect(tested.json().detail).toMatch(/this address is not allowed/);
    } finally {
      await admin.close();
    }
  });

  test('the blocked ranges: loopback, private, link-local, unspecified, multicast, and IPv4 inside IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '100.64.0.1',
      '::',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
    ])
      expect([address, isBlockedAddress(address)]).toEqual([address, true]);
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect([address, isBlockedAddress(address)]).toEqual([address, false]);
  });
});

describe('headers, logs, secrets', () => {
  test('every answer carries a Content-Security-Policy, no framing, nosniff and no referrer', async () => {
    const response = await call(ctx.app, 'GET', '/api/v1/health');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    // Every sample URL the voices API accepts (http or https) is one the browser may play.
    expect(csp).toContain("media-src 'self' blob: https: http:");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  test('the OAuth callback page runs only its own script, by hash', async () => {
    const response = await call(ctx.app, 'GET', '/api/v1/youtube-auth/callback?state=bad&code=x');
    expect(response.statusCode).toBe(200);
    const csp = String(response.headers['content-security-policy']);
    const script = /<script>([\s\S]*?)<\/script>/.exec(response.body)![1]!;
    const hash = crypto.createHash('sha256').update(script).digest('base64');
    expect(csp).toContain(`script-src 'sha256-${hash}'`);
    expect(csp).toContain("default-src 'none'");
  });

  test('tokens, OAuth codes, media signatures and passwords in URLs never reach the log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const database = await freshDatabase();
    const config = loadConfig({
      APP_SECRET: 'z'.repeat(40),
      DATA_DIR: '/tmp/unused-config-dir',
      LOG_LEVEL: 'info',
      WEB_DIR: '/nonexistent',
    });
    const app = await buildApp({ config, database, mailer: memoryMailer(), logger: false, passwordHashCost: 12 });
    // The same serializers as the server's, on a stream this test reads.
    const logged = await buildApp({
      config,
      database,
      mailer: memoryMailer(),
      passwordHashCost: 12,
      logger: { level: 'info', stream },
    });
    try {
      for (const url of [
        '/api/v1/youtube-auth/callback?state=STATE-SECRET&code=CODE-SECRET',
        '/api/v1/media/00000000-0000-4000-8000-000000000000/video.mp4?expires=1&signature=SIGNATURE-SECRET',
        '/verify-email?token=TOKEN-SECRET',
      ])
        await logged.inject({ url });
      const text = lines.join('');
      expect(text).toContain('incoming request');
      for (const secret of ['STATE-SECRET', 'CODE-SECRET', 'SIGNATURE-SECRET', 'TOKEN-SECRET'])
        expect(text).not.toContain(secret);
      expect(text).toContain('[redacted]');
    } finally {
      await app.close();
      await logged.close();
      await database.close();
    }
    expect(redactUrl('postgres://app:hunter2@db.internal:5432/app')).toBe('postgres://app:[redacted]@db.internal:5432/app');
    expect(redactText('could not connect to postgres://app:hunter2@db:5432/app?sslmode=require')).not.toContain('hunter2');
    expect(() =>
      loadConfig({ APP_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/unused-config-dir', DATABASE_URL: 'mysql://u:hunter2@h/db' }),
    ).toThrow(expect.not.objectContaining({ message: expect.stringContaining('hunter2') }));
  });

  test('a secret sealed under another APP_SECRET reads "enter it again" on its own record; the list still answers', async () => {
    const database = await freshDatabase();
    const base = { DATA_DIR: '/tmp/unused-config-dir', LOG_LEVEL: 'silent', WEB_DIR: '/nonexistent', ALLOW_PRIVATE_URLS: 'true' };
    const before = await buildApp({
      config: loadConfig({ ...base, APP_SECRET: 'first-secret-first-secret-first-secret' }),
      database,
      mailer: memoryMailer(),
      logger: false,
      passwordHashCost: 12,
    });
    const registered = await call(before, 'POST', '/api/v1/auth/register', {
      body: { name: 'S', email: 'secrets@example.com', password: 'secret123' },
    });
    const token = registered.json().access_token;
    await call(before, 'POST', '/api/v1/chatgpt/config', { token, body: { api_key: 'sk-test-0123456789abcdef' } });
    await call(before, 'POST', '/api/v1/youtube-apis/', {
      token,
      body: {
        name: 'Main',
        channel_id: 'UC0123456789abcdefghijkl',
        client_id: 'id.apps.googleusercontent.com',
        client_secret: 'client-secret',
      },
    });
    await before.close();
    const after = await buildApp({
      config: loadConfig({ ...base, APP_SECRET: 'second-secret-second-secret-second' }),
      database,
      mailer: memoryMailer(),
      logger: false,
      passwordHashCost: 12,
    });
    try {
      const login = await call(after, 'POST', '/api/v1/auth/login', {
        body: { email: 'secrets@example.com', password: 'secret123' },
      });
      const fresh = login.json().access_token;
      const list = await call(after, 'GET', '/api/v1/youtube-apis/', { token: fresh });
      expect(list.statusCode).toBe(200);
      expect(list.json().youtube_apis[0]).toMatchObject({ secret_unreadable: true, has_client_secret: false });
      const chat = await call(after, 'GET', '/api/v1/chatgpt/config', { token: fresh });
      expect(chat.json()).toMatchObject({ has_api_key: false, secret_unreadable: true });
    } finally {
      await after.close();
      await database.close();
    }
  });

  test('every chat call is bounded: max_tokens is always sent', async () => {
    const fake = await startFakeOpenAI({ apiKeys: ['sk-test-bound-0123456789'] });
    try {
      await createChatModelClient({ apiKey: 'sk-test-bound-0123456789', baseUrl: fake.url, model: 'gpt-4o-mini' }).complete({
        messages: [{ role: 'user', content: 'hi' }],
      });
      const body = fake.requests.find((request) => request.path === '/v1/chat/completions')!.body as { max_tokens?: number };
      expect(body.max_tokens).toBeGreaterThan(0);
    } finally {
      await fake.close();
    }
  });
});
