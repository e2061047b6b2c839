import { buildTestApp, call, signUp, type TestContext } from './helper';

/**
 * Taking an address back (docs/security.md, "Who is admin"): an administrator address is confirmed
 * only with the account's password, never by the link alone; and a password reset clears the
 * addresses the account sends data to, which whoever had the account may have set.
 */

jest.setTimeout(120_000);

const BOSS = 'boss@example.com';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp({ ADMIN_EMAIL: `${BOSS}, chief@example.com` });
});

afterAll(async () => {
  await ctx.close();
});

/** The token of the last link of `path` sent to `to`. */
async function linkFor(to: string, path: '/verify-email' | '/reset-password') {
  await ctx.app.services.drainEmails();
  const mail = [...ctx.mailer.sent].reverse().find((sent) => sent.to.toLowerCase() === to.toLowerCase());
  const match = mail ? new RegExp(`http://console\\.test${path}\\?token=([\\w-]+)`).exec(mail.text) : null;
  if (!match) throw new Error(`no ${path} link for ${to}`);
  return match[1]!;
}

const verify = (body: { token: string; password?: string }, language = 'en') =>
  call(ctx.app, 'POST', '/api/v1/auth/verify-email', { body, headers: { 'accept-language': language } });
const me = async (token: string) => (await call(ctx.app, 'GET', '/api/v1/auth/me', { token })).json();

describe('confirming an administrator address', () => {
  test('the link alone is not enough: the account’s password is asked for, and a wrong one changes nothing', async () => {
    const squatter = await signUp(ctx.app, { email: BOSS, password: 'squatter-secret', verified: false });
    const token = await linkFor(BOSS, '/verify-email');

    // The mailbox's owner follows the link: they do not know the password whoever signed up chose.
    const asked = await verify({ token });
    expect(asked.statusCode).toBe(422);
    expect(asked.json()).toEqual({
      detail: 'This link confirms an administrator address. Enter the password of the account to confirm it.',
      password_required: true,
    });
    const askedPt = await verify({ token }, 'pt-BR');
    expect(askedPt.json()).toEqual({
      detail: 'Este link confirma um endereço de administrador. Digite a senha da conta para confirmá-lo.',
      password_required: true,
    });
    const wrong = await verify({ token, password: 'a-guess' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({
      detail: "That is not the password of this account. Only the account's owner can confirm an administrator address.",
      password_required: true,
    });
    expect(await me(squatter.token)).toMatchObject({ is_admin: false, is_admin_pending: true, email_verified: false });

    // The account's own password, with the same link (not spent by the refusals), confirms it.
    const ok = await verify({ token, password: 'squatter-secret' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ detail: 'Your email address is confirmed.' });
    expect(await me(squatter.token)).toMatchObject({ is_admin: true, email_verified: true });
    const again = await verify({ token, password: 'squatter-secret' });
    expect(again.statusCode).toBe(422);
    expect(again.json().password_required).toBeUndefined();
  });

  test('an ordinary address is still confirmed by the link alone; a password sent with it is ignored', async () => {
    const { token: session, user } = await signUp(ctx.app, { verified: false });
    const token = await linkFor(user.email, '/verify-email');
    const ok = await verify({ token, password: 'whatever' });
    expect(ok.statusCode).toBe(200);
    expect(await me(session)).toMatchObject({ email_verified: true, is_admin: false });
  });

  test('an unknown link is refused before any password is asked for', async () => {
    const refused = await verify({ token: 'not-a-real-token', password: 'x' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toMatch(/invalid, was already used or has expired/);
    expect(refused.json().password_required).toBeUndefined();
  });

  test('wrong passwords are counted: past the limit even the right one is refused for a while', async () => {
    const squatter = await signUp(ctx.app, { email: 'chief@example.com', password: 'chief-secret', verified: false });
    const token = await linkFor('chief@example.com', '/verify-email');
    const answers: number[] = [];
    for (let i = 0; i < 10; i += 1) answers.push((await verify({ token, password: `guess-${i}` })).statusCode);
    expect(answers).toEqual(Array(10).fill(422));
    const blocked = await verify({ token, password: 'chief-secret' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect(await me(squatter.token)).toMatchObject({ is_admin: false, email_verified: false });
  });
});

describe('a password reset takes the account back', () => {
  async function reset(email: string, language = 'en') {
    expect((await call(ctx.app, 'POST', '/api/v1/auth/reset-password', { body: { email } })).statusCode).toBe(202);
    const token = await linkFor(email, '/reset-password');
    return call(ctx.app, 'POST', '/api/v1/auth/reset-password/confirm', {
      body: { token, new_password: 'taken-back-123' },
      headers: { 'accept-language': language },
    });
  }

  test('clears the webhook and the chat model’s own server, and says so', async () => {
    const { token, user } = await signUp(ctx.app);
    const hook = await call(ctx.app, 'PUT', '/api/v1/notifications/', {
      token,
      body: { webhook_url: 'https://hooks.attacker.example/collect', webhook_secret: 'whsec-0123456789abcdef' },
    });
    expect(hook.statusCode).toBe(200);
    const model = await call(ctx.app, 'POST', '/api/v1/chatgpt/config', {
      token,
      body: { api_key: 'sk-attacker-0123456789abcdefWXYZ', base_url: 'https://llm.attacker.example/v1' },
    });
    expect(model.statusCode).toBe(201);

    const done = await reset(user.email);
    expect(done.statusCode).toBe(200);
    expect(done.json().urls_cleared).toBe(true);
    expect(done.json().detail).toBe(
      'Your password has been changed. You can sign in now. For your safety, the webhook and the model, speech and image server addresses of this account were cleared: enter them again in Settings.',
    );
    const signedIn = await call(ctx.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: 'taken-back-123' },
    });
    const owner = signedIn.json().access_token as string;
    expect((await call(ctx.app, 'GET', '/api/v1/notifications/', { token: owner })).json()).toMatchObject({
      webhook_url: null,
      has_webhook_secret: false,
    });
    // The key was saved for that server and may go nowhere else: the whole configuration goes.
    expect((await call(ctx.app, 'GET', '/api/v1/chatgpt/config', { token: owner })).statusCode).toBe(404);
  });

  test('clears speech and image servers but keeps a configuration on the chat API’s own host', async () => {
    const { token, user } = await signUp(ctx.app);
    const created = await call(ctx.app, 'POST', '/api/v1/chatgpt/config', {
      token,
      body: { api_key: 'sk-owner-0123456789abcdefWXYZ' },
    });
    expect(created.statusCode).toBe(201);
    const servers = await call(ctx.app, 'PUT', '/api/v1/chatgpt/config', {
      token,
      body: { speech_base_url: 'http://speech.attacker.example/v1', image_base_url: 'https://images.attacker.example/v1' },
    });
    expect(servers.statusCode).toBe(200);

    const done = await reset(user.email, 'pt');
    expect(done.json().detail).toMatch(/^Sua senha foi alterada\. Você já pode entrar\. Por segurança/);
    const owner = (
      await call(ctx.app, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: 'taken-back-123' } })
    ).json().access_token as string;
    expect((await call(ctx.app, 'GET', '/api/v1/chatgpt/config', { token: owner })).json()).toMatchObject({
      has_api_key: true,
      api_key_masked: '••••••••WXYZ',
      base_url: null,
      speech_base_url: null,
      image_base_url: null,
    });
  });

  test('with nothing to clear, the usual message', async () => {
    const { user } = await signUp(ctx.app);
    const done = await reset(user.email);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ detail: 'Your password has been changed. You can sign in now.', urls_cleared: false });
  });
});
