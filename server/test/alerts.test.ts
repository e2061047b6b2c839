import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { createStoryResponder } from '../fakes/storyResponder';
import { alertCauseOf, createEngine, type Engine } from '../src/pipeline/engine';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookSignature } from '../src/services/alerts';
import { buildTestApp, call, signUp, type TestContext, pipelineEnv } from './helper';
import { runnableProcess, runnableUser, type RunnableUser } from './runnable';

jest.setTimeout(120_000);

/** Alerts (docs/engine.md, "Alerts"): what the owner is told, once a day per cause, by email and a signed webhook. */

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that answers `status` and keeps what it got. */
async function startReceiver(status = 204) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(receiver.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver = {
    status,
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return receiver;
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

let fake: FakeOpenAI;
let google: FakeGoogle;
let ctx: TestContext;
let engine: Engine;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: createStoryResponder({ brief: true }) });
  google = await startFakeGoogle();
  receiver = await startReceiver();
  ctx = await buildTestApp(pipelineEnv(fake.url, google), { enqueue: async () => null });
  engine = createEngine({ services: ctx.app.services, config: ctx.config, log: silent, now: () => ctx.clock.now });
});

afterAll(async () => {
  await ctx.close();
  await fake.close();
  await google.close();
  await receiver.close();
});

beforeEach(() => {
  ctx.mailer.sent.length = 0;
  receiver.received.length = 0;
  receiver.status = 204;
  fake.reset();
});

describe('the settings', () => {
  test('start with every cause on and no webhook; a saved secret is answered masked, never in plaintext', async () => {
    const { token } = await signUp(ctx.app);
    const initial = await call(ctx.app, 'GET', '/api/v1/notifications/', { token });
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toEqual({
      run_failed: true,
      authorization: true,
      quota: true,
      review: true,
      webhook_url: null,
      has_webhook_secret: false,
      webhook_secret_masked: '',
    });

    const saved = await call(ctx.app, 'PUT', '/api/v1/notifications/', {
      token,
      body: { review: false, webhook_url: ' https://hooks.example.com/a?b=1 ', webhook_secret: 'whsec-0123456789abcdef' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      review: false,
      run_failed: true,
      webhook_url: 'https://hooks.example.com/a?b=1',
      has_webhook_secret: true,
    });
    expect(saved.body).not.toContain('0123456789abcdef');
    expect(saved.json().webhook_secret_masked).toMatch(/^•+cdef$/);

    // Only what is sent changes; null removes.
    const partial = await call(ctx.app, 'PUT', '/api/v1/notifications/', { token, body: { quota: false } });
    expect(partial.json()).toMatchObject({
      review: false,
      quota: false,
      webhook_url: 'https://hooks.example.com/a?b=1',
      has_webhook_secret: true,
    });
    const cleared = await call(ctx.app, 'PUT', '/api/v1/notifications/', {
      token,
      body: { webhook_url: null, webhook_secret: null },
    });
    expect(cleared.json()).toMatchObject({ webhook_url: null, has_webhook_secret: false, webhook_secret_masked: '' });
  });

  test.each([
    ['ftp://hooks.example.com/x', 'The webhook must be an http:// or https:// address without a user name or password'],
    [
      'https://user:pass@hooks.example.com/x',
      'The webhook must be an http:// or https:// address without a user name or password',
    ],
    ['not a url', 'The webhook must be an http:// or https:// address without a user name or password'],
  ])('refuses the webhook %s with 422 and changes nothing', async (url, detail) => {
    const { token } = await signUp(ctx.app);
    const refused = await call(ctx.app, 'PUT', '/api/v1/notifications/', { token, body: { webhook_url: url, review: false } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ detail });
    expect((await call(ctx.app, 'GET', '/api/v1/notifications/', { token })).json()).toMatchObject({
      webhook_url: null,
      review: true,
    });
  });

  test('refuses a secret with spaces, an unknown field and a wrong type', async () => {
    const { token } = await signUp(ctx.app);
    const spaced = await call(ctx.app, 'PUT', '/api/v1/notifications/', { token, body: { webhook_secret: 'two words' } });
    expect(spaced.statusCode).toBe(422);
    expect(spaced.json().detail).toMatch(/^The signing secret/);
    expect((await call(ctx.app, 'PUT', '/api/v1/notifications/', { token, body: { sms: true } })).statusCode).toBe(400);
    expect((await call(ctx.app, 'PUT', '/api/v1/notifications/', { token, body: { quota: 'yes' } })).statusCode).toBe(400);
    expect((await call(ctx.app, 'GET', '/api/v1/notifications/')).statusCode).toBe(401);
  });
});

describe('the test message', () => {
  test('reaches the webhook signed with the secret; the receiver can check the signature', async () => {
    const { token } = await signUp(ctx.app);
    await call(ctx.app, 'PUT', '/api/v1/notifications/', {
      token,
      body: { webhook_url: receiver.url, webhook_secret: 'whsec-test' },
    });
    const tested = await call(ctx.app, 'POST', '/api/v1/notifications/test', { token });
    expect(tested.statusCode).toBe(200);
    expect(tested.json()).toEqual({ delivered: true, detail: 'The test message was delivered.' });
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    const timestamp = String(got!.headers[TIMESTAMP_HEADER]);
    expect(got!.headers[SIGNATURE_HEADER]).toBe(webhookSignature('whsec-test', timestamp, got!.body));
    expect(got!.headers[SIGNATURE_HEADER]).not.toBe(webhookSignature('another', timestamp, got!.body));
    expect(JSON.parse(got!.body)).toMatchObject({ event: 'test', text: 'StoryFlow: this is a test of your alerts webhook.' });
  });

  test('says what went wrong when the receiver refuses, in the reader’s language, without its body', async () => {
    const { token } = await signUp(ctx.app);
    receiver.status = 500;
    await call(ctx.app, 'PUT', '/api/v1/notifications/', { token, body: { webhook_url: receiver.url } });
    const tested = await call(ctx.app, 'POST', '/api/v1/notifications/test', { token, headers: { 'accept-language': 'pt-BR' } });
    expect(tested.json()).toEqual({ delivered: false, detail: 'A mensagem de teste não foi entregue (HTTP 500).' });
    // No secret: sent unsigned.
    expect(receiver.received[0]!.headers[SIGNATURE_HEADER]).toBeUndefined();
  });

  test('without a webhook answers 422', async () => {
    const { token } = await signUp(ctx.app);
    const tested = await call(ctx.app, 'POST', '/api/v1/notifications/test', { token });
    expect(tested.statusCode).toBe(422);
    expect(tested.json()).toEqual({ detail: 'Save a webhook address first' });
  });

  test('never reaches a private address when private addresses are not allowed', async () => {
    const strict = await buildTestApp({ ALLOW_PRIVATE_URLS: 'false' });
    try {
      for (const url of [
        receiver.url,
        'http://169.254.169.254/latest/meta-data/',
        'http://[::1]:8080/x',
        'http://localhost:8080/x',
      ]) {
        const { token } = await signUp(strict.app);
        expect((await call(strict.app, 'PUT', '/api/v1/notifications/', { token, body: { webhook_url: url } })).statusCode).toBe(
          200,
        );
        const tested = await call(strict.app, 'POST', '/api/v1/notifications/test', { token });
        expect(tested.json()).toMatchObject({ delivered: false });
        expect(tested.json().detail).toMatch(/^The test message was not delivered \(.*address.*\)\.$/);
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});

describe('alerts from runs', () => {
  let owner: RunnableUser;
  let processId: string;

  beforeAll(async () => {
    owner = await runnableUser(ctx, google, 'UC_alerts');
    // The owner reads the console in Portuguese: alerts go out in Portuguese.
    await call(ctx.app, 'POST', '/api/v1/auth/login', {
      body: {
        email: (await call(ctx.app, 'GET', '/api/v1/auth/me', { token: owner.token })).json().email,
        password: 'secret123',
      },
      headers: { 'accept-language': 'pt-BR' },
    });
    await call(ctx.app, 'PUT', '/api/v1/notifications/', {
      token: owner.token,
      body: { webhook_url: receiver.url, webhook_secret: 'whsec-runs' },
    });
    processId = await runnableProcess(ctx, owner, { name: 'Noites' });
  });

  async function failOnce(): Promise<string> {
    fake.setFailure(401, 10, { message: 'Incorrect API key provided: sk-t***' });
    const executed = await call(ctx.app, 'POST', `/api/v1/processes/${processId}/execute`, { token: owner.token });
    expect(executed.statusCode).toBe(202);
    const id = executed.json().execution_id as string;
    await engine.run(id);
    await ctx.app.services.alerts.drain();
    return id;
  }

  test('a failed run tells the owner by email in their language and by the signed webhook, once a day', async () => {
    const id = await failOnce();
    const failed = (await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token: owner.token })).json();
    expect(failed.status).toBe('error');

    expect(ctx.mailer.sent).toHaveLength(1);
    const [mail] = ctx.mailer.sent;
    expect(mail!.subject).toBe('Uma execução de “Noites” falhou');
    expect(mail!.text).toContain('http://console.test/processes');
    expect(mail!.text).not.toContain('sk-t');
    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    expect(hook!.headers[SIGNATURE_HEADER]).toBe(
      webhookSignature('whsec-runs', String(hook!.headers[TIMESTAMP_HEADER]), hook!.body),
    );
    expect(JSON.parse(hook!.body)).toMatchObject({
      event: 'run_failed',
      process: { id: processId, name: 'Noites' },
      execution_id: id,
    });

    // The same cause the same day: nothing more (a broken key is not worth ten emails).
    await failOnce();
    expect(ctx.mailer.sent).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);

    // The next day it is said again.
    ctx.clock.advance(24 * 60 * 60 * 1000);
    await failOnce();
    expect(ctx.mailer.sent).toHaveLength(2);
  });

  test('a cause the owner switched off sends nothing; the webhook failing never changes the run', async () => {
    ctx.clock.advance(24 * 60 * 60 * 1000);
    await call(ctx.app, 'PUT', '/api/v1/notifications/', { token: owner.token, body: { run_failed: false } });
    await failOnce();
    expect(ctx.mailer.sent).toHaveLength(0);
    expect(receiver.received).toHaveLength(0);

    await call(ctx.app, 'PUT', '/api/v1/notifications/', { token: owner.token, body: { run_failed: true } });
    receiver.status = 500;
    ctx.clock.advance(24 * 60 * 60 * 1000);
    const id = await failOnce();
    expect(ctx.mailer.sent).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    expect((await call(ctx.app, 'GET', `/api/v1/executions/${id}`, { token: owner.token })).json().status).toBe('error');
  });

  test('the dedupe rows older than a week are purged', async () => {
    const removed = await ctx.app.services.alerts.purge(new Date(ctx.clock.now.getTime() + 60_000));
    expect(removed).toBeGreaterThanOrEqual(3);
    expect(await ctx.app.services.alerts.purge(new Date(ctx.clock.now.getTime() + 60_000))).toBe(0);
  });
});

test('a refused YouTube authorization and a spent quota are their own causes; anything else is a failed run', () => {
  expect(alertCauseOf('pipeline.youtubeRevoked')).toBe('authorization');
  expect(alertCauseOf('pipeline.youtubeQuota')).toBe('quota');
  expect(alertCauseOf('pipeline.quota')).toBe('quota');
  expect(alertCauseOf('pipeline.videoFailed')).toBe('run_failed');
});
