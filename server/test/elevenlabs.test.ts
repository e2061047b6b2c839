import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FAKE_ELEVENLABS_VOICES, startFakeElevenLabs, type FakeElevenLabs } from '../fakes/elevenlabs';
import { FAKE_SECONDS_PER_WORD, countWords } from '../fakes/openai';
import { createElevenLabsClient, type ElevenLabsClient } from '../src/providers/elevenlabs';
import { parseWav } from '../src/lib/wav';
import { providerError } from './providerErrors';

const KEY = 'el-test-key-0123456789abcdef0123456789';
const VOICE = FAKE_ELEVENLABS_VOICES[0]!.voice_id;
let fake: FakeElevenLabs;
let dir: string;
let client: ElevenLabsClient;

beforeAll(async () => {
  fake = await startFakeElevenLabs({ apiKeys: [KEY] });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-elevenlabs-'));
  client = createElevenLabsClient({ apiKey: KEY, baseUrl: fake.url, timeoutMs: 5_000, backoffBaseMs: 1 });
});
afterEach(() => fake.reset());
afterAll(async () => {
  await client.close();
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const samplesFor = (text: string) => Math.round(Math.max(1, countWords(text) * FAKE_SECONDS_PER_WORD) * 22_050);

describe('ElevenLabs speak', () => {
  test('writes a 22050 Hz mono 16-bit WAV of the right length', async () => {
    const text = 'The wind carried the smell of rain over the hills.';
    const outFile = path.join(dir, 'narration.wav');
    await client.speak({ text, voiceId: VOICE, outFile });
    const bytes = fs.readFileSync(outFile);
    expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    const wav = parseWav(bytes);
    expect(wav.format).toEqual({ audioFormat: 1, channels: 1, sampleRate: 22_050, bitsPerSample: 16, blockAlign: 2 });
    expect(wav.data.length / 2).toBe(samplesFor(text));
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: `/v1/text-to-speech/${VOICE}`,
      query: { output_format: 'pcm_22050' },
      apiKey: KEY,
      body: { text, model_id: 'eleven_multilingual_v2' },
    });
  });

  test('splits texts over 5000 characters and joins the audio', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `Line ${i + 1} of the tale goes on and on.`).join(' ');
    expect(text.length).toBeGreaterThan(5000);
    const outFile = path.join(dir, 'long.wav');
    await client.speak({ text, voiceId: VOICE, outFile });
    const inputs = fake.requests.map((r) => (r.body as { text: string }).text);
    expect(inputs).toHaveLength(2);
    expect(inputs.every((input) => input.length <= 5000 && input.endsWith('on.'))).toBe(true);
    expect(inputs.join(' ')).toBe(text);
    const wav = parseWav(fs.readFileSync(outFile));
    expect(wav.data.length / 2).toBe(inputs.reduce((sum, input) => sum + samplesFor(input), 0));
  });

  test('retries 429 answers, honouring retry-after', async () => {
    fake.setFailure(429, 1, { retryAfterMs: 50 });
    await client.speak({ text: 'Again.', voiceId: VOICE, outFile: path.join(dir, 'again.wav') });
    expect(fake.requests).toHaveLength(2);
  });

  test('a refused key is ProviderError invalid_key without the key', async () => {
    const wrong = createElevenLabsClient({ apiKey: 'el-wrong-key-000000000000000', baseUrl: fake.url, maxRetries: 0 });
    const error = await providerError(wrong.speak({ text: 'Hi.', voiceId: VOICE, outFile: path.join(dir, 'no.wav') }));
    expect(error).toMatchObject({ kind: 'invalid_key', status: 401, message: 'invalid key' });
    expect(error.message).not.toContain('el-wrong-key');
    await wrong.close();
  });

  test('an exhausted character quota is ProviderError quota', async () => {
    const quota = await startFakeElevenLabs({ characterQuota: 20 });
    const limited = createElevenLabsClient({ apiKey: KEY, baseUrl: quota.url, backoffBaseMs: 1 });
    try {
      await limited.speak({ text: 'Short one.', voiceId: VOICE, outFile: path.join(dir, 'q1.wav') });
      const error = await providerError(
        limited.speak({ text: 'This one is too long now.', voiceId: VOICE, outFile: path.join(dir, 'q2.wav') }),
      );
      expect(error).toMatchObject({ kind: 'quota', status: 401 });
      expect(error.message).toContain('exceeds your quota of 20');
      expect(quota.requests).toHaveLength(2);
    } finally {
      await limited.close();
      await quota.close();
    }
  });

  test('an unknown voice is ProviderError invalid_input', async () => {
    const error = await providerError(client.speak({ text: 'Hi.', voiceId: 'no-such-voice', outFile: path.join(dir, 'x.wav') }));
    expect(error).toMatchObject({
      kind: 'invalid_input',
      status: 404,
      message: '404 A voice with the voice_id no-such-voice was not found.',
    });
  });

  test('a server that stays down is ProviderError api_error with the last status', async () => {
    fake.setFailure(500, 10);
    const error = await providerError(client.speak({ text: 'Hi.', voiceId: VOICE, outFile: path.join(dir, 'down.wav') }));
    expect(error).toMatchObject({ kind: 'api_error', status: 500 });
    expect(fake.requests).toHaveLength(3);
  });
});
