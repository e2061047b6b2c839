import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { FAKE_SECONDS_PER_WORD, countWords, startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';
import { startHttpProxy } from '../fakes/proxies';
import { createOpenAIMediaClient, type OpenAIMediaClient } from '../src/providers/openaiMedia';
import { ProviderError } from '../src/providers/outbound';

const KEY = 'sk-test-media-key-0123456789abcdefWXYZ';
const WRONG_KEY = 'sk-test-wrong-media-key-000000000000';
let fake: FakeOpenAI;
let dir: string;
let client: OpenAIMediaClient;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKeys: [KEY], refusePrompt: (prompt) => prompt.includes('forbidden') });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-openai-media-'));
  client = createOpenAIMediaClient({ apiKey: KEY, baseUrl: fake.url, timeoutMs: 5_000, maxRetries: 2, backoffBaseMs: 1 });
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

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const expectedSeconds = (text: string) => Math.max(1, countWords(text) * FAKE_SECONDS_PER_WORD);

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

  test('splits a text over 4096 characters at sentence ends and joins the audio', async () => {
    const sentences = Array.from({ length: 160 }, (_, i) => `This is sentence number ${i + 1} of a long story.`);
    const text = sentences.join(' ');
    expect(text.length).toBeGreaterThan(4096 * 1.5);
    const outFile = path.join(dir, 'long.wav');
    await client.speak({ text, voice: 'alloy', outFile });
    const inputs = fake.requests.map((r) => (r.body as { input: string }).input);
    expect(inputs.length).toBe(2);
    for (const input of inputs) {
      expect(input.length).toBeLessThanOrEqual(4096);
      expect(input).toMatch(/story\.$/);
    }
    expect(inputs.join(' ')).toBe(text);
    const wav = readWav(outFile);
    expect(wav.sampleRate).toBe(24_000);
    const expected = inputs.reduce((sum, input) => sum + Math.round(expectedSeconds(input) * 24_000), 0);
    expect(wav.samples).toBe(expected);
  });

  test('retries a rate limit, then succeeds', async () => {
    fake.setFailure(429, 2);
    const outFile = path.join(dir, 'retried.wav');
    await client.speak({ text: 'Hello there.', voice: 'alloy', outFile });
    expect(readWav(outFile).seconds).toBeCloseTo(1, 3);
    expect(fake.requests).toHaveLength(3);
  });

  test('a refused key is ProviderError invalid_key without the key', async () => {
    const wrong = createOpenAIMediaClient({ apiKey: WRONG_KEY, baseUrl: fake.url, maxRetries: 0 });
    const error = await providerError(wrong.speak({ text: 'Hello.', voice: 'alloy', outFile: path.join(dir, 'never.wav') }));
    expect(error).toMatchObject({ kind: 'invalid_key', status: 401, message: 'invalid key' });
    expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain(WRONG_KEY);
    expect(fs.existsSync(path.join(dir, 'never.wav'))).toBe(false);
    await wrong.close();
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
      expect(fake.requests).toHaveLength(1);
    } finally {
      await proxied.close();
      await proxy.close();
    }
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
    const urlClient = createOpenAIMediaClient({ apiKey: KEY, baseUrl: urls.url, backoffBaseMs: 1 });
    try {
      const outFile = path.join(dir, 'downloaded.png');
      urls.setFailure(503, 1); // the download is retried like any request
      await urlClient.image({ prompt: 'A lighthouse in fog', outFile });
      expect(readPng(outFile)).toEqual({ width: 1536, height: 1024 });
      const paths = urls.requests.map((r) => `${r.method} ${r.path} ${r.apiKey ?? 'no key'}`);
      expect(paths[0]).toBe(`POST /v1/images/generations ${KEY}`);
      expect(paths[1]).toMatch(/^POST \/v1\/images\/generations /);
      expect(paths.slice(2)).toHaveLength(1);
      expect(paths[2]).toMatch(/^GET \/fake-files\/[0-9a-f]+\.png no key$/);
    } finally {
      await urlClient.close();
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
