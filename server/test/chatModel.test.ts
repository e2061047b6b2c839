import net from 'node:net';
import { sql } from 'drizzle-orm';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { createChatModelClient } from '../src/providers/chatModel';
import { UPSTREAM_HTML, buildTestApp, call, expectNoUpstreamText, signUp, type TestContext } from './helper';

const GOOD_KEY = 'sk-test-good-key-0123456789abcdefWXYZ';
const OTHER_GOOD_KEY = 'sk-test-other-key-9876543210zyxwQRST';
const WRONG_KEY = 'sk-test-wrong-key-000000000000000000';

let fake: FakeOpenAI;
let ctx: TestContext;
let token: string;
let userId: string;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKeys: [GOOD_KEY, OTHER_GOOD_KEY] });
  ctx = await buildTestApp({ OPENAI_BASE_URL: fake.url });
  ({
    token,
    user: { id: userId },
  } = await signUp(ctx.app));
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const config = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', body?: unknown, as = token, headers?: Record<string, string>) =>
  call(ctx.app, method, '/api/v1/chatgpt/config', { token: as, body, headers });
const testKey = (body?: unknown, as = token, headers?: Record<string, string>) =>
  call(ctx.app, 'POST', '/api/v1/chatgpt/test', { token: as, body, headers });

async function storedRow(id = userId) {
  const result = await ctx.database.db.execute(
    sql`select api_key_enc, base_url, model, is_connected, last_tested from chat_model_configs where user_id = ${id}`,
  );
  return (
    result as unknown as {
      rows: { api_key_enc: string; base_url: string | null; model: string; is_connected: boolean; last_tested: unknown }[];
    }
  ).rows[0];
}

/** A port nobody listens on: opened, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the chat-model configuration of one user', () => {
  // These tests run in order: they walk one configuration through its life.

  test('answers 404 before any configuration exists', async () => {
    const response = await config('GET');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'No chat-model configuration' });
    expect((await config('PUT', { model: 'gpt-4o' })).statusCode).toBe(404);
    expect((await config('DELETE')).statusCode).toBe(404);
  });

  test('creates it with the key masked, never answered, and stored encrypted', async () => {
    const response = await config('POST', { api_key: `  ${GOOD_KEY}  ` });
    expect(response.statusCode).toBe(201);
    expect(response.body).not.toContain(GOOD_KEY);
    expect(response.body).not.toContain('0123456789');
    expect(response.json()).toEqual({
      has_api_key: true,
      secret_unreadable: false,
      api_key_masked: '••••••••WXYZ',
      speech_base_url: null,
      speech_model: null,
      image_base_url: null,
      image_model: null,
      base_url: null,
      model: 'gpt-4o-mini',
      is_connected: false,
      last_tested: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const row = await storedRow();
    expect(row!.api_key_enc).not.toContain(GOOD_KEY);
    expect(row!.api_key_enc).not.toContain('good-key');
    expect(row!.api_key_enc).toMatch(/^v1:/);

    const got = await config('GET');
    expect(got.statusCode).toBe(200);
    expect(got.body).not.toContain(GOOD_KEY);
    expect(got.json()).toMatchObject({ has_api_key: true, api_key_masked: '••••••••WXYZ' });
  });

  test('speech and image servers: saved, cleared back to the chat API, refused when not http(s), untested by the chat test', async () => {
    const before = (await config('GET')).json();
    const saved = await config('PUT', {
      speech_base_url: ' http://kokoro.local:8880/v1/ ',
      speech_model: 'kokoro',
      image_base_url: 'https://images.example.com/v1',
      image_model: '  ',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      speech_base_url: 'http://kokoro.local:8880/v1',
      speech_model: 'kokoro',
      image_base_url: 'https://images.example.com/v1',
      image_model: null,
      // The chat model's own test is not about these servers: its outcome stays.
      is_connected: before.is_connected,
      last_tested: before.last_tested,
    });
    for (const bad of ['ftp://x.example.com', 'kokoro.local', 'http://']) {
      const refused = await config('PUT', { speech_base_url: bad }, token, { 'accept-language': 'pt' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().detail).toMatch(/^A URL base deve ser/);
    }
    expect((await config('PUT', { image_model: 'x'.repeat(101) })).statusCode).toBe(422);
    const cleared = await config('PUT', { speech_base_url: null, speech_model: null, image_base_url: '' });
    expect(cleared.json()).toMatchObject({ speech_base_url: null, speech_model: null, image_base_url: null, image_model: null });
  });

  test('a second create is a conflict that points to update', async () => {
    const response = await config('POST', { api_key: OTHER_GOOD_KEY });
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toMatch(/already exists; update it/);
    const pt = await config('POST', { api_key: OTHER_GOOD_KEY }, token, { 'accept-language': 'pt-BR' });
    expect(pt.json().detail).toMatch(/^Já existe uma configuração/);
  });

  test('testing the stored key stores is_connected and last_tested', async () => {
    fake.reset();
    const response = await testKey({});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      is_connected: true,
      last_tested: ctx.clock.now.toISOString(),
      detail: 'Connected to ChatGPT successfully',
    });
    expect(fake.requests).toEqual([{ method: 'GET', path: '/v1/models', body: undefined, apiKey: GOOD_KEY }]);
    const got = (await config('GET')).json();
    expect(got).toMatchObject({ is_connected: true, last_tested: ctx.clock.now.toISOString() });
    const row = await storedRow();
    expect(row!.is_connected).toBe(true);
    expect(row!.last_tested).not.toBeNull();
  });

  test('a body key equal to the stored one, or no body at all, tests and stores too', async () => {
    ctx.clock.advance(60_000);
    const same = await testKey({ api_key: GOOD_KEY });
    expect(same.json()).toMatchObject({ is_connected: true, last_tested: ctx.clock.now.toISOString() });
    expect((await config('GET')).json().last_tested).toBe(ctx.clock.now.toISOString());
    ctx.clock.advance(60_000);
    const noBody = await testKey();
    expect(noBody.statusCode).toBe(200);
    expect((await config('GET')).json().last_tested).toBe(ctx.clock.now.toISOString());
  });

  test('a wrong unsaved key fails, with the reason, and stores nothing', async () => {
    const before = (await config('GET')).json();
    ctx.clock.advance(60_000);
    const response = await testKey({ api_key: WRONG_KEY });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(WRONG_KEY);
    expect(response.json()).toEqual({
      is_connected: false,
      last_tested: ctx.clock.now.toISOString(),
      detail: 'Failed to connect to ChatGPT. Please check your API Key. (invalid API key)',
    });
    const pt = await testKey({ api_key: WRONG_KEY }, token, { 'accept-language': 'pt-BR,pt;q=0.9' });
    expect(pt.json().detail).toBe('Falha ao conectar ao ChatGPT. Verifique sua chave de API. (chave de API inválida)');
    expect((await config('GET')).json()).toEqual(before);
  });

  test('a server answering an HTML error page is reported by its status, never its page, in both languages', async () => {
    fake.reset();
    fake.setFailure(502, 10, { rawBody: UPSTREAM_HTML, retryAfterMs: 1 });
    const en = await testKey({});
    fake.setFailure(502, 10, { rawBody: UPSTREAM_HTML, retryAfterMs: 1 });
    const pt = await testKey({}, token, { 'accept-language': 'pt-BR' });
    fake.reset();
    expect(en.json()).toMatchObject({
      is_connected: false,
      detail: 'Failed to connect to ChatGPT. Please check your API Key. (the server answered with an error (HTTP 502))',
    });
    expect(pt.json().detail).toBe(
      'Falha ao conectar ao ChatGPT. Verifique sua chave de API. (o servidor respondeu com um erro (HTTP 502))',
    );
    expectNoUpstreamText(en.body + pt.body + (await config('GET')).body);
    // The stored key still works: the next test connects again.
    expect((await testKey({})).json().is_connected).toBe(true);
  });

  test('a different valid unsaved key is tested but not stored', async () => {
    const before = (await config('GET')).json();
    fake.reset();
    const response = await testKey({ api_key: OTHER_GOOD_KEY });
    expect(response.json().is_connected).toBe(true);
    expect(fake.requests.map((r) => r.apiKey)).toEqual([OTHER_GOOD_KEY]);
    expect((await config('GET')).json()).toEqual(before);
  });

  test('an update with a blank key keeps the stored key, which still passes the test', async () => {
    for (const body of [{ api_key: '' }, { api_key: null }, { api_key: '   ', model: 'gpt-4o' }, {}]) {
      const response = await config('PUT', body);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ has_api_key: true, api_key_masked: '••••••••WXYZ', is_connected: true });
    }
    expect((await config('GET')).json().model).toBe('gpt-4o');
    fake.reset();
    expect((await testKey()).json().is_connected).toBe(true);
    expect(fake.requests[0]!.apiKey).toBe(GOOD_KEY);
  });

  test('an update with the same key keeps the connection; a new key resets it', async () => {
    const same = await config('PUT', { api_key: GOOD_KEY });
    expect(same.json()).toMatchObject({ is_connected: true, api_key_masked: '••••••••WXYZ' });
    const changed = await config('PUT', { api_key: OTHER_GOOD_KEY });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).not.toContain(OTHER_GOOD_KEY);
    expect(changed.json()).toMatchObject({
      has_api_key: true,
      api_key_masked: '••••••••QRST',
      is_connected: false,
      last_tested: null,
    });
    const row = await storedRow();
    expect(row!.api_key_enc).not.toContain(OTHER_GOOD_KEY);
    fake.reset();
    const tested = await testKey({ api_key: '' });
    expect(tested.json().is_connected).toBe(true);
    expect(fake.requests[0]!.apiKey).toBe(OTHER_GOOD_KEY);
    expect((await config('GET')).json().is_connected).toBe(true);
  });

  test('validates base_url, the key and the model with 422s, changing nothing', async () => {
    const before = (await config('GET')).json();
    for (const base_url of [
      'not a url',
      'ftp://example.com/v1',
      'javascript:alert(1)',
      `https://example.com/${'x'.repeat(600)}`,
    ]) {
      const response = await config('PUT', { base_url });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toMatch(/^The base URL must be an http:\/\/ or https:\/\/ address/);
    }
    const pt = await config('PUT', { base_url: 'nope' }, token, { 'accept-language': 'pt' });
    expect(pt.json().detail).toMatch(/^A URL base deve ser um endereço http/);
    expect((await testKey({ base_url: 'nope' })).statusCode).toBe(422);

    const long = await config('PUT', { api_key: `sk-${'a'.repeat(500)}` });
    expect(long.statusCode).toBe(422);
    expect(long.json()).toEqual({ detail: 'The API key must be at most 500 characters' });
    expect((await config('PUT', { api_key: 'sk-has space' })).statusCode).toBe(422);
    for (const model of ['', '   ', 'm'.repeat(101)]) {
      const response = await config('PUT', { model });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toMatch(/^The model must be a name of 1 to 100 characters/);
    }
    const unknownField = await config('PUT', { api_key: GOOD_KEY, extra: true });
    expect(unknownField.statusCode).toBe(400);
    expect((await config('PUT', { model: { name: 'gpt-4o' } })).statusCode).toBe(400);
    expect((await config('GET')).json()).toEqual(before);
  });

  test('a new base URL resets the connection; blank returns to the server default', async () => {
    const sameAsDefault = await config('PUT', { base_url: `${fake.url}/` });
    expect(sameAsDefault.json()).toMatchObject({ base_url: fake.url, is_connected: true });
    const elsewhere = fake.url.replace('127.0.0.1', 'localhost');
    // The saved key is not sent to another host unless it is typed again.
    const refused = await config('PUT', { base_url: elsewhere });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toMatch(/Type the API key again/);
    const moved = await config('PUT', { base_url: elsewhere, api_key: GOOD_KEY });
    expect(moved.json()).toMatchObject({ base_url: elsewhere, is_connected: false, last_tested: null });
    expect((await testKey()).json().is_connected).toBe(true);
    const back = await config('PUT', { base_url: '', api_key: GOOD_KEY });
    expect(back.json()).toMatchObject({ base_url: null, is_connected: false, last_tested: null });
    expect((await testKey()).json().is_connected).toBe(true);
    const nullModel = await config('PUT', { model: null });
    expect(nullModel.json().model).toBe('gpt-4o-mini');
  });

  test('an unreachable base URL answers is_connected false with the failure detail', async () => {
    const port = await closedPort();
    const moved = await config('PUT', { base_url: `http://127.0.0.1:${port}/v1`, api_key: GOOD_KEY });
    expect(moved.statusCode).toBe(200);
    ctx.clock.advance(60_000);
    const response = await testKey();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      is_connected: false,
      last_tested: ctx.clock.now.toISOString(),
      detail: 'Failed to connect to ChatGPT. Please check your API Key. (could not reach the server)',
    });
    const pt = await testKey(undefined, token, { 'accept-language': 'pt-BR' });
    expect(pt.json().detail).toBe(
      'Falha ao conectar ao ChatGPT. Verifique sua chave de API. (não foi possível acessar o servidor)',
    );
    // A failure is stored too.
    expect((await config('GET')).json()).toMatchObject({ is_connected: false, last_tested: ctx.clock.now.toISOString() });
    // A base URL given with the test is only tried, not stored (the key typed again for another host).
    const other = await testKey({ base_url: fake.url, api_key: GOOD_KEY });
    expect(other.json().is_connected).toBe(true);
    expect((await config('GET')).json()).toMatchObject({ is_connected: false, base_url: `http://127.0.0.1:${port}/v1` });
    await config('PUT', { base_url: null });
  }, 30_000);

  test('another user never sees this configuration', async () => {
    const stranger = await signUp(ctx.app);
    const response = await config('GET', undefined, stranger.token);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'No chat-model configuration' });
    expect((await config('PUT', { model: 'gpt-4o' }, stranger.token)).statusCode).toBe(404);
    expect((await config('DELETE', undefined, stranger.token)).statusCode).toBe(404);
    // The stranger's test does not use (or touch) this user's key.
    const test = await testKey({}, stranger.token);
    expect(test.statusCode).toBe(422);
    expect((await config('GET')).json().has_api_key).toBe(true);
  });

  test('delete answers 204, then the configuration is gone', async () => {
    const deleted = await config('DELETE');
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await config('GET')).statusCode).toBe(404);
    expect(await storedRow()).toBeUndefined();
    expect((await config('DELETE')).statusCode).toBe(404);
  });

  test('with neither a key nor a configuration, the test answers the key-required 422 in en and pt', async () => {
    for (const body of [undefined, {}, { api_key: '' }, { api_key: '   ' }, { api_key: null }]) {
      const response = await testKey(body);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: 'Please enter your ChatGPT API Key' });
    }
    const pt = await testKey({ api_key: '' }, token, { 'accept-language': 'pt-BR' });
    expect(pt.statusCode).toBe(422);
    expect(pt.json()).toEqual({ detail: 'Por favor, informe sua chave de API do ChatGPT' });
  });

  test('create requires a key (same message) and accepts base_url and model', async () => {
    for (const body of [{}, { api_key: '' }, { api_key: null, model: 'gpt-4o' }]) {
      const response = await config('POST', body);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ detail: 'Please enter your ChatGPT API Key' });
    }
    const pt = await config('POST', { api_key: ' ' }, token, { 'accept-language': 'pt-BR' });
    expect(pt.json()).toEqual({ detail: 'Por favor, informe sua chave de API do ChatGPT' });
    expect((await config('POST', { api_key: GOOD_KEY, base_url: 'mailto:x@example.com' })).statusCode).toBe(422);
    expect(await storedRow()).toBeUndefined();

    const created = await config('POST', { api_key: GOOD_KEY, base_url: fake.url, model: 'gpt-4.1-mini' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ base_url: fake.url, model: 'gpt-4.1-mini', is_connected: false });
  });
});

test('every call needs a session', async () => {
  for (const [method, url] of [
    ['GET', '/api/v1/chatgpt/config'],
    ['POST', '/api/v1/chatgpt/config'],
    ['PUT', '/api/v1/chatgpt/config'],
    ['DELETE', '/api/v1/chatgpt/config'],
    ['POST', '/api/v1/chatgpt/test'],
  ] as const) {
    const response = await call(ctx.app, method, url, {
      body: method === 'GET' || method === 'DELETE' ? undefined : { api_key: GOOD_KEY },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'Not authenticated' });
  }
  expect((await call(ctx.app, 'GET', '/api/v1/chatgpt/config', { token: 'not-a-token' })).statusCode).toBe(401);
});

describe('the chat-model client against the fake API', () => {
  const client = (overrides: Partial<Parameters<typeof createChatModelClient>[0]> = {}) =>
    createChatModelClient({ apiKey: GOOD_KEY, baseUrl: fake.url, model: 'gpt-4o-mini', ...overrides });

  beforeEach(() => fake.reset());
  afterEach(() => fake.setResponder(undefined));

  test('complete() sends the system prompt first and answers the text', async () => {
    fake.setResponder(
      (request) => `model ${request.model}, ${request.messages.length} messages, temperature ${request.temperature}`,
    );
    const text = await client().complete({
      system: 'You write stories.',
      messages: [{ role: 'user', content: 'Hello' }],
      temperature: 0.5,
      maxTokens: 50,
    });
    expect(text).toBe('model gpt-4o-mini, 2 messages, temperature 0.5');
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      body: {
        model: 'gpt-4o-mini',
        max_tokens: 50,
        messages: [
          { role: 'system', content: 'You write stories.' },
          { role: 'user', content: 'Hello' },
        ],
      },
    });
    fake.setResponder(undefined);
    expect(await client().complete({ messages: [{ role: 'user', content: 'Say hi' }] })).toBe('Echo: Say hi');
  });

  test('retries a 429 and a 500, then succeeds', async () => {
    fake.setFailure(429, 1, { retryAfterMs: 5 });
    expect(await client().complete({ messages: [{ role: 'user', content: 'one' }] })).toBe('Echo: one');
    fake.setFailure(500, 2, { retryAfterMs: 5 });
    expect(await client().complete({ messages: [{ role: 'user', content: 'two' }] })).toBe('Echo: two');
    expect(fake.requests).toHaveLength(5);
  });

  test('gives up after two retries with the status, never the text the server answered, nor the key', async () => {
    fake.setFailure(500, 3, { retryAfterMs: 5 });
    const result = await client().testConnection();
    expect(result).toMatchObject({ ok: false, status: 500, kind: 'api_error', error: 'the server answered HTTP 500' });
    expect(fake.requests).toHaveLength(3);
    await expect(client({ apiKey: WRONG_KEY }).complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      message: 'invalid key',
      kind: 'invalid_key',
      status: 401,
    });
    const unknownModel = await client({ model: 'no-such-model' })
      .complete({ messages: [{ role: 'user', content: 'x' }] })
      .catch((error: Error) => error);
    expect((unknownModel as Error).message).toBe('the server answered HTTP 404');
  });

  test('a server without /models is tested with a one-token completion', async () => {
    const bare = await startFakeOpenAI({ apiKeys: [GOOD_KEY], modelsEndpoint: false });
    try {
      const ok = await createChatModelClient({ apiKey: GOOD_KEY, baseUrl: bare.url, model: 'gpt-4o-mini' }).testConnection();
      expect(ok).toEqual({ ok: true });
      expect(bare.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
      expect(bare.requests[1]!.body).toMatchObject({ max_tokens: 1, model: 'gpt-4o-mini' });
      const bad = await createChatModelClient({ apiKey: WRONG_KEY, baseUrl: bare.url, model: 'gpt-4o-mini' }).testConnection();
      expect(bad).toEqual({ ok: false, error: 'invalid key', status: 401, kind: 'invalid_key' });
    } finally {
      await bare.close();
    }
  });

  test('a timeout reads as an unreachable server', async () => {
    fake.setDelay(500);
    const result = await client({ timeoutMs: 100, maxRetries: 0 }).testConnection();
    expect(result).toEqual({ ok: false, error: 'could not reach the server', kind: 'unreachable' });
  });

  test('the fake answers the documented shapes', async () => {
    const models = await fetch(`${fake.url}/models`, { headers: { authorization: `Bearer ${GOOD_KEY}` } });
    const list = (await models.json()) as { object: string; data: { id: string; object: string; owned_by: string }[] };
    expect(list.object).toBe('list');
    expect(list.data[0]).toMatchObject({ id: 'gpt-4o-mini', object: 'model', owned_by: 'openai', created: expect.any(Number) });
    const refused = await fetch(`${fake.url}/models`, { headers: { authorization: 'Bearer sk-unknown-key-1234abcd' } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      error: {
        message: expect.stringMatching(/^Incorrect API key provided: sk-\.\.\.abcd\./),
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    const completion = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${GOOD_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'one two three' }], max_tokens: 2 }),
    });
    expect(await completion.json()).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Echo:', refusal: null }, finish_reason: 'length' }],
      usage: { completion_tokens: 2 },
    });
  });
});
