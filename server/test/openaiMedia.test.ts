import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Agent, fetch as undiciFetch } from 'undici';
import { FAKE_SECONDS_PER_WORD, countWords, startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { closedPort, startHttpProxy } from '../fakes/proxies';
import { userDispatcher } from '../src/lib/egress';
import { narrationPieces } from '../src/pipeline/steps/generatingAudios';
import { OPENAI_SPEECH_MAX_CHARS, createOpenAIMediaClient, type OpenAIMediaClient } from '../src/providers/openaiMedia';
import { ProviderError } from '../src/providers/providerError';
import { providerError } from './providerErrors';

const KEY = 'sk-test-media-key-0123456789abcdefWXYZ';
const WRONG_KEY = 'sk-test-wrong-media-key-000000000000';
let fake: FakeOpenAI;
let dir: string;
let client: OpenAIMediaClient;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKeys: [KEY], refusePrompt: (prompt) => prompt.includes('forbidden') });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-openai-media-'));
  client = createOpenAIMediaClient({ apiKey: KEY, baseUrl: fake.url, timeoutMs: 5_000, maxRetries: 2 });
});
afterEach(() => fake.reset());
afterAll(async () => {
  await client.close();
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A WAV's format and sample count, read independently of the code under test. */
function readWav(file: string) {
  const bytes = fs.readFileSync(file);
  expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
  expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
  expect(bytes.toString('ascii', 8, 12)).toBe('WAVE');
  let offset = 12;
  let format: { audioFormat: number; channels: number; sampleRate: number; bitsPerSample: number } | undefined;
  let dataBytes = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      format = {
        audioFormat: bytes.readUInt16LE(offset + 8),
        channels: bytes.readUInt16LE(offset + 10),
        sampleRate: bytes.readUInt32LE(offset + 12),
        bitsPerSample: bytes.readUInt16LE(offset + 22),
      };
    }
    if (id === 'data') dataBytes = size;
    offset += 8 + size + (size % 2);
  }
  expect(format).toBeDefined();
  const samples = dataBytes / (format!.channels * (format!.bitsPerSample / 8));
  return { ...format!, samples, seconds: samples / format!.sampleRate };
}

/** Width and height from a PNG's IHDR, after checking the signature and that the pixels inflate. */
function readPng(file: string) {
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(bytes.toString('ascii', 12, 16)).toBe('IHDR');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let offset = 8; offset < bytes.length;) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    expect(zlib.crc32(bytes.subarray(offset + 4, offset + 8 + length))).toBe(bytes.readUInt32BE(offset + 8 + length));
    if (type === 'IDAT') idat.push(body);
    offset += 12 + length;
  }
  expect(zlib.inflateSync(Buffer.concat(idat)).length).toBe(height * (1 + width * 3));
  return { width, height };
}

const expectedSeconds = (text: string) => Math.max(1, countWords(text) * FAKE_SECONDS_PER_WORD);

/** The rejection of a promise that must reject, and how long it took. */
async function timedRejection(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeDefined();
  return { error, ms: Date.now() - started };
}

describe('speak', () => {
  test('writes a WAV whose duration matches the text', async () => {
    const text = 'Once upon a time, in a quiet village by the sea, there lived an old fisherman and his cat.';
    const outFile = path.join(dir, 'short.wav');
    await client.speak({ text, voice: 'nova', instructions: 'Speak warmly.', outFile });
    const wav = readWav(outFile);
    expect(wav).toMatchObject({ audioFormat: 1, channels: 1, sampleRate: 24_000, bitsPerSample: 16 });
    expect(wav.seconds).toBeCloseTo(expectedSeconds(text), 2);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/audio/speech',
      apiKey: KEY,
      body: { model: 'gpt-4o-mini-tts', input: text, voice: 'nova', response_format: 'wav', instructions: 'Speak warmly.' },
    });
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('refuses a text over 4096 characters, and an empty one, before any request', async () => {
    const text = 'This is a sentence of a story that goes on. '.repeat(100).trim();
    expect(text.length).toBeGreaterThan(OPENAI_SPEECH_MAX_CHARS);
    const tooLong = await providerError(client.speak({ text, voice: 'alloy', outFile: path.join(dir, 'long.wav') }));
    expect(tooLong).toMatchObject({ kind: 'invalid_input', status: undefined });
    expect(tooLong.message).toMatch(/at most 4096/);
    const empty = await providerError(client.speak({ text: ' \n ', voice: 'alloy', outFile: path.join(dir, 'empty.wav') }));
    expect(empty.kind).toBe('invalid_input');
    expect(fake.requests).toHaveLength(0);
    expect(fs.existsSync(path.join(dir, 'long.wav'))).toBe(false);
  });

  test('speaks a text of exactly 4096 characters in one request', async () => {
    const text = 'word '.repeat(820).slice(0, OPENAI_SPEECH_MAX_CHARS - 1) + '.';
    expect(text.length).toBe(OPENAI_SPEECH_MAX_CHARS);
    const outFile = path.join(dir, 'limit.wav');
    await client.speak({ text, voice: 'alloy', outFile });
    expect(readWav(outFile).seconds).toBeCloseTo(expectedSeconds(text), 2);
    expect(fake.requests).toHaveLength(1);
  });

  test('retries a rate limit, then succeeds', async () => {
    fake.setFailure(429, 2, { retryAfterMs: 1 });
    const outFile = path.join(dir, 'retried.wav');
    await client.speak({ text: 'Hello there.', voice: 'alloy', outFile });
    expect(readWav(outFile).seconds).toBeCloseTo(1, 3);
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests.every((r) => r.path === '/v1/audio/speech' && r.apiKey === KEY)).toBe(true);
  });

  test('retries server errors, then succeeds', async () => {
    fake.setFailure(500, 2, { retryAfterMs: 1 });
    const outFile = path.join(dir, 'retried-500.wav');
    await client.speak({ text: 'Hello again.', voice: 'alloy', outFile });
    expect(readWav(outFile).sampleRate).toBe(24_000);
    expect(fake.requests).toHaveLength(3);
  });

  test('a server error that outlasts the retries is ProviderError api_error with its status', async () => {
    fake.setFailure(503, 3, { retryAfterMs: 1, message: 'The engine is currently overloaded.' });
    const error = await providerError(client.speak({ text: 'Hello.', voice: 'alloy', outFile: path.join(dir, 'busy.wav') }));
    expect(error).toMatchObject({ kind: 'api_error', status: 503, message: '503 The engine is currently overloaded.' });
    expect(fake.requests).toHaveLength(3);
  });

  test('an HTML error page is ProviderError with its text, not its markup', async () => {
    fake.setFailure(400, 1, { rawBody: '<html><body><h1>Bad request</h1> from the gateway</body></html>' });
    const error = await providerError(client.speak({ text: 'Hello.', voice: 'alloy', outFile: path.join(dir, 'html.wav') }));
    expect(error).toMatchObject({ kind: 'invalid_input', status: 400, message: '400 Bad request from the gateway' });
  });

  test('a refused key is ProviderError invalid_key without the key', async () => {
    const wrong = createOpenAIMediaClient({ apiKey: WRONG_KEY, baseUrl: fake.url, maxRetries: 0 });
    const error = await providerError(wrong.speak({ text: 'Hello.', voice: 'alloy', outFile: path.join(dir, 'never.wav') }));
    expect(error).toMatchObject({ kind: 'invalid_key', status: 401, message: 'invalid key' });
    expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain(WRONG_KEY);
    expect(fs.existsSync(path.join(dir, 'never.wav'))).toBe(false);
    await wrong.close();
  });

  test('an answer that quotes the key never puts it in the error', async () => {
    fake.setFailure(400, 1, { message: `The key ${KEY} may not use this voice.` });
    const error = await providerError(client.speak({ text: 'Hello.', voice: 'alloy', outFile: path.join(dir, 'quoted.wav') }));
    expect(error).toMatchObject({ kind: 'invalid_input', status: 400 });
    expect(error.message).toBe('400 The key *** may not use this voice.');
    expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain(KEY);
  });

  test('an exhausted quota is ProviderError quota, not retried', async () => {
    fake.setFailure(429, 5, { code: 'insufficient_quota' });
    const error = await providerError(client.speak({ text: 'Hello.', voice: 'alloy', outFile: path.join(dir, 'quota.wav') }));
    expect(error).toMatchObject({ kind: 'quota', status: 429 });
    expect(fake.requests).toHaveLength(1);
  });

  test('an unknown voice is ProviderError invalid_input with the API message', async () => {
    const error = await providerError(client.speak({ text: 'Hello.', voice: 'robot', outFile: path.join(dir, 'robot.wav') }));
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toMatch(/^400 Invalid value: 'robot'/);
  });

  test('goes through an http proxy', async () => {
    const proxy = await startHttpProxy({ username: 'u', password: 'p' });
    const proxied = createOpenAIMediaClient({ apiKey: KEY, baseUrl: fake.url, proxyUrl: `http://u:p@127.0.0.1:${proxy.port}` });
    try {
      await proxied.speak({ text: 'Through the proxy.', voice: 'alloy', outFile: path.join(dir, 'proxied.wav') });
      expect(proxy.tunnels).toEqual([`127.0.0.1:${fake.port}`]);
      expect(proxy.requests).toEqual([`POST 127.0.0.1:${fake.port}/v1/audio/speech`]);
      expect(fake.requests).toHaveLength(1);
      expect(readWav(path.join(dir, 'proxied.wav')).sampleRate).toBe(24_000);
    } finally {
      await proxied.close();
      await proxy.close();
    }
  });

  test('a proxy refusing the credentials is ProviderError unreachable, not retried', async () => {
    const proxy = await startHttpProxy({ username: 'u', password: 'right' });
    const refused = createOpenAIMediaClient({
      apiKey: KEY,
      baseUrl: fake.url,
      proxyUrl: `http://u:wrong@127.0.0.1:${proxy.port}`,
      maxRetries: 4,
    });
    try {
      const { error, ms } = await timedRejection(
        refused.speak({ text: 'Hello.', voice: 'alloy', outFile: path.join(dir, 'refused.wav') }),
      );
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ kind: 'unreachable', message: 'could not reach the server (the proxy answered 407)' });
      expect(proxy.refusals).toBe(1);
      // Four retries would wait at least 0.5 + 1 + 2 + 4 s, less a quarter of jitter.
      expect(ms).toBeLessThan(3_000);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await refused.close();
      await proxy.close();
    }
  });

  test('uses a given dispatcher for every request, and close() leaves it open', async () => {
    const seen: string[] = [];
    const agent = new Agent();
    const recording = agent.compose((dispatch) => (opts, handler) => {
      seen.push(`${opts.method} ${String(opts.origin)}${opts.path}`);
      return dispatch(opts, handler);
    });
    const given = createOpenAIMediaClient({ apiKey: KEY, baseUrl: fake.url, dispatcher: recording });
    try {
      await given.speak({ text: 'Through my dispatcher.', voice: 'alloy', outFile: path.join(dir, 'given.wav') });
      expect(seen).toEqual([`POST http://127.0.0.1:${fake.port}/v1/audio/speech`]);
      await given.close();
      const still = await undiciFetch(`${fake.url}/models`, {
        dispatcher: recording,
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(still.status).toBe(200);
      await still.arrayBuffer();
    } finally {
      await agent.close();
    }
  });

  test('an address the egress guard refuses is ProviderError blocked, at once and not retried', async () => {
    const guarded = createOpenAIMediaClient({
      apiKey: KEY,
      baseUrl: fake.url,
      dispatcher: userDispatcher({ allowPrivate: false })!,
      maxRetries: 4,
    });
    const { error, ms } = await timedRejection(
      guarded.speak({ text: 'Hello.', voice: 'alloy', outFile: path.join(dir, 'blocked.wav') }),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'blocked', message: 'this address is not allowed' });
    expect(ms).toBeLessThan(3_000);
    expect(fake.requests).toHaveLength(0);
    await guarded.close();
  });

  test('a server that refuses connections is ProviderError unreachable with the code, after the retries', async () => {
    const port = await closedPort();
    const nowhere = createOpenAIMediaClient({ apiKey: KEY, baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 1 });
    const error = await providerError(nowhere.speak({ text: 'Hello.', voice: 'alloy', outFile: path.join(dir, 'nowhere.wav') }));
    expect(error).toMatchObject({ kind: 'unreachable', message: 'could not reach the server (ECONNREFUSED)' });
    await nowhere.close();
  });

  test("the caller's abort stops a request at once, with its reason", async () => {
    fake.setDelay(3_000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 100);
    const outFile = path.join(dir, 'aborted.wav');
    const { error, ms } = await timedRejection(
      client.speak({ text: 'Hello.', voice: 'alloy', outFile, signal: controller.signal }),
    );
    expect(error).toEqual(new Error('cancelled by the user'));
    expect(ms).toBeLessThan(2_000);
    expect(fake.requests).toHaveLength(1);
    expect(fs.existsSync(outFile)).toBe(false);
  });

  test("the caller's abort stops the wait before a retry too", async () => {
    // The client waits what retry-after-ms asks (2 s here) before its next attempt.
    fake.setFailure(503, 5, { retryAfterMs: 2_000 });
    const controller = new AbortController();
    const outFile = path.join(dir, 'aborted-wait.wav');
    const speaking = client.speak({ text: 'Hello.', voice: 'alloy', outFile, signal: controller.signal });
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    setTimeout(() => controller.abort(new Error('stopped while waiting')), 50);
    const { error, ms } = await timedRejection(speaking);
    expect(error).toEqual(new Error('stopped while waiting'));
    expect(ms).toBeLessThan(1_500);
    // The client's own timer cannot be cancelled: once it runs out, the client sees the abort and
    // sends nothing more. Waited for here, so that nothing outlives the test.
    await new Promise((resolve) => setTimeout(resolve, 2_100 - ms));
    expect(fake.requests).toHaveLength(1);
    expect(fs.existsSync(outFile)).toBe(false);
  });
});

describe('without a key', () => {
  test('sends no Authorization header at all, to speech and images', async () => {
    const local = await startFakeOpenAI({ keyless: true, speechModels: ['kokoro'], imageModels: ['dall-e-3'] });
    const keyless = createOpenAIMediaClient({ baseUrl: local.url, speechModel: 'kokoro', imageModel: 'dall-e-3' });
    try {
      await keyless.speak({ text: 'A local voice.', voice: 'alloy', outFile: path.join(dir, 'local.wav') });
      await keyless.image({ prompt: 'A local lighthouse', outFile: path.join(dir, 'local.png') });
      expect(readWav(path.join(dir, 'local.wav')).sampleRate).toBe(24_000);
      expect(readPng(path.join(dir, 'local.png'))).toEqual({ width: 1792, height: 1024 });
      expect(local.requests.map((r) => r.path)).toEqual(['/v1/audio/speech', '/v1/images/generations']);
      for (const request of local.requests) {
        expect(request.apiKey).toBeNull();
        expect(request.headers).not.toHaveProperty('authorization');
      }
    } finally {
      await keyless.close();
      await local.close();
    }
  });

  test('a server that wants a key refuses it: ProviderError invalid_key', async () => {
    const keyless = createOpenAIMediaClient({ baseUrl: fake.url, maxRetries: 0 });
    const error = await providerError(keyless.speak({ text: 'Hello.', voice: 'alloy', outFile: path.join(dir, 'nokey.wav') }));
    expect(error).toMatchObject({ kind: 'invalid_key', status: 401, message: 'invalid key' });
    expect(fake.requests[0]!.headers).not.toHaveProperty('authorization');
    await keyless.close();
  });
});

describe('image', () => {
  test('writes a 1536x1024 PNG with gpt-image-1', async () => {
    const outFile = path.join(dir, 'scene.png');
    await client.image({ prompt: 'A lighthouse at dusk', outFile });
    expect(readPng(outFile)).toEqual({ width: 1536, height: 1024 });
    expect(fake.requests[0]).toMatchObject({
      path: '/v1/images/generations',
      body: { model: 'gpt-image-1', prompt: 'A lighthouse at dusk', size: '1536x1024', n: 1 },
    });
    expect(fake.requests[0]!.body).not.toHaveProperty('response_format');
  });

  test('asks DALL·E 3 for base64 at 1792x1024', async () => {
    const dalle = createOpenAIMediaClient({ apiKey: KEY, baseUrl: fake.url, imageModel: 'dall-e-3' });
    const outFile = path.join(dir, 'dalle.png');
    await dalle.image({ prompt: 'A lighthouse at dawn', outFile });
    expect(readPng(outFile)).toEqual({ width: 1792, height: 1024 });
    expect(fake.requests[0]!.body).toMatchObject({ model: 'dall-e-3', size: '1792x1024', response_format: 'b64_json' });
    await dalle.close();
  });

  test('downloads an image answered as a URL, without sending the key there', async () => {
    const urls = await startFakeOpenAI({ apiKeys: [KEY], imageUrls: true });
    const urlClient = createOpenAIMediaClient({ apiKey: KEY, baseUrl: urls.url });
    try {
      const outFile = path.join(dir, 'downloaded.png');
      urls.setFailure(503, 1, { retryAfterMs: 1 }); // a failed request is retried
      await urlClient.image({ prompt: 'A lighthouse in fog', outFile });
      expect(readPng(outFile)).toEqual({ width: 1536, height: 1024 });
      const paths = urls.requests.map((r) => `${r.method} ${r.path} ${r.apiKey ?? 'no key'}`);
      expect(paths[0]).toBe(`POST /v1/images/generations ${KEY}`);
      expect(paths[1]).toMatch(/^POST \/v1\/images\/generations /);
      expect(paths.slice(2)).toHaveLength(1);
      expect(paths[2]).toMatch(/^GET \/fake-files\/[0-9a-f]+\.png no key$/);
      expect(urls.requests[2]!.headers).not.toHaveProperty('authorization');
    } finally {
      await urlClient.close();
      await urls.close();
    }
  });

  test('downloads an image answered as a URL through the proxy too', async () => {
    const urls = await startFakeOpenAI({ apiKeys: [KEY], imageUrls: true });
    const proxy = await startHttpProxy();
    const proxied = createOpenAIMediaClient({ apiKey: KEY, baseUrl: urls.url, proxyUrl: `http://127.0.0.1:${proxy.port}` });
    try {
      const outFile = path.join(dir, 'downloaded-proxied.png');
      await proxied.image({ prompt: 'A lighthouse through the proxy', outFile });
      expect(readPng(outFile)).toEqual({ width: 1536, height: 1024 });
      expect(proxy.requests).toEqual([
        `POST 127.0.0.1:${urls.port}/v1/images/generations`,
        expect.stringMatching(new RegExp(`^GET 127\\.0\\.0\\.1:${urls.port}/fake-files/[0-9a-f]+\\.png$`)),
      ]);
      expect(urls.requests.map((r) => r.apiKey)).toEqual([KEY, null]);
    } finally {
      await proxied.close();
      await proxy.close();
      await urls.close();
    }
  });

  test('a refused prompt is ProviderError invalid_input', async () => {
    const error = await providerError(client.image({ prompt: 'something forbidden', outFile: path.join(dir, 'refused.png') }));
    expect(error).toMatchObject({ kind: 'invalid_input', status: 400 });
    expect(error.message).toContain('safety system');
  });

  test('a size the model does not offer is ProviderError invalid_input', async () => {
    const error = await providerError(client.image({ prompt: 'A tree', size: '1792x1024', outFile: path.join(dir, 'size.png') }));
    expect(error.kind).toBe('invalid_input');
    expect(error.message).toBe(
      "400 Invalid value: '1792x1024'. Supported values are: '1024x1024', '1536x1024', '1024x1536', and 'auto'.",
    );
  });

  test('a server that never answers in time is ProviderError unreachable', async () => {
    const slow = createOpenAIMediaClient({ apiKey: KEY, baseUrl: fake.url, timeoutMs: 100, maxRetries: 0 });
    fake.setDelay(400);
    const error = await providerError(slow.image({ prompt: 'A slow tree', outFile: path.join(dir, 'slow.png') }));
    expect(error.kind).toBe('unreachable');
    await slow.close();
  });
});

describe('narration pieces fit one speech request', () => {
  test('a sentence longer than the limit is cut at white space, nothing lost', () => {
    const long = `${Array.from({ length: 1500 }, (_, i) => `word${i}`).join(' ')}.`;
    const text = `A short opening sentence. ${long} And a short ending.`;
    expect(long.length).toBeGreaterThan(2 * OPENAI_SPEECH_MAX_CHARS);
    const pieces = narrationPieces(text);
    // The long sentence in (at least) three pieces, then the last sentence.
    expect(pieces.length).toBeGreaterThanOrEqual(4);
    for (const piece of pieces) {
      expect(piece.text.length).toBeLessThanOrEqual(OPENAI_SPEECH_MAX_CHARS);
      expect(text.slice(piece.offset, piece.offset + piece.text.length)).toBe(piece.text);
      expect(piece.text).toMatch(/^\S.*\S$/s);
    }
    // Cut between words, every word kept once.
    expect(pieces.map((p) => p.text).join(' ')).toBe(text);
    expect(pieces[0]!.text).toMatch(/^A short opening sentence\. word0 .* word\d+$/);
    expect(pieces.at(-1)!.text).toBe('And a short ending.');
  });

  test('a text without white space is cut at the limit, never inside a surrogate pair', () => {
    const text = '𝄞'.repeat(300); // 600 UTF-16 units, no sentence end
    const pieces = narrationPieces(text, 101);
    expect(pieces.map((p) => p.text.length)).toEqual([100, 100, 100, 100, 100, 100]);
    expect(pieces.map((p) => p.offset)).toEqual([0, 100, 200, 300, 400, 500]);
    expect(pieces.map((p) => p.text).join('')).toBe(text);
  });

  test('every piece of a long chapter is spoken in one request', async () => {
    const text = `${Array.from({ length: 1000 }, (_, i) => `and then ${i}`).join(' ')}. The end.`;
    const pieces = narrationPieces(text);
    expect(pieces.length).toBeGreaterThan(1);
    for (const [index, piece] of pieces.entries()) {
      await client.speak({ text: piece.text, voice: 'alloy', outFile: path.join(dir, `piece-${index}.wav`) });
    }
    expect(fake.requests.map((r) => (r.body as { input: string }).input)).toEqual(pieces.map((p) => p.text));
  });
});
