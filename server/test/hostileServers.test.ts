import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import type { Dispatcher } from 'undici';
import { sendDrip, sendRedirect, sendStream, sendWhole, startHostileServer, type HostileServer } from '../fakes/hostile';
import { fakePng, fakeSpeechPcm, fakeWav } from '../fakes/openai';
import { startHttpProxy, startSocks5Proxy, type ProxyRoute } from '../fakes/proxies';
import { userDispatcher, userFetch } from '../src/lib/egress';
import { createChatModelClient } from '../src/providers/chatModel';
import { createElevenLabsClient } from '../src/providers/elevenlabs';
import { MAX_ERROR_TEXT_BYTES, MAX_JSON_ANSWER_BYTES } from '../src/providers/httpBodies';
import { createOpenAIMediaClient } from '../src/providers/openaiMedia';
import { providerErrorFromResponse, readResponseBytes, withoutTags } from '../src/providers/httpBodies';
import { closeSharedDispatchers, proxyDispatcher } from '../src/providers/proxies';
import { fetchWithRetry } from '../src/providers/retry';
import { buildTestApp, call, signUp, type TestContext } from './helper';
import { providerError } from './providerErrors';

/**
 * Outside servers that answer to hurt (issue 28): error pages made to stall a regular expression,
 * answers that never end or drip a byte a second, redirects into this server's own network, names
 * that resolve to one address for the check and another for the proxy. Each is a real server on
 * 127.0.0.1, reached through the real clients; the API's latency and this process's memory are
 * measured beside them, against a baseline taken in the same test.
 */

const KEY = 'sk-test-hostile-0123456789abcdef';
const MB = 1024 * 1024;
let hostile: HostileServer;
let workDir: string;

beforeAll(async () => {
  hostile = await startHostileServer();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-'));
});
afterEach(() => hostile.reset());
afterAll(async () => {
  await closeSharedDispatchers();
  await hostile.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

const out = (name: string) => path.join(workDir, name);

// ---------------------------------------------------------------------------------------------
// The API stays responsive

/** GET /api/v1/health on a real port, one after another, until `stop()`: the longest answer time. */
function measureHealth(port: number) {
  let running = true;
  const times: number[] = [];
  const once = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.get({ host: '127.0.0.1', port, path: '/api/v1/health', agent: false }, (res) => {
        res.resume();
        res.on('end', () => {
          times.push(performance.now() - started);
          resolve();
        });
      });
      req.on('error', () => resolve());
    });
  const loop = (async () => {
    while (running) {
      await once();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    count: () => times.length,
    async stop(): Promise<{ max: number; count: number }> {
      running = false;
      await loop;
      return { max: Math.max(0, ...times), count: times.length };
    },
  };
}

describe('error answers are parsed in linear time (64 KiB of "<" and other shapes)', () => {
  let app: TestContext;
  let port: number;

  beforeAll(async () => {
    app = await buildTestApp();
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
  });

  const SHAPES: Array<[string, string]> = [
    ['64 KiB of "<"', '<'.repeat(64 * 1024)],
    ['"<a" with no end', `<a${'b'.repeat(64 * 1024)}`],
    ['64 KiB of "<<>"', '<<>'.repeat(22 * 1024)],
    ['spaces between words', `a${' '.repeat(64 * 1024)}b`],
    ['deep JSON', `{"error":${'['.repeat(32 * 1024)}`],
    [
      'a FastAPI detail of many parts',
      JSON.stringify({ detail: Array.from({ length: 3000 }, () => ({ msg: '<', loc: ['body', 'x'] })) }),
    ],
  ];

  test('a user’s speech, image and ElevenLabs servers answering them: the API answers health as fast as before', async () => {
    // The baseline: the API's health while nothing else runs (after a first answer, which may be slow).
    await measureHealth(port).stop();
    const idle = measureHealth(port);
    for (let waited = 0; idle.count() < 10 && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const baseline = await idle.stop();
    expect(baseline.count).toBeGreaterThanOrEqual(10);

    const busy = measureHealth(port);
    const started = performance.now();
    const speech = createOpenAIMediaClient({ baseUrl: `${hostile.url}/v1`, maxRetries: 0, timeoutMs: 20_000 });
    const eleven = createElevenLabsClient({
      apiKey: KEY,
      baseUrl: hostile.url,
      maxRetries: 1,
      backoffBaseMs: 1,
      timeoutMs: 20_000,
    });
    try {
      for (const [name, body] of SHAPES) {
        hostile.answer((_req, res, server) => sendWhole(res, server, 500, body, { 'content-type': 'text/html' }));
        const spoken = await providerError(speech.speak({ text: 'Hello.', voice: 'alloy', outFile: out('a.wav') }));
        expect([name, spoken.kind, spoken.status]).toEqual([name, 'api_error', 500]);
        expect(spoken.message.length).toBeLessThanOrEqual(300);
        const drawn = await providerError(speech.image({ prompt: 'a cat', outFile: out('a.png') }));
        expect([name, drawn.kind]).toEqual([name, 'api_error']);
        const narrated = await providerError(eleven.speak({ text: 'Hello.', voiceId: 'v1', outFile: out('b.wav') }));
        expect([name, narrated.status]).toEqual([name, 500]);
        // A 429 is read to see whether it reports an empty quota, before it is retried.
        hostile.answer((_req, res, server) => sendWhole(res, server, 429, body, { 'content-type': 'text/html' }));
        const limited = await providerError(eleven.speak({ text: 'Hello.', voiceId: 'v1', outFile: out('b.wav') }));
        expect([name, limited.status]).toEqual([name, 429]);
      }
    } finally {
      await speech.close();
      await eleven.close();
    }
    const elapsed = performance.now() - started;
    const during = await busy.stop();
    // Before: each of these answers stalled the whole process for seconds (health included).
    expect(during.max).toBeLessThan(Math.max(1500, 5 * baseline.max));
    expect(elapsed).toBeLessThan(30_000);
  }, 180_000);

  test('the tag stripper is linear and keeps the words', () => {
    expect(withoutTags('<p>Rate <b>limit</b> reached</p>').replace(/\s+/g, ' ').trim()).toBe('Rate limit reached');
    expect(withoutTags('before <unclosed and the rest').trim()).toBe('before');
    const started = performance.now();
    withoutTags('<'.repeat(4 * MB));
    withoutTags('<a'.repeat(2 * MB));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

// ---------------------------------------------------------------------------------------------
// Sizes and deadlines

/** A model list that never ends, made on the fly (400 MB unless stopped). */
function endlessModels(declare = false) {
  const entry = '{"id":"gpt-4o-mini","object":"model","created":1,"owned_by":"x"},';
  const chunk = entry.repeat(Math.ceil((64 * 1024) / entry.length));
  hostile.answer((req, res, server) => {
    if (!req.url?.endsWith('/models')) return sendWhole(res, server, 404, '{}');
    sendStream(res, server, {
      headers: { 'content-type': 'application/json' },
      head: '{"object":"list","data":[',
      chunk,
      totalBytes: 400 * MB,
      declare,
    });
  });
}

/** Peak RSS growth while `work` runs (sampled every 20 ms). */
async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number; ms: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - before, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

describe('answers are read up to a cap and within a deadline', () => {
  let app: TestContext;
  let token: string;

  beforeAll(async () => {
    app = await buildTestApp();
    token = (await signUp(app.app)).token;
  });
  afterAll(async () => {
    await app.close();
  });

  test('a chat-model connection test against a 400 MB /models answer fails at once, saying why, without the memory', async () => {
    endlessModels();
    const { result, growth, ms } = await peakRssGrowth(() =>
      call(app.app, 'POST', '/api/v1/chatgpt/test', { token, body: { api_key: KEY, base_url: `${hostile.url}/v1` } }),
    );
    expect(result.statusCode).toBe(200);
    expect(result.json()).toMatchObject({ is_connected: false });
    expect(result.json().detail).toMatch(/answer was too large/);
    expect(growth).toBeLessThan(100 * MB);
    expect(ms).toBeLessThan(20_000);
    expect(hostile.bytesSent).toBeLessThan(100 * MB);

    const pt = await call(app.app, 'POST', '/api/v1/chatgpt/test', {
      token,
      body: { api_key: KEY, base_url: `${hostile.url}/v1` },
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(pt.json().detail).toMatch(/resposta do servidor era grande demais/);
  }, 120_000);

  test('a content-length over the cap is refused before the body is read', async () => {
    endlessModels(true);
    const client = createChatModelClient({ apiKey: KEY, baseUrl: `${hostile.url}/v1`, model: 'gpt-4o-mini', maxRetries: 0 });
    const result = await client.testConnection();
    expect(result).toMatchObject({ ok: false, kind: 'too_large' });
    expect(hostile.bytesSent).toBeLessThan(64 * MB);
  }, 60_000);

  test('an answer that drips a byte a second ends at the deadline, headers and body alike', async () => {
    hostile.answer((_req, res, server) =>
      sendDrip(res, server, { headers: { 'content-type': 'application/json' }, body: '{"object":"list","data":[]}' }),
    );
    const client = createChatModelClient({
      apiKey: KEY,
      baseUrl: `${hostile.url}/v1`,
      model: 'gpt-4o-mini',
      maxRetries: 0,
      timeoutMs: 2000,
    });
    const started = performance.now();
    const result = await client.testConnection();
    const ms = performance.now() - started;
    expect(result).toMatchObject({ ok: false, kind: 'unreachable' });
    expect(ms).toBeGreaterThan(1500);
    expect(ms).toBeLessThan(8000);

    // The same with a chat completion: the answer never finishes, the call does.
    const completing = performance.now();
    await expect(client.complete({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ kind: 'unreachable' });
    expect(performance.now() - completing).toBeLessThan(8000);
  }, 60_000);

  test('a chat answer larger than any chat answer is refused', async () => {
    hostile.answer((_req, res, server) =>
      sendStream(res, server, {
        headers: { 'content-type': 'application/json' },
        head: '{"choices":[{"message":{"role":"assistant","content":"',
        chunk: 'a'.repeat(64 * 1024),
        totalBytes: MAX_JSON_ANSWER_BYTES * 3,
      }),
    );
    const client = createChatModelClient({ apiKey: KEY, baseUrl: `${hostile.url}/v1`, model: 'gpt-4o-mini', maxRetries: 0 });
    await expect(client.complete({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ kind: 'too_large' });
  }, 60_000);

  test('speech, images and their downloads: each has a cap, and a bigger answer is refused without being kept', async () => {
    const media = createOpenAIMediaClient({ baseUrl: `${hostile.url}/v1`, maxRetries: 0, timeoutMs: 30_000 });
    try {
      // Audio longer than six words can take to say.
      const wavHead = fakeWav(fakeSpeechPcm('one two', 24_000), 24_000).subarray(0, 44);
      hostile.answer((_req, res, server) =>
        sendStream(res, server, {
          headers: { 'content-type': 'audio/wav' },
          head: wavHead,
          chunk: Buffer.alloc(64 * 1024),
          totalBytes: 300 * MB,
        }),
      );
      const { result: speech, growth } = await peakRssGrowth(() =>
        providerError(media.speak({ text: 'One two three four five six.', voice: 'alloy', outFile: out('s.wav') })),
      );
      expect(speech.kind).toBe('too_large');
      expect(speech.message).toMatch(/answer was too large/);
      expect(growth).toBeLessThan(100 * MB);
      expect(fs.existsSync(out('s.wav'))).toBe(false);

      // An image JSON answer bigger than any image in base64.
      hostile.reset();
      hostile.answer((_req, res, server) =>
        sendStream(res, server, {
          headers: { 'content-type': 'application/json' },
          head: '{"data":[{"b64_json":"',
          chunk: 'A'.repeat(64 * 1024),
          totalBytes: 80 * MB,
        }),
      );
      expect((await providerError(media.image({ prompt: 'a cat', outFile: out('i.png') }))).kind).toBe('too_large');

      // An image left at a URL: 60 MB, declared (refused before reading) or not.
      for (const declare of [true, false]) {
        hostile.reset();
        hostile.answer((req, res, server) => {
          if (req.url?.startsWith('/v1/images')) {
            return sendWhole(res, server, 200, JSON.stringify({ data: [{ url: `${hostile.url}/big.png` }] }), {
              'content-type': 'application/json',
            });
          }
          sendStream(res, server, {
            headers: { 'content-type': 'image/png' },
            head: fakePng(64, 64, 'x'),
            chunk: Buffer.alloc(64 * 1024),
            totalBytes: 60 * MB,
            declare,
          });
        });
        const error = await providerError(media.image({ prompt: 'a cat', outFile: out('i.png') }));
        expect([declare, error.kind]).toEqual([declare, 'too_large']);
        expect(hostile.bytesSent).toBeLessThan(declare ? 16 * MB : 50 * MB);
      }
    } finally {
      await media.close();
    }
  }, 120_000);

  test('ElevenLabs: audio longer than the text takes to say is refused; an endless error page is read 8 KiB deep', async () => {
    const eleven = createElevenLabsClient({ apiKey: KEY, baseUrl: hostile.url, maxRetries: 0, timeoutMs: 30_000 });
    try {
      hostile.answer((_req, res, server) =>
        sendStream(res, server, {
          headers: { 'content-type': 'audio/pcm' },
          chunk: Buffer.alloc(64 * 1024),
          totalBytes: 200 * MB,
        }),
      );
      expect((await providerError(eleven.speak({ text: 'Hi.', voiceId: 'v1', outFile: out('e.wav') }))).kind).toBe('too_large');
      expect(hostile.bytesSent).toBeLessThan(50 * MB);

      hostile.reset();
      hostile.answer((_req, res, server) =>
        sendStream(res, server, {
          status: 500,
          headers: { 'content-type': 'text/html' },
          chunk: '<'.repeat(64 * 1024),
          totalBytes: 400 * MB,
        }),
      );
      const started = performance.now();
      const failed = await providerError(eleven.speak({ text: 'Hi.', voiceId: 'v1', outFile: out('e.wav') }));
      expect(failed).toMatchObject({ kind: 'api_error', status: 500 });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(hostile.bytesSent).toBeLessThan(50 * MB);
    } finally {
      await eleven.close();
    }
  }, 60_000);

  test('readResponseBytes: a cap of the caller’s, content-length first, and the deadline while reading', async () => {
    hostile.answer((_req, res, server) =>
      sendStream(res, server, { chunk: Buffer.alloc(64 * 1024), totalBytes: 10 * MB, declare: true }),
    );
    const declared = await fetchWithRetry(`${hostile.url}/file`, {}, { timeoutMs: 10_000, maxRetries: 0 });
    expect((await providerError(readResponseBytes(declared, 1 * MB))).kind).toBe('too_large');

    hostile.answer((_req, res, server) => sendStream(res, server, { chunk: Buffer.alloc(64 * 1024), totalBytes: 10 * MB }));
    const streamed = await fetchWithRetry(`${hostile.url}/file`, {}, { timeoutMs: 10_000, maxRetries: 0 });
    expect((await providerError(readResponseBytes(streamed, { maxBytes: 1 * MB }))).kind).toBe('too_large');
    const whole = await fetchWithRetry(`${hostile.url}/file`, {}, { timeoutMs: 10_000, maxRetries: 0 });
    expect((await readResponseBytes(whole, 20 * MB)).length).toBe(10 * MB);

    hostile.answer((_req, res, server) => sendDrip(res, server, { body: 'x'.repeat(60) }));
    const dripping = await fetchWithRetry(`${hostile.url}/file`, {}, { timeoutMs: 1500, maxRetries: 0 });
    const slow = await providerError(readResponseBytes(dripping, 1 * MB));
    expect(slow.kind).toBe('unreachable');
    expect(slow.message).toMatch(/took too long/);

    // An error answer: its first 8 KiB, whatever it sends.
    hostile.answer((_req, res, server) =>
      sendStream(res, server, { status: 502, chunk: '{"error":{"message":"', totalBytes: 100 * MB }),
    );
    const failing = await fetchWithRetry(`${hostile.url}/file`, {}, { timeoutMs: 10_000, maxRetries: 0 });
    const error = await providerErrorFromResponse(failing, KEY);
    expect(error).toMatchObject({ kind: 'api_error', status: 502 });
    expect(error.message.length).toBeLessThanOrEqual(300);
    expect(MAX_ERROR_TEXT_BYTES).toBeLessThanOrEqual(8 * 1024);
  }, 60_000);

  test('redirects are followed by hand, a few at most, and a key never follows one to another host', async () => {
    const other = await startHostileServer();
    try {
      other.answer((_req, res, server) => sendWhole(res, server, 200, 'moved here'));
      hostile.answer((req, res) => {
        const hop = Number(new URL(req.url ?? '/', hostile.url).searchParams.get('hop') ?? '0');
        if (req.url?.startsWith('/loop')) return sendRedirect(res, `/loop?hop=${hop + 1}`);
        sendRedirect(res, `${other.url}/there`, 307);
      });
      const loop = await providerError(fetchWithRetry(`${hostile.url}/loop`, {}, { timeoutMs: 10_000, maxRetries: 0 }));
      expect(loop.message).toMatch(/redirected more than 5 times/);
      expect(hostile.requests.length).toBe(6);

      let seenKey: string | undefined = 'unset';
      other.answer((req, res, server) => {
        seenKey = req.headers['xi-api-key'] as string | undefined;
        sendWhole(res, server, 200, 'moved here');
      });
      const moved = await fetchWithRetry(
        `${hostile.url}/away`,
        { method: 'POST', body: '{}', headers: { 'xi-api-key': KEY, 'content-type': 'application/json' } },
        { timeoutMs: 10_000, maxRetries: 0 },
      );
      expect(moved.status).toBe(200);
      expect(await readResponseBytes(moved, 1024)).toEqual(Buffer.from('moved here'));
      expect(seenKey).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// An admin's proxy: every hop checked, the proxy sent to the checked address

/** An address the console's checks take for public; the fake proxies connect it to `remote`. */
const PUBLIC_IP = '93.184.216.34';
const PUBLIC_PORT = 8080;

describe('through an admin’s proxy, users’ addresses stay public', () => {
  let remote: HostileServer;
  let secret: HostileServer;
  let httpProxy: Awaited<ReturnType<typeof startHttpProxy>>;
  let socksProxy: Awaited<ReturnType<typeof startSocks5Proxy>>;
  let lookup: jest.SpyInstance;

  beforeAll(async () => {
    remote = await startHostileServer();
    secret = await startHostileServer();
    secret.answer((_req, res, server) =>
      sendWhole(res, server, 200, '{"object":"list","data":[]}', { 'content-type': 'application/json' }),
    );
    const route: ProxyRoute = (host, port) => (host === PUBLIC_IP ? { host: '127.0.0.1', port: remote.port } : { host, port });
    httpProxy = await startHttpProxy({ route });
    socksProxy = await startSocks5Proxy({ route });
    // Names of this test: one that resolves to the public address, one to a private one.
    const original = dns.promises.lookup.bind(dns.promises);
    lookup = jest.spyOn(dns.promises, 'lookup').mockImplementation((async (host: string, options?: unknown) => {
      const address = host === 'media.example.test' ? PUBLIC_IP : host === 'inside.example.test' ? '10.0.0.7' : undefined;
      if (!address) return (original as (h: string, o?: unknown) => Promise<unknown>)(host, options);
      const entry = { address, family: 4 };
      return (options as { all?: boolean } | undefined)?.all ? [entry] : entry;
    }) as unknown as typeof dns.promises.lookup);
  });
  afterEach(() => {
    remote.reset();
    secret.reset();
    httpProxy.tunnels.length = 0;
    socksProxy.tunnels.length = 0;
    socksProxy.addressTypes.length = 0;
  });
  afterAll(async () => {
    lookup.mockRestore();
    await Promise.all([remote.close(), secret.close(), httpProxy.close(), socksProxy.close()]);
  });

  const proxies = () =>
    [
      ['http', `http://127.0.0.1:${httpProxy.port}`, httpProxy],
      ['socks5', `socks5://127.0.0.1:${socksProxy.port}`, socksProxy],
    ] as const;

  test.each(['http', 'socks5'] as const)(
    '%s: a redirect to 127.0.0.1 is refused, for the chat model and for speech',
    async (kind) => {
      const [, url, log] = proxies().find(([name]) => name === kind)!;
      const proxy = proxyDispatcher(url)!;
      try {
        remote.answer((_req, res) => sendRedirect(res, `http://127.0.0.1:${secret.port}/v1/models`, 307));
        const chat = createChatModelClient({
          apiKey: KEY,
          baseUrl: `http://${PUBLIC_IP}:${PUBLIC_PORT}/v1`,
          model: 'gpt-4o-mini',
          maxRetries: 0,
          fetch: userFetch({ allowPrivate: false, proxy }) as never,
        });
        expect(await chat.testConnection()).toMatchObject({ ok: false, kind: 'blocked' });

        const media = createOpenAIMediaClient({
          baseUrl: `http://${PUBLIC_IP}:${PUBLIC_PORT}/v1`,
          dispatcher: userDispatcher({ allowPrivate: false, proxy }),
          maxRetries: 0,
        });
        expect((await providerError(media.speak({ text: 'Hello.', voice: 'alloy', outFile: out('p.wav') }))).kind).toBe(
          'blocked',
        );
        await media.close();

        expect(remote.requests.length).toBe(2);
        expect(secret.requests).toEqual([]);
        expect(log.tunnels.every((tunnel) => tunnel === `${PUBLIC_IP}:${PUBLIC_PORT}`)).toBe(true);
      } finally {
        await proxy.close();
      }
    },
  );

  test.each(['http', 'socks5'] as const)(
    '%s: an image answered at a private URL is not downloaded, whoever answered',
    async (kind) => {
      const [, url] = proxies().find(([name]) => name === kind)!;
      const proxy = proxyDispatcher(url)!;
      try {
        remote.answer((_req, res, server) =>
          sendWhole(res, server, 200, JSON.stringify({ data: [{ url: `http://127.0.0.1:${secret.port}/image.png` }] }), {
            'content-type': 'application/json',
          }),
        );
        // The operator's own API root goes through the proxy as it is; the image URL it answers does not.
        const media = createOpenAIMediaClient({
          baseUrl: `http://${PUBLIC_IP}:${PUBLIC_PORT}/v1`,
          dispatcher: proxy,
          downloadDispatcher: userDispatcher({ allowPrivate: false, proxy }),
          maxRetries: 0,
        });
        const error = await providerError(media.image({ prompt: 'a cat', outFile: out('p.png') }));
        expect(error.kind).toBe('blocked');
        expect(secret.requests).toEqual([]);
        await media.close();
      } finally {
        await proxy.close();
      }
    },
  );

  test.each(['http', 'socks5'] as const)(
    '%s: the proxy is asked for the checked address, the name kept for the Host header',
    async (kind) => {
      const [, url, log] = proxies().find(([name]) => name === kind)!;
      const proxy = proxyDispatcher(url)!;
      try {
        remote.answer((_req, res, server) =>
          sendWhole(res, server, 200, '{"object":"list","data":[]}', { 'content-type': 'application/json' }),
        );
        const chat = createChatModelClient({
          apiKey: KEY,
          baseUrl: `http://media.example.test:${PUBLIC_PORT}/v1`,
          model: 'gpt-4o-mini',
          maxRetries: 0,
          fetch: userFetch({ allowPrivate: false, proxy }) as never,
        });
        expect(await chat.testConnection()).toEqual({ ok: true });
        expect(log.tunnels).toEqual([`${PUBLIC_IP}:${PUBLIC_PORT}`]);
        if (kind === 'socks5') expect(socksProxy.addressTypes).toEqual([1]);
        expect(remote.requests.map((r) => r.host)).toEqual([`media.example.test:${PUBLIC_PORT}`]);

        // A name that leads to a private address: refused before the proxy hears of it.
        log.tunnels.length = 0;
        const inside = createChatModelClient({
          apiKey: KEY,
          baseUrl: `http://inside.example.test:${PUBLIC_PORT}/v1`,
          model: 'gpt-4o-mini',
          maxRetries: 0,
          fetch: userFetch({ allowPrivate: false, proxy }) as never,
        });
        expect(await inside.testConnection()).toMatchObject({ ok: false, kind: 'blocked' });
        expect(log.tunnels).toEqual([]);
      } finally {
        await proxy.close();
      }
    },
  );

  test('the operator’s own addresses still go through the proxy by name', async () => {
    const proxy = proxyDispatcher(`http://127.0.0.1:${httpProxy.port}`)! as Dispatcher;
    try {
      secret.reset();
      const response = await fetchWithRetry(
        `http://127.0.0.1:${secret.port}/v1/models`,
        { dispatcher: proxy },
        { timeoutMs: 5000, maxRetries: 0 },
      );
      expect(response.status).toBe(200);
      await readResponseBytes(response, 1024);
      expect(httpProxy.tunnels).toEqual([`127.0.0.1:${secret.port}`]);
    } finally {
      await proxy.close();
    }
  });
});
