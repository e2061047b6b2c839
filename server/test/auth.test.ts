import { sql } from 'drizzle-orm';
import { LOGIN_MAX_FAILURES_PER_EMAIL, RESET_TOKEN_TTL_MINUTES, SESSION_TTL_SECONDS } from '../src/services/auth';
import { TEST_ADMIN_EMAIL, buildTestApp, call, signUp, type TestContext } from './helper';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const register = (body: unknown, headers?: Record<string, string>) =>
  call(ctx.app, 'POST', '/api/v1/auth/register', { body, headers });
const login = (body: unknown, headers?: Record<string, string>) => call(ctx.app, 'POST', '/api/v1/auth/login', { body, headers });

async function userCount(): Promise<number> {
  const result = await ctx.database.db.execute(sql`select count(*)::int as n from users`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

describe('register', () => {
  test('creates the user with the starter plan and answers a working token', async () => {
    const response = await register({
      name: '  Ana  Souza ',
      email: 'Ana@Example.com',
      password: 'secret1',
      plan: 'annual',
      time_zone: 'America/Sao_Paulo',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.token_type).toBe('bearer');
    expect(body.user).toMatchObject({
      name: 'Ana Souza',
      email: 'ana@example.com',
      plan: 'starter',
      plan_name: 'Starter',
      billing_period: 'annual',
      time_zone: 'America/Sao_Paulo',
      is_admin: false,
    });
    expect(body.user).not.toHaveProperty('password_hash');
    expect(JSON.stringify(body)).not.toContain('argon2');
    const me = await call(ctx.app, 'GET', '/api/v1/auth/me', { token: body.access_token });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('ana@example.com');
  });

  test('stores the password as an Argon2id hash, never in plaintext', async () => {
    await register({ name: 'Hash', email: 'hash@example.com', password: 'plain-password' });
    const result = await ctx.database.db.execute(sql`select password_hash from users where email = 'hash@example.com'`);
    const hash = (result as unknown as { rows: { password_hash: string }[] }).rows[0]!.password_hash;
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=4096,t=3,p=1\$/);
    expect(hash).not.toContain('plain-password');
  });

  test('refuses an email already taken, whatever its case, and creates nothing', async () => {
    await register({ name: 'One', email: 'taken@example.com', password: 'secret1' });
    const before = await userCount();
    const response = await register({ name: 'Two', email: 'TAKEN@example.com', password: 'secret1' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: 'An account with this email already exists' });
    expect(await userCount()).toBe(before);
  });

  test.each([
    [{ name: 'A', email: 'short@example.com', password: '12345' }, 422, 'Password must be at least 6 characters'],
    [{ name: '   ', email: 'blank@example.com', password: 'secret1' }, 422, 'Please fill in all fields'],
    [{ name: 'A', email: 'not-an-email', password: 'secret1' }, 422, 'Please enter a valid email address'],
    [
      { name: 'A', email: 'tz@example.com', password: 'secret1', time_zone: 'Mars/Olympus' },
      422,
      'Unknown time zone: Mars/Olympus',
    ],
  ])('refuses %j with %i', async (body, status, detail) => {
    const before = await userCount();
    const response = await register(body);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ detail });
    expect(await userCount()).toBe(before);
  });

  test('a missing field or a wrong plan is a schema violation (400)', async () => {
    const missing = await register({ name: 'A', email: 'missing@example.com' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toMatch(/password/);
    const plan = await register({ name: 'A', email: 'plan@example.com', password: 'secret1', plan: 'weekly' });
    expect(plan.statusCode).toBe(400);
    expect(plan.json().detail).toMatch(/plan/);
  });

  test('answers messages in Portuguese when the caller asks for it', async () => {
    const response = await register(
      { name: 'A', email: 'pt@example.com', password: '123' },
      { 'accept-language': 'pt-BR,pt;q=0.9' },
    );
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: 'A senha deve ter pelo menos 6 caracteres' });
  });
});

describe('login', () => {
  beforeAll(async () => {
    await register({ name: 'Login User', email: 'login@example.com', password: 'right-password' });
  });

  test('signs in with any case of the email', async () => {
    const response = await login({ email: 'LOGIN@example.com', password: 'right-password' });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe('login@example.com');
  });

  test('a wrong password and an unknown email answer the same 401', async () => {
    const wrong = await login({ email: 'login@example.com', password: 'wrong-password' });
    const unknown = await login({ email: 'nobody@example.com', password: 'whatever' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Invalid credentials' });
    expect(unknown.json()).toEqual({ detail: 'Invalid credentials' });
  });

  test('empty fields answer the fill-in-all-fields message', async () => {
    const response = await login({ email: '', password: '' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: 'Please fill in all fields' });
  });

  test('is rate limited per email, with Retry-After, and the limit lifts after the window', async () => {
    await register({ name: 'Limited', email: 'limited@example.com', password: 'right-password' });
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_EMAIL; i++) {
      expect((await login({ email: 'limited@example.com', password: 'nope' })).statusCode).toBe(401);
    }
    const blocked = await login({ email: 'limited@example.com', password: 'right-password' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().detail).toMatch(/Too many sign-in attempts/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await login({ email: 'login@example.com', password: 'right-password' });
    expect(other.statusCode).toBe(200);
    ctx.clock.advance(16 * 60_000);
    expect((await login({ email: 'limited@example.com', password: 'right-password' })).statusCode).toBe(200);
  });

  test('is rate limited per address across emails', async () => {
    const app = await buildTestApp();
    try {
      let last = 0;
      for (let i = 0; i < 21; i++) {
        last = (await call(app.app, 'POST', '/api/v1/auth/login', { body: { email: `spray${i}@example.com`, password: 'x' } }))
          .statusCode;
      }
      expect(last).toBe(429);
    } finally {
      await app.close();
    }
  });
});

describe('sessions', () => {
  test('me without a token, with a forged token and with an expired token answers 401', async () => {
    const { token } = await signUp(ctx.app);
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me')).statusCode).toBe(401);
    const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    const bad = await call(ctx.app, 'GET', '/api/v1/auth/me', { token: forged });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ detail: 'Not authenticated' });
    ctx.clock.advance((SESSION_TTL_SECONDS + 60) * 1000);
    const expired = await call(ctx.app, 'GET', '/api/v1/auth/me', { token });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().detail).toMatch(/expired/);
  });

  test('ADMIN_EMAIL decides who is admin, once its owner confirmed the address', async () => {
    const admin = await signUp(ctx.app, { email: TEST_ADMIN_EMAIL.toUpperCase() });
    expect(admin.user.is_admin).toBe(true);
    const me = await call(ctx.app, 'GET', '/api/v1/auth/me', { token: admin.token });
    expect(me.json()).toMatchObject({ is_admin: true, email_verified: true, is_admin_pending: false });
    const user = await signUp(ctx.app);
    expect(user.user.is_admin).toBe(false);
  });
});

describe('profile', () => {
  test('stores name, email and time zone; a new email needs the password and a new confirmation', async () => {
    const { token } = await signUp(ctx.app);
    const noPassword = await call(ctx.app, 'PUT', '/api/v1/auth/profile', {
      token,
      body: { name: 'New Name', email: 'New.Address@example.com', time_zone: 'Europe/Lisbon' },
    });
    expect(noPassword.statusCode).toBe(422);
    expect(noPassword.json()).toEqual({ detail: 'Enter your current password to change your email address' });
    const response = await call(ctx.app, 'PUT', '/api/v1/auth/profile', {
      token,
      body: { name: 'New Name', email: 'New.Address@example.com', time_zone: 'Europe/Lisbon', current_password: 'secret123' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'New Name',
      email: 'new.address@example.com',
      time_zone: 'Europe/Lisbon',
      email_verified: false,
    });
    const me = await call(ctx.app, 'GET', '/api/v1/auth/me', { token });
    expect(me.json()).toMatchObject({ name: 'New Name', email: 'new.address@example.com' });
    expect((await login({ email: 'new.address@example.com', password: 'secret123' })).statusCode).toBe(200);
    // Only the name or zone: no password needed.
    const rename = await call(ctx.app, 'PUT', '/api/v1/auth/profile', {
      token,
      body: { name: 'Other', email: 'new.address@example.com' },
    });
    expect(rename.statusCode).toBe(200);
  });

  test('refuses a taken email and a blank name, and changes nothing', async () => {
    const first = await signUp(ctx.app, { email: 'first-profile@example.com' });
    const second = await signUp(ctx.app, { name: 'Second' });
    const taken = await call(ctx.app, 'PUT', '/api/v1/auth/profile', {
      token: second.token,
      body: { name: 'Second', email: 'FIRST-profile@example.com', current_password: 'secret123' },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ detail: 'An account with this email already exists' });
    const blank = await call(ctx.app, 'PUT', '/api/v1/auth/profile', {
      token: second.token,
      body: { name: ' ', email: 'x@example.com' },
    });
    expect(blank.statusCode).toBe(422);
    const me = await call(ctx.app, 'GET', '/api/v1/auth/me', { token: first.token });
    expect(me.json().email).toBe('first-profile@example.com');
  });

  test('requires a session', async () => {
    const response = await call(ctx.app, 'PUT', '/api/v1/auth/profile', { body: { name: 'x', email: 'x@example.com' } });
    expect(response.statusCode).toBe(401);
  });
});

describe('password change', () => {
  test('needs the current password, then revokes earlier tokens and answers a new one', async () => {
    const { token, user } = await signUp(ctx.app, { password: 'old-password' });
    const wrong = await call(ctx.app, 'PUT', '/api/v1/auth/password', {
      token,
      body: { current_password: 'not-it', new_password: 'new-password' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ detail: 'The current password is incorrect' });
    const short = await call(ctx.app, 'PUT', '/api/v1/auth/password', {
      token,
      body: { current_password: 'old-password', new_password: '123' },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json()).toEqual({ detail: 'Password must be at least 6 characters' });

    const ok = await call(ctx.app, 'PUT', '/api/v1/auth/password', {
      token,
      body: { current_password: 'old-password', new_password: 'new-password' },
    });
    expect(ok.statusCode).toBe(200);
    const fresh = ok.json().access_token as string;
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token })).statusCode).toBe(401);
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token: fresh })).statusCode).toBe(200);
    expect((await login({ email: user.email, password: 'old-password' })).statusCode).toBe(401);
    expect((await login({ email: user.email, password: 'new-password' })).statusCode).toBe(200);
  });
});

describe('password reset', () => {
  const linkFrom = (text: string) => /http:\/\/console\.test\/reset-password\?token=([\w-]+)/.exec(text)?.[1];

  test('answers the same for known and unknown emails and mails a link only to the known one', async () => {
    const { user } = await signUp(ctx.app, { name: 'Reset Me' });
    ctx.mailer.sent.length = 0;
    const known = await call(ctx.app, 'POST', '/api/v1/auth/reset-password', { body: { email: user.email } });
    const unknown = await call(ctx.app, 'POST', '/api/v1/auth/reset-password', { body: { email: 'ghost@example.com' } });
    await ctx.app.services.drainEmails();
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual(unknown.json());
    expect(ctx.mailer.sent).toHaveLength(1);
    expect(ctx.mailer.sent[0]!.to).toBe(user.email);
    expect(ctx.mailer.sent[0]!.text).toContain('Reset Me');
    expect(linkFrom(ctx.mailer.sent[0]!.text)).toBeTruthy();
  });

  test('an empty email answers the spec message', async () => {
    const response = await call(ctx.app, 'POST', '/api/v1/auth/reset-password', { body: { email: '' } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ detail: 'Please enter your email address' });
  });

  test('the link sets a new password once, revokes sessions, and cannot be reused', async () => {
    const { token, user } = await signUp(ctx.app, { password: 'before-reset' });
    ctx.mailer.sent.length = 0;
    await call(ctx.app, 'POST', '/api/v1/auth/reset-password', {
      body: { email: user.email },
      headers: { 'accept-language': 'pt-BR' },
    });
    await ctx.app.services.drainEmails();
    expect(ctx.mailer.sent[0]!.subject).toBe('Redefina sua senha');
    const resetToken = linkFrom(ctx.mailer.sent[0]!.text)!;
    const short = await call(ctx.app, 'POST', '/api/v1/auth/reset-password/confirm', {
      body: { token: resetToken, new_password: '1' },
    });
    expect(short.statusCode).toBe(422);
    const done = await call(ctx.app, 'POST', '/api/v1/auth/reset-password/confirm', {
      body: { token: resetToken, new_password: 'after-reset' },
    });
    expect(done.statusCode).toBe(200);
    expect((await login({ email: user.email, password: 'after-reset' })).statusCode).toBe(200);
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token })).statusCode).toBe(401);
    const again = await call(ctx.app, 'POST', '/api/v1/auth/reset-password/confirm', {
      body: { token: resetToken, new_password: 'third-one' },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().detail).toMatch(/invalid or has expired/);
  });

  test('an expired link is refused', async () => {
    const { user } = await signUp(ctx.app, { password: 'keep-this' });
    ctx.mailer.sent.length = 0;
    await call(ctx.app, 'POST', '/api/v1/auth/reset-password', { body: { email: user.email } });
    await ctx.app.services.drainEmails();
    const resetToken = linkFrom(ctx.mailer.sent[0]!.text)!;
    ctx.clock.advance((RESET_TOKEN_TTL_MINUTES + 1) * 60_000);
    const late = await call(ctx.app, 'POST', '/api/v1/auth/reset-password/confirm', {
      body: { token: resetToken, new_password: 'too-late' },
    });
    expect(late.statusCode).toBe(422);
    expect((await login({ email: user.email, password: 'keep-this' })).statusCode).toBe(200);
  });
});
