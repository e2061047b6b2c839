import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { probe, runFfmpeg } from '../src/media/ffmpeg';
import { alignWords, localVoiceAvailable, stopLocalVoice, synthesizeLocal, toSsml } from '../src/providers/localVoice';
import { SpeechError, espeakSpeak } from '../src/providers/speech';

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'local-voice-'));
});

afterAll(() => {
  stopLocalVoice();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The pauses ffmpeg hears in a WAV file: [start, end] seconds of each stretch of silence. */
async function silences(file: string): Promise<Array<[number, number]>> {
  const { stderr } = await runFfmpeg([
    '-loglevel',
    'info',
    '-i',
    file,
    '-af',
    'silencedetect=noise=-35dB:d=0.12',
    '-f',
    'null',
    '-',
  ]);
  const starts = [...stderr.matchAll(/silence_start: ([\d.]+)/g)].map((m) => Number(m[1]));
  const ends = [...stderr.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
  return starts.map((start, i) => [start, ends[i] ?? Infinity]);
}

describe('the local voice (espeak-ng in WebAssembly, no system program)', () => {
  test('loads and speaks with nothing installed', async () => {
    expect(await localVoiceAvailable()).toBe(true);
  }, 60_000);

  test('writes a 22,050 Hz mono WAV file and says where every word starts', async () => {
    const outFile = path.join(dir, 'pt.wav');
    const text = 'Era uma vez um farol. No alto do rochedo, a luz nunca se apagava!';
    const result = await espeakSpeak({ text, voice: 'pt-br', outFile });
    const info = await probe(outFile);
    expect(info.streams).toEqual([{ type: 'audio', codec: 'pcm_s16le', sampleRate: 22050, channels: 1 }]);
    expect(info.durationSeconds).toBeCloseTo(result.durationSeconds, 2);
    expect(result.words.map((word) => word.text)).toEqual(text.split(' '));
    expect(result.words[0]).toMatchObject({ offset: 0, length: 3, start: 0 });
    const starts = result.words.map((word) => word.start);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(starts[starts.length - 1]).toBeLessThan(result.durationSeconds);
    // The second sentence starts right after the pause the voice makes at the full stop.
    const second = result.words.find((word) => word.text === 'No')!;
    const pause = (await silences(outFile)).find(([start, end]) => end <= result.durationSeconds - 0.05 && start > 0.5);
    expect(pause).toBeDefined();
    expect(Math.abs(second.start - pause![1])).toBeLessThan(0.1);
  }, 60_000);

  test('maps word times back through escaped SSML, accents, emoji and CJK', async () => {
    const text = 'Tom & Jerry <3 — João 😀 viu';
    const spoken = await synthesizeLocal({ text, voice: 'pt-br' });
    for (const word of spoken.words) expect(text.slice(word.offset, word.offset + word.length)).toBe(word.text);
    expect(spoken.words.map((word) => word.text)).toEqual(text.split(' '));
    const zh = await synthesizeLocal({ text: '从前有一个小男孩。他住在河边。', voice: 'cmn' });
    expect(zh.words).toHaveLength(1);
    expect(zh.durationSeconds).toBeGreaterThan(1);
  }, 60_000);

  test('a merged function word ("in the") gets a start between its neighbours', () => {
    const text = 'In the house';
    const { origin } = toSsml(text);
    const words = alignWords(
      text,
      [
        { position: 1, length: 2, ms: 1000 },
        { position: 8, length: 5, ms: 1300 },
      ],
      origin,
      2,
    );
    expect(words.map((word) => [word.text, word.exact])).toEqual([
      ['In', true],
      ['the', false],
      ['house', true],
    ]);
    expect(words[1].start).toBeGreaterThan(1);
    expect(words[1].start).toBeLessThan(1.3);
  });

  test('word starts never go backwards and every word of any text is placed (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^(?:[a-zA-Zá&<>]|😀){1,8}$/u), { minLength: 1, maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(200), fc.nat(5000)), { maxLength: 40 }),
        (list, raw) => {
          const text = list.join(' ');
          const { ssml, origin } = toSsml(text);
          const events = raw.map(([position, ms]) => ({ position: (position % [...ssml].length) + 1, length: 1, ms }));
          const words = alignWords(text, events, origin, 6);
          expect(words.map((word) => word.text)).toEqual(list);
          for (let i = 1; i < words.length; i += 1) expect(words[i].start).toBeGreaterThanOrEqual(words[i - 1].start);
          for (const word of words) expect(text.slice(word.offset, word.offset + word.length)).toBe(word.text);
        },
      ),
    );
  });

  test('runs off the event loop: timers keep firing while a long text is spoken', async () => {
    const text = 'The keeper climbed the stairs again and looked out to sea. '.repeat(60);
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    const started = Date.now();
    try {
      await synthesizeLocal({ text, voice: 'en-us' });
    } finally {
      clearInterval(timer);
    }
    const elapsed = Date.now() - started;
    // A blocked loop would tick once at the end; a free one ticks about every 10 ms.
    expect(ticks).toBeGreaterThan(Math.min(10, elapsed / 40));
  }, 60_000);

  test('a cancelled or timed-out narration stops at once and the voice keeps working', async () => {
    const long = 'This sentence keeps going on and on. '.repeat(400);
    const controller = new AbortController();
    const cancelled = synthesizeLocal({ text: long, voice: 'en-us', signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(cancelled).rejects.toMatchObject({ code: 'cancelled' });
    await expect(synthesizeLocal({ text: long, voice: 'en-us', timeoutMs: 30 })).rejects.toMatchObject({ code: 'timeout' });
    const after = await synthesizeLocal({ text: 'Still here.', voice: 'en-us' });
    expect(after.words.map((word) => word.text)).toEqual(['Still', 'here.']);
  }, 60_000);

  test('speaks a text that looks like options or shell syntax as words', async () => {
    const outFile = path.join(dir, 'dash.wav');
    const marker = path.join(dir, 'injected');
    await espeakSpeak({ text: `-v xx --help $(touch ${marker}) \`touch ${marker}\`; touch ${marker}`, voice: 'en-us', outFile });
    expect(fs.readFileSync(outFile).subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(fs.existsSync(marker)).toBe(false);
    const slow = path.join(dir, 'slow.wav');
    const fast = path.join(dir, 'fast.wav');
    const slowly = await espeakSpeak({
      text: 'Slowly now, one word at a time.',
      voice: 'en-us+f3',
      outFile: slow,
      wordsPerMinute: 120,
    });
    const quickly = await espeakSpeak({
      text: 'Slowly now, one word at a time.',
      voice: 'en-us+f3',
      outFile: fast,
      wordsPerMinute: 300,
    });
    expect(slowly.durationSeconds).toBeGreaterThan(quickly.durationSeconds * 1.5);
  }, 60_000);

  test.each(['pt-br; rm -rf /', '-w /etc/passwd', 'en us', '$(id)', '', 'e', 'en+'])(
    'refuses the voice %j before anything runs',
    async (voice) => {
      const outFile = path.join(dir, 'never.wav');
      await expect(espeakSpeak({ text: 'hi', voice, outFile })).rejects.toMatchObject({ code: 'invalidVoice' });
      expect(fs.existsSync(outFile)).toBe(false);
    },
  );

  test('an unknown voice, an empty text or a NUL byte: a SpeechError and no file', async () => {
    const outFile = path.join(dir, 'fail.wav');
    await expect(espeakSpeak({ text: 'hi', voice: 'zz-zz', outFile })).rejects.toMatchObject({ code: 'invalidVoice' });
    await expect(espeakSpeak({ text: '   ', voice: 'en', outFile })).rejects.toMatchObject({ code: 'invalidText' });
    await expect(espeakSpeak({ text: 'a\0b', voice: 'en', outFile })).rejects.toBeInstanceOf(SpeechError);
    expect(fs.existsSync(outFile)).toBe(false);
    expect(fs.readdirSync(dir).filter((name) => name.includes('partial'))).toEqual([]);
  }, 60_000);

  test.each([
    ['pt', 'pt-br'],
    ['zh', 'cmn'],
    ['no', 'nb'],
    ['ja', 'ja'],
    ['hi', 'hi'],
    ['ar', 'ar'],
  ])(
    'speaks the story language %s (espeak-ng voice %s)',
    async (_language, voice) => {
      const spoken = await synthesizeLocal({ text: 'abc 123', voice });
      expect(spoken.durationSeconds).toBeGreaterThan(0.2);
    },
    60_000,
  );
});
