import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { HashQueueFull, MAX_CONCURRENT_HASHES, inHashTurn } from '../src/lib/passwords';
import { isCommonPassword } from '../src/lib/commonPasswords';
import {
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_EMAIL,
  LOGIN_SLOW_AFTER_FAILURES_PER_EMAIL,
  LOGIN_SLOWDOWN_STEP_MS,
} from '../src/services/auth';
import { REAUTH_MAX_FAILURES } from '../src/services/reauthentication';
import { buildTestApp, call, signUp, type TestContext } from './helper';

/** A request from another client address (loopback has the whole 127/8; IPv6 addresses work too). */
function from(
  app: FastifyInstance,
  remoteAddress: string,
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
) {
  return app.inject({
    method,
    url,
    remoteAddress,
    payload: options.body as InjectOptions['payload'],
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
  });
}

const signIn = (app: FastifyInstance, address: string, email: string, password: string) =>
  from(app, address, 'POST', '/api/v1/auth/login', { body: { email, password } });

/** Asks for a reset link and answers the token the email carries. */
async function resetToken(ctx: TestContext, email: string): Promise<string> {
  ctx.mailer.sent.length = 0;
  await call(ctx.app, 'POST', '/api/v1/auth/reset-password', { body: { email } });
  await ctx.app.services.drainEmails();
  const token = /reset-password\?token=([\w-]+)/.exec(ctx.mailer.sent.at(-1)?.text ?? '')?.[1];
  if (!token) throw new Error('no reset link was sent');
  return token;
}

describe('the hash queue', () => {
  test('runs two hashes at once, lets a bounded number wait and refuses the rest at once with a retry time', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    let most = 0;
    const work = async () => {
      running += 1;
      most = Math.max(most, running);
      await gate;
      running -= 1;
      return 'done';
    };
    const admitted = Array.from({ length: MAX_CONCURRENT_HASHES + 3 }, () => inHashTurn(work, { maxWaiting: 3 }));
    const refused = await inHashTurn(work, { maxWaiting: 3 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HashQueueFull);
    expect((refused as HashQueueFull).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    release();
    expect(await Promise.all(admitted)).toEqual(Array(MAX_CONCURRENT_HASHES + 3).fill('done'));
    expect(most).toBe(MAX_CONCURRENT_HASHES);
    // Drained: a new hash runs at once.
    expect(await inHashTurn(async () => 'again', { maxWaiting: 0 })).toBe('again');
  });

  test('a full queue answers 503 with Retry-After and a translated detail, and the refused sign-in is not counted', async () => {
    const ctx = await buildTestApp({ PASSWORD_HASH_QUEUE: '1' });
    try {
      const { user, password } = await signUp(ctx.app);
      // Signed up before the queue is held (a sign-up hashes too).
      const other = await signUp(ctx.app);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      // Both turns taken and the one waiting place filled.
      const held = Array.from({ length: MAX_CONCURRENT_HASHES + 1 }, () => inHashTurn(() => gate));
      try {
        for (let i = 0; i < LOGIN_MAX_FAILURES_PER_EMAIL + 1; i++) {
          const busy = await signIn(ctx.app, '127.0.0.1', user.email, i === 0 ? password : 'wrong-guess');
          expect(busy.statusCode).toBe(503);
          expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
          expect(busy.json()).toEqual({ detail: 'The server is busy checking other passwords; try again in a moment' });
        }
        const pt = await call(ctx.app, 'POST', '/api/v1/auth/login', {
          body: { email: user.email, password },
          headers: { 'accept-language': 'pt-BR' },
        });
        expect(pt.statusCode).toBe(503);
        expect(pt.json().detail).toBe('O servidor está ocupado verificando outras senhas; tente novamente em instantes');
        const change = await call(ctx.app, 'PUT', '/api/v1/auth/password', {
          token: other.token,
          body: { current_password: 'whatever', new_password: 'a-new-password' },
        });
        expect(change.statusCode).toBe(503);
      } finally {
        release();
        await Promise.all(held);
      }
      // Nothing was checked while the queue was full, so nothing counted against the account.
      expect((await signIn(ctx.app, '127.0.0.1', user.email, password)).statusCode).toBe(200);
    } finally {
      await ctx.close();
    }
  });
});

describe('checks of a signed-in user password', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  test(`at most ${REAUTH_MAX_FAILURES} wrong passwords an account in 15 minutes, whichever form asks, then 429 with Retry-After even for the right one`, async () => {
    const { token, user, password } = await signUp(ctx.app);
    const tries = [
      () =>
        call(ctx.app, 'PUT', '/api/v1/auth/password', {
          token,
          body: { current_password: 'not-my-password', new_password: 'another-password' },
        }),
      () =>
        call(ctx.app, 'PUT', '/api/v1/auth/profile', {
          token,
          body: { name: 'Me', email: `moved-${user.email}`, current_password: 'not-my-password' },
        }),
      () => call(ctx.app, 'DELETE', '/api/v1/auth/account', { token, body: { password: 'not-my-password' } }),
    ];
    for (let i = 0; i < REAUTH_MAX_FAILURES; i++) expect((await tries[i % 3]!()).statusCode).toBe(422);
    for (const [field, body] of [
      ['password', { current_password: password, new_password: 'another-password' }],
      ['account', { password }],
    ] as const) {
      const refused = await call(ctx.app, field === 'password' ? 'PUT' : 'DELETE', `/api/v1/auth/${field}`, { token, body });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().detail).toMatch(/^Too many wrong passwords\. Try again in 1[45] minutes\.$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(13 * 60);
    }
    const pt = await call(ctx.app, 'DELETE', '/api/v1/auth/account', {
      token,
      body: { password },
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(pt.json().detail).toMatch(/^Muitas senhas erradas\. Tente novamente em 1[45] minutos\.$/);
    // The account is still there, the password unchanged.
    expect((await call(ctx.app, 'GET', '/api/v1/auth/me', { token })).statusCode).toBe(200);
    expect((await signIn(ctx.app, '127.0.0.1', user.email, password)).statusCode).toBe(200);
    // After the window the right password works, and clears the count.
    ctx.clock.advance(16 * 60_000);
    const changed = await call(ctx.app, 'PUT', '/api/v1/auth/password', {
      token,
      body: { current_password: password, new_password: 'another-password' },
    });
    expect(changed.statusCode).toBe(200);
  });

  test('a password reset clears the count of wrong passwords', async () => {
    const { token, user, password } = await signUp(ctx.app);
    for (let i = 0; i < REAUTH_MAX_FAILURES; i++) {
      const wrong = await call(ctx.app, 'DELETE', '/api/v1/auth/account', { token, body: { password: 'not-my-password' } });
      expect(wrong.statusCode).toBe(422);
    }
    const blocked = await call(ctx.app, 'PUT', '/api/v1/auth/password', {
      token,
      body: { current_password: password, new_password: 'another-password' },
    });
    expect(blocked.statusCode).toBe(429);
    const reset = await call(ctx.app, 'POST', '/api/v1/auth/reset-password/confirm', {
      body: { token: await resetToken(ctx, user.email), new_password: 'chosen-after-reset' },
    });
    expect(reset.statusCode).toBe(200);
    const fresh = (await signIn(ctx.app, '127.0.0.1', user.email, 'chosen-after-reset')).json().access_token as string;
    const change = await call(ctx.app, 'PUT', '/api/v1/auth/password', {
      token: fresh,
      body: { current_password: 'chosen-after-reset', new_password: 'chosen-once-more' },
    });
    expect(change.statusCode).toBe(200);
  });
});

describe('one user cannot stall every sign-in', () => {
  test('30 parallel wrong current passwords: at most 10 are checked, the rest answer 429, and another user signs in about as fast as before', async () => {
    // A real hash cost (64 MiB), so that a queue of hashes shows in the time a sign-in takes.
    const ctx = await buildTestApp({}, { passwordHashCost: 16 });
    try {
      const attacker = await signUp(ctx.app);
      const victim = await signUp(ctx.app);
      const timedSignIn = async () => {
        const started = performance.now();
        const answer = await signIn(ctx.app, '127.0.0.9', victim.user.email, victim.password);
        expect(answer.statusCode).toBe(200);
        return performance.now() - started;
      };
      await timedSignIn();
      const baselines = [await timedSignIn(), await timedSignIn(), await timedSignIn()].sort((a, b) => a - b);
      const baseline = baselines[1]!;

      const guesses = Array.from({ length: 30 }, (_, i) =>
        call(ctx.app, 'PUT', '/api/v1/auth/password', {
          token: attacker.token,
          body: { current_password: `guess-number-${i}`, new_password: 'taken-over-password' },
        }),
      );
      // The victim comes once the guesses have reached the password check.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const during = await timedSignIn();
      const answers = await Promise.all(guesses);
      const codes = answers.map((answer) => answer.statusCode);
      const checked = codes.filter((code) => code === 422).length;
      expect(checked).toBeGreaterThanOrEqual(1);
      expect(checked).toBeLessThanOrEqual(REAUTH_MAX_FAILURES);
      expect(codes.filter((code) => code === 429)).toHaveLength(30 - checked);
      for (const answer of answers.filter((one) => one.statusCode === 429)) {
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(answer.json().detail).toEqual(expect.any(String));
      }
      // Before, the victim's sign-in waited for all 30 hashes (0.44 s to 6.6 s at production cost).
      expect(during).toBeLessThan(baseline * 3 + 500);
      // The 31st guess is not checked either.
      const last = await call(ctx.app, 'PUT', '/api/v1/auth/password', {
        token: attacker.token,
        body: { current_password: 'guess-31', new_password: 'taken-over-password' },
      });
      expect(last.statusCode === 429 || checked < REAUTH_MAX_FAILURES).toBe(true);
    } finally {
      await ctx.close();
    }
  }, 120_000);
});

describe('nobody can lock an account out', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  test('six wrong sign-ins from 127.0.0.2 do not stop the right password from 127.0.0.1; 127.0.0.2 stays limited until a reset', async () => {
    const { user, password } = await signUp(ctx.app);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_EMAIL; i++) {
      expect((await signIn(ctx.app, '127.0.0.2', user.email, 'wrong-guess')).statusCode).toBe(401);
    }
    const sixth = await signIn(ctx.app, '127.0.0.2', user.email, 'wrong-guess');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().detail).toMatch(/Too many sign-in attempts/);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, elsewhere, signs in.
    expect((await signIn(ctx.app, '127.0.0.1', user.email, password)).statusCode).toBe(200);
    // The address that failed is still limited for this account, even with the right password...
    expect((await signIn(ctx.app, '127.0.0.2', user.email, password)).statusCode).toBe(429);
    // ...but not for another account.
    const other = await signUp(ctx.app);
    expect((await signIn(ctx.app, '127.0.0.2', other.user.email, other.password)).statusCode).toBe(200);
    // A reset from the mailbox clears the account's counts, from every address.
    const reset = await call(ctx.app, 'POST', '/api/v1/auth/reset-password/confirm', {
      body: { token: await resetToken(ctx, user.email), new_password: 'chosen-after-reset' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await signIn(ctx.app, '127.0.0.2', user.email, 'chosen-after-reset')).statusCode).toBe(200);
  });

  test('through a real socket: a client bound to 127.0.0.2 is limited, one on 127.0.0.1 is not', async () => {
    const { user, password } = await signUp(ctx.app);
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = ctx.app.server.address() as AddressInfo;
    const post = (localAddress: string, body: unknown) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            localAddress,
            method: 'POST',
            path: '/api/v1/auth/login',
            headers: { 'content-type': 'application/json' },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        );
        request.on('error', reject);
        request.end(JSON.stringify(body));
      });
    const codes: number[] = [];
    for (let i = 0; i <= LOGIN_MAX_FAILURES_PER_EMAIL; i++)
      codes.push(await post('127.0.0.2', { email: user.email, password: 'nope-nope' }));
    expect(codes).toEqual([...Array<number>(LOGIN_MAX_FAILURES_PER_EMAIL).fill(401), 429]);
    expect(await post('127.0.0.1', { email: user.email, password })).toBe(200);
    expect(await post('127.0.0.2', { email: user.email, password })).toBe(429);
  });

  test(`past ${LOGIN_SLOW_AFTER_FAILURES_PER_EMAIL} failures from all addresses the account is slowed down, not shut`, async () => {
    const { user, password } = await signUp(ctx.app);
    // Many addresses, each within its own limits, fail for one account.
    const addresses = Math.ceil((LOGIN_SLOW_AFTER_FAILURES_PER_EMAIL + 5) / LOGIN_MAX_FAILURES_PER_EMAIL);
    await Promise.all(
      Array.from({ length: addresses }, async (_, a) => {
        for (let i = 0; i < LOGIN_MAX_FAILURES_PER_EMAIL; i++) {
          expect((await signIn(ctx.app, `10.0.${a}.1`, user.email, 'wrong-guess')).statusCode).toBe(401);
        }
      }),
    );
    const failures = addresses * LOGIN_MAX_FAILURES_PER_EMAIL;
    const started = performance.now();
    const owner = await signIn(ctx.app, '192.0.2.200', user.email, password);
    const waited = performance.now() - started;
    expect(owner.statusCode).toBe(200);
    expect(waited).toBeGreaterThanOrEqual((failures - LOGIN_SLOW_AFTER_FAILURES_PER_EMAIL + 1) * LOGIN_SLOWDOWN_STEP_MS - 50);
  }, 60_000);

  test('IPv6 clients are counted by their /64: another address of the same /64 is refused, another /64 is not', async () => {
    const { user, password } = await signUp(ctx.app);
    for (let i = 1; i <= LOGIN_MAX_FAILURES_PER_EMAIL; i++) {
      expect((await signIn(ctx.app, `2001:db8:0:7::${i}`, user.email, 'wrong-guess')).statusCode).toBe(401);
    }
    expect((await signIn(ctx.app, '2001:db8:0:7:ffff:1:2:3', user.email, password)).statusCode).toBe(429);
    expect((await signIn(ctx.app, '2001:db8:0:8::1', user.email, password)).statusCode).toBe(200);
    // Across accounts too: LOGIN_MAX_FAILURES_PER_ADDRESS for the whole /64.
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
      const spray = await signIn(ctx.app, `2001:db8:0:9::${(i + 1).toString(16)}`, `nobody${i}@example.com`, 'x-x-x-x');
      expect(spray.statusCode).toBe(401);
    }
    expect((await signIn(ctx.app, '2001:db8:0:9:abcd::1', 'nobody-else@example.com', 'x-x-x-x')).statusCode).toBe(429);
    // An IPv4 client on a dual-stack socket (::ffff:a.b.c.d) is that IPv4 address.
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_EMAIL; i++) {
      expect((await signIn(ctx.app, '::ffff:198.51.100.4', user.email, 'wrong-guess')).statusCode).toBe(401);
    }
    expect((await signIn(ctx.app, '198.51.100.4', user.email, password)).statusCode).toBe(429);
  });
});

describe('every rate limit keys IPv6 by /64', () => {
  test('sign-ups (database counters) and the per-minute ceiling of the whole API', async () => {
    const ctx = await buildTestApp({ AUTH_RATE_LIMIT_PER_HOUR: '2', API_RATE_LIMIT_PER_MINUTE: '6' });
    try {
      const register = (address: string, n: number) =>
        from(ctx.app, address, 'POST', '/api/v1/auth/register', {
          body: { name: 'Six Four', email: `sixfour${n}@example.com`, password: 'a-fine-password' },
        });
      expect((await register('2001:db8:1:2::1', 1)).statusCode).toBe(201);
      expect((await register('2001:db8:1:2::2', 2)).statusCode).toBe(201);
      expect((await register('2001:db8:1:2:aaaa::3', 3)).statusCode).toBe(429);
      expect((await register('2001:db8:1:3::1', 4)).statusCode).toBe(201);
      // The API ceiling: 6 a minute per /64 (3 used above), whatever the address within it.
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push((await from(ctx.app, `2001:db8:1:2::${100 + i}`, 'GET', '/api/v1/health')).statusCode);
      expect(codes.at(-1)).toBe(429);
      expect((await from(ctx.app, '2001:db8:1:4::1', 'GET', '/api/v1/health')).statusCode).not.toBe(429);
    } finally {
      await ctx.close();
    }
  });
});

describe('breached passwords', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  test('the list holds the usual suspects, in any case and width, and not ordinary passphrases', () => {
    for (const common of [
      '123456',
      'password',
      'qwerty',
      '111111',
      'senha123',
      'Password1',
      'IloveYou',
      'ｐａｓｓｗｏｒｄ',
      'flamengo',
    ]) {
      expect(isCommonPassword(common)).toBe(true);
    }
    for (const fine of ['correct horse battery', 'a-fine-password', 'Tr0ub4dor&3-orange', 'secret123']) {
      expect(isCommonPassword(fine)).toBe(false);
    }
  });

  test('sign-up, password change and reset refuse a common password with a clear 422, in English and Portuguese', async () => {
    const signUpWith = (password: string, language = 'en') =>
      call(ctx.app, 'POST', '/api/v1/auth/register', {
        body: { name: 'Common', email: 'common@example.com', password },
        headers: { 'accept-language': language },
      });
    const en = await signUpWith('password123');
    expect(en.statusCode).toBe(422);
    expect(en.json().detail).toBe(
      'This password is one of the most common passwords, found in lists of leaked passwords: choose one that is harder to guess',
    );
    const pt = await signUpWith('SENHA123', 'pt-BR');
    expect(pt.statusCode).toBe(422);
    expect(pt.json().detail).toBe(
      'Esta senha é uma das mais comuns, presente em listas de senhas vazadas: escolha uma mais difícil de adivinhar',
    );
    expect((await signUpWith('Ｑｗｅｒｔｙ123')).statusCode).toBe(422);
    // The spec's minimum stays 6 for everything else.
    expect((await signUpWith('zq8#k2')).statusCode).toBe(201);

    const { token, user, password } = await signUp(ctx.app);
    const change = await call(ctx.app, 'PUT', '/api/v1/auth/password', {
      token,
      body: { current_password: password, new_password: 'qwerty123' },
    });
    expect(change.statusCode).toBe(422);
    expect(change.json().detail).toMatch(/most common passwords/);
    expect((await signIn(ctx.app, '127.0.0.1', user.email, password)).statusCode).toBe(200);

    const link = await resetToken(ctx, user.email);
    const reset = await call(ctx.app, 'POST', '/api/v1/auth/reset-password/confirm', {
      body: { token: link, new_password: 'iloveyou' },
    });
    expect(reset.statusCode).toBe(422);
    expect(reset.json().detail).toMatch(/most common passwords/);
    // The link was not spent by the refusal.
    const good = await call(ctx.app, 'POST', '/api/v1/auth/reset-password/confirm', {
      body: { token: link, new_password: 'a-fine-password' },
    });
    expect(good.statusCode).toBe(200);
  });
});
