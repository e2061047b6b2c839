import { startFakeElevenLabs, type FakeElevenLabs } from '../fakes/elevenlabs';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai';

/**
 * The media routes of the fakes answer like the real APIs, so the clients' tests mean something:
 * the same validation errors, real WAV/PCM/PNG bytes, auth and the test controls.
 */

const KEY = 'sk-test-fake-media-0123456789abcdef';
let openai: FakeOpenAI;
let elevenlabs: FakeElevenLabs;

beforeAll(async () => {
  openai = await startFakeOpenAI({ apiKeys: [KEY] });
  elevenlabs = await startFakeElevenLabs({ apiKeys: [KEY] });
});
afterEach(() => {
  openai.reset();
  elevenlabs.reset();
});
afterAll(async () => {
  await openai.close();
  await elevenlabs.close();
});

async function postOpenAI(route: string, body: unknown, key = KEY) {
  const response = await fetch(`${openai.url}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    type,
    bytes,
    json: () => JSON.parse(bytes.toString('utf8')) as { error: { message: string; param: string | null; code: string | null } },
  };
}

describe('fake OpenAI /v1/audio/speech', () => {
  const speech = { model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'one two three four five six', response_format: 'wav' };

  test('answers a 24 kHz 16-bit mono WAV, 0.35 s a word, at least 1 s', async () => {
    const answer = await postOpenAI('/audio/speech', speech);
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('audio/wav');
    const wav = answer.bytes;
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(24_000);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.readUInt32LE(40)).toBe(Math.round(6 * 0.35 * 24_000) * 2);
    expect(wav.length).toBe(44 + wav.readUInt32LE(40));
    // A soft tone, not silence, and never loud.
    const samples = Array.from({ length: wav.readUInt32LE(40) / 2 }, (_, i) => wav.readInt16LE(44 + i * 2));
    const peak = Math.max(...samples.map(Math.abs));
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(4000);

    const short = await postOpenAI('/audio/speech', { ...speech, input: 'Hi' });
    expect(short.bytes.readUInt32LE(40)).toBe(24_000 * 2);
  });

  test('answers raw PCM for response_format pcm, and a faster speed is shorter', async () => {
    const pcm = await postOpenAI('/audio/speech', { ...speech, response_format: 'pcm', speed: 2 });
    expect(pcm.status).toBe(200);
    expect(pcm.type).toBe('audio/pcm');
    expect(pcm.bytes.length).toBe(Math.round(1.05 * 24_000) * 2);
  });

  test('validates like the API', async () => {
    const cases: Array<[unknown, number, RegExp, string | null]> = [
      [{ ...speech, model: undefined }, 400, /you must provide a model parameter/, 'model'],
      [{ ...speech, input: undefined }, 400, /Missing required parameter: 'input'/, 'input'],
      [{ ...speech, voice: undefined }, 400, /Missing required parameter: 'voice'/, 'voice'],
      [{ ...speech, input: 'x'.repeat(4097) }, 400, /maximum length 4096, but got a string with length 4097/, 'input'],
      [{ ...speech, voice: 'robot' }, 400, /Invalid value: 'robot'/, 'voice'],
      [{ ...speech, model: 'gpt-9-tts' }, 404, /does not exist/, null],
      [{ ...speech, response_format: 'mp3' }, 400, /supports response_format 'wav' and 'pcm' only/, 'response_format'],
      [
        { ...speech, response_format: undefined },
        400,
        /supports response_format 'wav' and 'pcm' only, not 'mp3'/,
        'response_format',
      ],
      [{ ...speech, response_format: 'ogg' }, 400, /Invalid value: 'ogg'/, 'response_format'],
    ];
    for (const [body, status, message, param] of cases) {
      const answer = await postOpenAI('/audio/speech', body);
      expect({ body, status: answer.status }).toEqual({ body, status });
      expect(answer.json().error.message).toMatch(message);
      expect(answer.json().error.param).toBe(param);
    }
    expect((await postOpenAI('/audio/speech', { ...speech, input: 'x'.repeat(4096) })).status).toBe(200);
  });

  test('honours auth, failures, the delay and the request log', async () => {
    const refused = await postOpenAI('/audio/speech', speech, 'sk-wrong-0000000000');
    expect(refused.status).toBe(401);
    expect(refused.json().error.code).toBe('invalid_api_key');
    openai.setFailure(503, 1);
    expect((await postOpenAI('/audio/speech', speech)).status).toBe(503);
    openai.setDelay(150);
    const started = Date.now();
    expect((await postOpenAI('/audio/speech', speech)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(openai.requests.map((r) => r.path)).toEqual(['/v1/audio/speech', '/v1/audio/speech', '/v1/audio/speech']);
  });
});

describe('fake OpenAI /v1/images/generations', () => {
  const pngSize = (b64: string) => {
    const png = Buffer.from(b64, 'base64');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    return `${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`;
  };
  type Images = { data: Array<{ b64_json?: string; url?: string; revised_prompt?: string }>; size?: string };

  test('draws PNGs of the requested size, different per prompt, same for one prompt', async () => {
    const a = (
      await postOpenAI('/images/generations', { model: 'gpt-image-1', prompt: 'red fox', size: '1024x1536' })
    ).json() as unknown as Images;
    expect(pngSize(a.data[0]!.b64_json!)).toBe('1024x1536');
    expect(a.size).toBe('1024x1536');
    const again = (
      await postOpenAI('/images/generations', { model: 'gpt-image-1', prompt: 'red fox', size: '1024x1536' })
    ).json() as unknown as Images;
    const other = (
      await postOpenAI('/images/generations', { model: 'gpt-image-1', prompt: 'blue whale', size: '1024x1536' })
    ).json() as unknown as Images;
    expect(again.data[0]!.b64_json).toBe(a.data[0]!.b64_json);
    expect(other.data[0]!.b64_json).not.toBe(a.data[0]!.b64_json);
    const auto = (await postOpenAI('/images/generations', { model: 'gpt-image-1', prompt: 'x' })).json() as unknown as Images;
    expect(pngSize(auto.data[0]!.b64_json!)).toBe('1024x1024');
    const dalle = (
      await postOpenAI('/images/generations', { model: 'dall-e-3', prompt: 'x', size: '1792x1024', response_format: 'b64_json' })
    ).json() as unknown as Images;
    expect(pngSize(dalle.data[0]!.b64_json!)).toBe('1792x1024');
    expect(dalle.data[0]!.revised_prompt).toBe('x');
  });

  test('validates sizes, parameters and prompts like the API', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      [
        { model: 'gpt-image-1', prompt: 'x', size: '1792x1024' },
        400,
        /Supported values are: '1024x1024', '1536x1024', '1024x1536', and 'auto'/,
      ],
      [
        { model: 'dall-e-3', prompt: 'x', size: '1536x1024' },
        400,
        /Supported values are: '1024x1024', '1792x1024', and '1024x1792'/,
      ],
      [{ model: 'gpt-image-1', prompt: 'x', response_format: 'b64_json' }, 400, /Unknown parameter: 'response_format'/],
      [{ model: 'gpt-image-1' }, 400, /Missing required parameter: 'prompt'/],
      [{ model: 'dall-e-3', prompt: 'x'.repeat(4001) }, 400, /maximum length 4000/],
      [{ model: 'dall-e-3', prompt: 'x', n: 2 }, 400, /Invalid 'n'/],
      [{ model: 'img-9', prompt: 'x' }, 404, /does not exist/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await postOpenAI('/images/generations', body);
      expect({ body, status: answer.status }).toEqual({ body, status });
      expect(answer.json().error.message).toMatch(message);
    }
  });
});

describe('fake ElevenLabs', () => {
  const tts = (voice: string, body: unknown, key: string | null = KEY, format = 'pcm_22050') =>
    fetch(`${elevenlabs.url}/v1/text-to-speech/${voice}?output_format=${format}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'xi-api-key': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const voice = '21m00Tcm4TlvDq8ikWAM';

  test('lists voices and speaks raw PCM at the asked rate', async () => {
    const voices = await fetch(`${elevenlabs.url}/v1/voices`, { headers: { 'xi-api-key': KEY } });
    expect(voices.status).toBe(200);
    const list = (await voices.json()) as { voices: Array<{ voice_id: string; name: string }> };
    expect(list.voices.map((v) => v.voice_id)).toContain(voice);
    const answer = await tts(voice, { text: 'one two three four', model_id: 'eleven_multilingual_v2' }, KEY, 'pcm_16000');
    expect(answer.status).toBe(200);
    expect((await answer.arrayBuffer()).byteLength).toBe(Math.round(4 * 0.35 * 16_000) * 2);
    expect(elevenlabs.charactersUsed).toBe(18);
  });

  test('refuses missing and wrong keys with the API shape', async () => {
    const missing = await tts(voice, { text: 'hi' }, null);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { detail: { status: string } }).detail.status).toBe('needs_authorization');
    const wrong = await tts(voice, { text: 'hi' }, 'wrong-key');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ detail: { status: 'invalid_api_key', message: 'Invalid API key' } });
  });

  test('validates bodies, voices, models and formats', async () => {
    const noText = await tts(voice, { model_id: 'eleven_multilingual_v2' });
    expect(noText.status).toBe(422);
    expect(((await noText.json()) as { detail: Array<{ loc: string[]; msg: string }> }).detail[0]).toMatchObject({
      loc: ['body', 'text'],
      msg: 'Field required',
    });
    expect((await tts(voice, '{not json')).status).toBe(422);
    expect((await tts('nobody', { text: 'hi' })).status).toBe(404);
    expect((await tts(voice, { text: 'hi', model_id: 'eleven_nothing' })).status).toBe(400);
    const mp3 = await tts(voice, { text: 'hi' }, KEY, 'mp3_44100_128');
    expect(mp3.status).toBe(400);
    expect(((await mp3.json()) as { detail: { message: string } }).detail.message).toMatch(
      /supports output_format pcm_<rate> only/,
    );
    const long = await tts(voice, { text: 'x'.repeat(10_001) });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { detail: { status: string } }).detail.status).toBe('max_character_limit_exceeded');
  });

  test('honours setFailure with retry-after headers', async () => {
    elevenlabs.setFailure(429, 1, { retryAfterMs: 1500 });
    const limited = await tts(voice, { text: 'hi' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.headers.get('retry-after-ms')).toBe('1500');
    expect(((await limited.json()) as { detail: { status: string } }).detail.status).toBe('too_many_concurrent_requests');
    expect((await tts(voice, { text: 'hi' })).status).toBe(200);
    expect(elevenlabs.requests).toHaveLength(2);
  });
});
