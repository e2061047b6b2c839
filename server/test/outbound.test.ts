import http from 'node:http';
import net from 'node:net';
import { Response } from 'undici';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { closedPort } from '../fakes/proxies';
import { concatWav, parseWav, pcmToWav } from '../src/lib/wav';
import { providerErrorFromResponse } from '../src/providers/httpBodies';
import { closeSharedDispatchers, isProxySupported, proxyDispatcher } from '../src/providers/proxies';
import { fetchWithRetry, retryAfterMs } from '../src/providers/retry';
import { providerError } from './providerErrors';

const KEY = 'sk-test-outbound-key-0123456789abcdef';
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKeys: [KEY] });
});
afterEach(() => fake.reset());
afterAll(async () => {
  await closeSharedDispatchers();
  await fake.close();
});

const modelsUrl = () => `${fake.url}/models`;
const authed = { method: 'GET', headers: { authorization: `Bearer ${KEY}` } };
const fast = { timeoutMs: 5_000, maxRetries: 3, backoffBaseMs: 1 };

interface ProxyEntry {
  kind: 'forward' | 'connect';
  target: string;
  auth: string | undefined;
}

/**
 * A tiny HTTP proxy: forwards absolute-URI requests and opens CONNECT tunnels, recording each
 * with its Proxy-Authorization; with `credentials` it answers 407 to anything else.
 */
async function startTestProxy(credentials?: string) {
  const log: ProxyEntry[] = [];
  const expected = credentials ? `Basic ${Buffer.from(credentials).toString('base64')}` : undefined;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const auth = req.headers['proxy-authorization'];
    log.push({ kind: 'forward', target: req.url ?? '', auth });
    if (expected && auth !== expected) return res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
    const upstream = http.request(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const auth = req.headers['proxy-authorization'];
    log.push({ kind: 'connect', target: req.url ?? '', auth });
    if (expected && auth !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('fetchWithRetry', () => {
  test('retries a 429 and answers the success that follows', async () => {
    fake.setFailure(429, 2);
    const response = await fetchWithRetry(modelsUrl(), authed, fast);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { object: string }).object).toBe('list');
    expect(fake.requests).toHaveLength(3);
  });

  test('retries 5xx answers', async () => {
    fake.setFailure(503, 1);
    const response = await fetchWithRetry(modelsUrl(), authed, fast);
    expect(response.status).toBe(200);
    expect(fake.requests).toHaveLength(2);
  });

  test('gives up after maxRetries and answers the last status', async () => {
    fake.setFailure(500, 10);
    const response = await fetchWithRetry(modelsUrl(), authed, { ...fast, maxRetries: 2 });
    expect(response.status).toBe(500);
    expect(fake.requests).toHaveLength(3);
    const error = await providerErrorFromResponse(response, KEY);
    expect(error).toMatchObject({ kind: 'api_error', status: 500 });
    expect(error.message).toMatch(/^500 The server had an error/);
  });

  test('answers a non-retryable status at once', async () => {
    const response = await fetchWithRetry(
      modelsUrl(),
      { method: 'GET', headers: { authorization: 'Bearer sk-wrong-key-1234567890' } },
      fast,
    );
    expect(response.status).toBe(401);
    expect(fake.requests).toHaveLength(1);
  });

  test('honours retry-after-ms instead of the backoff', async () => {
    fake.setFailure(429, 1, { retryAfterMs: 300 });
    const started = Date.now();
    const response = await fetchWithRetry(modelsUrl(), authed, fast);
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  test('does not retry a 429 that reports an exhausted quota', async () => {
    fake.setFailure(429, 5, { code: 'insufficient_quota' });
    const response = await fetchWithRetry(modelsUrl(), authed, fast);
    expect(response.status).toBe(429);
    expect(fake.requests).toHaveLength(1);
    const error = await providerErrorFromResponse(response, KEY);
    expect(error.kind).toBe('quota');
    expect(error.message).toMatch(/^429 You exceeded your current quota/);
  });

  test('a custom retryOn decides which statuses are retried', async () => {
    fake.setFailure(429, 1);
    const response = await fetchWithRetry(modelsUrl(), authed, { ...fast, retryOn: () => false });
    expect(response.status).toBe(429);
    expect(fake.requests).toHaveLength(1);
  });

  test('a time-out, retried and still slow, is ProviderError unreachable', async () => {
    fake.setDelay(500);
    const started = Date.now();
    const error = await providerError(fetchWithRetry(modelsUrl(), authed, { timeoutMs: 100, maxRetries: 1, backoffBaseMs: 1 }));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toContain('no answer within 100 ms');
    expect(fake.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(450);
  });

  test('a refused connection is ProviderError unreachable with its code, after the retries', async () => {
    const port = await closedPort();
    const error = await providerError(fetchWithRetry(`http://127.0.0.1:${port}/v1/models`, authed, fast));
    expect(error).toMatchObject({ kind: 'unreachable', message: 'could not reach the server (ECONNREFUSED)' });
  });

  test("the caller's abort stops at once with its reason, without retrying", async () => {
    fake.setDelay(600);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 100);
    await expect(fetchWithRetry(modelsUrl(), authed, { ...fast, signal: controller.signal })).rejects.toThrow(
      'cancelled by the user',
    );
    expect(fake.requests).toHaveLength(1);
  });

  test('goes through an http proxy with the credentials of its URL', async () => {
    const proxy = await startTestProxy('proxy user:p@ss');
    try {
      const proxyUrl = `http://proxy%20user:p%40ss@127.0.0.1:${proxy.port}`;
      const response = await fetchWithRetry(modelsUrl(), authed, { ...fast, proxyUrl });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      expect(proxy.log).toHaveLength(1);
      expect(proxy.log[0]).toEqual({
        kind: 'connect',
        target: `127.0.0.1:${fake.port}`,
        auth: `Basic ${Buffer.from('proxy user:p@ss').toString('base64')}`,
      });
      expect(fake.requests).toHaveLength(1);

      // A dispatcher of its own, given per request.
      const dispatcher = proxyDispatcher(proxyUrl)!;
      const again = await fetchWithRetry(modelsUrl(), { ...authed, dispatcher }, fast);
      expect(again.status).toBe(200);
      await again.arrayBuffer();
      await dispatcher.close();
      expect(proxy.log).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });

  test('a proxy refusing the credentials is unreachable, not retried', async () => {
    const proxy = await startTestProxy('user:right');
    try {
      const error = await providerError(
        fetchWithRetry(modelsUrl(), authed, { ...fast, proxyUrl: `http://user:wrong@127.0.0.1:${proxy.port}` }),
      );
      expect(error.kind).toBe('unreachable');
      expect(error.message).toContain('407');
      expect(error.message).not.toContain('wrong');
      expect(proxy.log).toHaveLength(1);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await proxy.close();
    }
  });
});

describe('proxyDispatcher', () => {
  test('makes agents for http, https and socks5 proxies only', async () => {
    expect(proxyDispatcher(undefined)).toBeUndefined();
    expect(proxyDispatcher('  ')).toBeUndefined();
    expect(proxyDispatcher('socks4://127.0.0.1:1080')).toBeUndefined();
    expect(isProxySupported('socks4://127.0.0.1:1080')).toBe(false);
    expect(isProxySupported('not a url')).toBe(false);
    for (const url of ['http://127.0.0.1:8080', 'https://u:p@proxy.example:443', 'socks5://user:pass@127.0.0.1:1080']) {
      expect(isProxySupported(url)).toBe(true);
      const agent = proxyDispatcher(url);
      expect(agent).toBeDefined();
      await agent!.close();
    }
  });
});

describe('providerErrorFromResponse', () => {
  const answer = (status: number, body: unknown) =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });

  test('maps statuses and codes to kinds', async () => {
    await expect(
      providerErrorFromResponse(
        answer(401, { error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' } }),
        KEY,
      ),
    ).resolves.toMatchObject({
      kind: 'invalid_key',
      message: 'invalid key',
      status: 401,
    });
    await expect(
      providerErrorFromResponse(
        answer(401, { detail: { status: 'quota_exceeded', message: 'This request exceeds your quota of 10.' } }),
        KEY,
      ),
    ).resolves.toMatchObject({
      kind: 'quota',
      message: '401 This request exceeds your quota of 10.',
    });
    await expect(
      providerErrorFromResponse(answer(403, { error: { message: 'Your organization must be verified' } }), KEY),
    ).resolves.toMatchObject({
      kind: 'invalid_key',
      message: '403 Your organization must be verified',
    });
    await expect(
      providerErrorFromResponse(answer(404, { detail: { status: 'voice_not_found', message: 'A voice was not found.' } }), KEY),
    ).resolves.toMatchObject({
      kind: 'invalid_input',
      message: '404 A voice was not found.',
    });
    await expect(
      providerErrorFromResponse(answer(422, { detail: [{ loc: ['body', 'text'], msg: 'Field required' }] }), KEY),
    ).resolves.toMatchObject({
      kind: 'invalid_input',
      message: '422 text: Field required',
    });
    await expect(providerErrorFromResponse(answer(400, { detail: 'Bad things' }), KEY)).resolves.toMatchObject({
      kind: 'invalid_input',
      message: '400 Bad things',
    });
    await expect(providerErrorFromResponse(answer(502, '<html><body>Bad gateway</body></html>'), KEY)).resolves.toMatchObject({
      kind: 'api_error',
      message: '502 Bad gateway',
    });
  });

  test('never carries the key, and cuts long messages', async () => {
    const error = await providerErrorFromResponse(
      answer(400, { error: { message: `the key ${KEY} and sk-another-secret-key-xyz ${'x'.repeat(1000)}` } }),
      KEY,
    );
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain('sk-another-secret');
    expect(error.message.length).toBeLessThanOrEqual(300);
  });

  test('reads retry-after headers', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(Date.now() + 5_000).toUTCString() }))).toBeGreaterThan(3_000);
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});

describe('WAV files', () => {
  test('parses fmt and data chunks wherever they are, and an unknown data size', () => {
    const pcm = Buffer.alloc(480 * 2, 1);
    const wav = pcmToWav(pcm, { sampleRate: 24_000 });
    // A LIST chunk before fmt, and a streamed data size.
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc'), Buffer.alloc(1)]);
    const streamed = Buffer.concat([wav.subarray(0, 12), list, wav.subarray(12)]);
    streamed.writeUInt32LE(0xffffffff, streamed.length - pcm.length - 4);
    const parsed = parseWav(streamed);
    expect(parsed.format).toEqual({ audioFormat: 1, channels: 1, sampleRate: 24_000, bitsPerSample: 16, blockAlign: 2 });
    expect(parsed.data.equals(pcm)).toBe(true);
    expect(() => parseWav(Buffer.from('not a wav at all'))).toThrow('not a WAV file');
  });

  test('joins parts of one format and refuses mixed formats', () => {
    const a = pcmToWav(Buffer.alloc(100, 1), { sampleRate: 22_050 });
    const b = pcmToWav(Buffer.alloc(60, 2), { sampleRate: 22_050 });
    const joined = parseWav(concatWav([a, b]));
    expect(joined.data.length).toBe(160);
    expect(joined.format.sampleRate).toBe(22_050);
    expect(() => concatWav([a, pcmToWav(Buffer.alloc(10), { sampleRate: 24_000 })])).toThrow('different formats');
  });
});
