import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_TRUE_PEAK_DBTP, TARGET_LOUDNESS_LUFS, measureLoudness } from '../src/media/audio';
import { MUSIC_BED_LUFS, measureIntegratedLoudness, mixMusic, musicGainDb, musicMixGraph } from '../src/media/music';
import { availableFfmpegs, mediaToolsEnv, probe, resolveMediaTools, runFfmpeg, type MediaTools } from '../src/media/ffmpeg';
import { parseWav, pcmToWav } from '../src/lib/wav';

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-music-'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const RATE = 48_000;

/** A mono WAV: `frequency` Hz at `amplitude` where `on(t)` says so, silence elsewhere. */
function tone(file: string, seconds: number, frequency: number, amplitude: number, on: (t: number) => boolean = () => true) {
  const pcm = Buffer.alloc(Math.round(seconds * RATE) * 2);
  for (let i = 0; i < pcm.length / 2; i += 1) {
    const t = i / RATE;
    pcm.writeInt16LE(on(t) ? Math.round(Math.sin(2 * Math.PI * frequency * t) * amplitude * 32767) : 0, i * 2);
  }
  fs.writeFileSync(file, pcmToWav(pcm, { sampleRate: RATE }));
  return file;
}

/** The amplitude of `frequency` in the left channel between `from` and `to` seconds (Goertzel). */
function level(samples: Int16Array, channels: number, from: number, to: number, frequency: number): number {
  const start = Math.round(from * RATE);
  const end = Math.round(to * RATE);
  const k = (2 * Math.PI * frequency) / RATE;
  const coefficient = 2 * Math.cos(k);
  let s1 = 0;
  let s2 = 0;
  for (let i = start; i < end; i += 1) {
    const s0 = samples[i * channels]! / 32768 + coefficient * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  const power = s1 * s1 + s2 * s2 - coefficient * s1 * s2;
  return (2 * Math.sqrt(power)) / (end - start);
}

function readSamples(file: string): { samples: Int16Array; channels: number; rate: number } {
  const wav = parseWav(fs.readFileSync(file));
  const samples = new Int16Array(wav.data.buffer, wav.data.byteOffset, wav.data.length / 2);
  return { samples, channels: wav.format.channels, rate: wav.format.sampleRate };
}

describe('background music', () => {
  test('the bed gain brings any track to the bed level, never boosting silence or a whisper by more than 20 dB', () => {
    expect(musicGainDb(-17)).toBeCloseTo(MUSIC_BED_LUFS + 17);
    expect(musicGainDb(-60)).toBe(20);
    expect(musicGainDb(null)).toBe(0);
    expect(musicMixGraph(30, -10)).toContain('sidechaincompress');
    expect(musicMixGraph(30, -10)).toContain('afade=t=out:st=27.000:d=3.000');
  });

  // Every ffmpeg the machine has: the bundled 4.1 and a system one.
  const each = async (body: (tools: MediaTools, label: string) => Promise<void>) => {
    for (const ffmpeg of await availableFfmpegs()) {
      const tools = await resolveMediaTools(mediaToolsEnv({ ffmpegPath: ffmpeg.path }));
      await body(tools, ffmpeg.source);
    }
  };

  test('mixed under the narration: as long as it, ducked while the voice speaks, looped, at -14 LUFS with peaks under -1 dBTP', async () => {
    await each(async (tools, label) => {
      // "Speech" (a 300 Hz tone) from 1 to 4 s and from 7 to 10 s; a 6-second music track (1 kHz), so it loops.
      const narration = tone(path.join(dir, `voice-${label}.wav`), 12, 300, 0.5, (t) => (t >= 1 && t < 4) || (t >= 7 && t < 10));
      const music = tone(path.join(dir, `music-${label}.wav`), 6, 1000, 0.5);
      const output = path.join(dir, `mix-${label}.wav`);
      const result = await mixMusic(narration, music, output, { tools });

      const info = await probe(output, { binary: tools.ffprobe.path });
      expect(info.durationSeconds).toBeCloseTo(12, 1);
      expect(result.durationSeconds).toBeCloseTo(12, 1);
      const { samples, channels, rate } = readSamples(output);
      expect({ label, channels, rate }).toEqual({ label, channels: 2, rate: RATE });

      // The music is there between sentences, clearly lower under the voice (ducked), and after the loop point.
      const pause = level(samples, channels, 5, 6.5, 1000);
      const underVoice = level(samples, channels, 2, 3.5, 1000);
      expect(pause).toBeGreaterThan(0.005);
      expect(underVoice).toBeLessThan(pause / 2);
      expect(level(samples, channels, 10.5, 11, 1000)).toBeGreaterThan(0.001);
      // The voice stays far above the bed.
      expect(level(samples, channels, 2, 3.5, 300)).toBeGreaterThan(pause * 4);

      const loudness = await measureLoudness(output, { tools });
      expect(Math.abs(loudness.integrated - TARGET_LOUDNESS_LUFS)).toBeLessThanOrEqual(1);
      expect(loudness.truePeak).toBeLessThanOrEqual(MAX_TRUE_PEAK_DBTP);
    });
  }, 180_000);

  test('a track longer than the video is cut to it and fades out at its end', async () => {
    await each(async (tools, label) => {
      const narration = tone(path.join(dir, `short-voice-${label}.wav`), 8, 300, 0.5, (t) => t < 2);
      const music = tone(path.join(dir, `long-music-${label}.wav`), 30, 1000, 0.5);
      const output = path.join(dir, `faded-${label}.wav`);
      await mixMusic(narration, music, output, { tools, musicLoudness: await measureIntegratedLoudness(music, { tools }) });
      const { samples, channels } = readSamples(output);
      expect(samples.length / channels / RATE).toBeCloseTo(8, 1);
      // Full between 3 and 4.5 s, fading over the last 2 seconds, nearly gone in the last 100 ms.
      const full = level(samples, channels, 3, 4.5, 1000);
      expect(level(samples, channels, 7, 7.5, 1000)).toBeLessThan(full * 0.6);
      expect(level(samples, channels, 7.9, 8, 1000)).toBeLessThan(full * 0.15);
    });
  }, 180_000);

  test('a track that is not audio stops the mix with a MediaError', async () => {
    const tools = await resolveMediaTools();
    const narration = tone(path.join(dir, 'voice-bad.wav'), 3, 300, 0.5);
    const bad = path.join(dir, 'bad.mp3');
    fs.writeFileSync(bad, Buffer.concat([Buffer.from('ID3'), Buffer.alloc(2000, 9)]));
    await expect(mixMusic(narration, bad, path.join(dir, 'never.wav'), { tools })).rejects.toMatchObject({ name: 'MediaError' });
    expect(fs.existsSync(path.join(dir, 'never.wav'))).toBe(false);
    // ffmpeg itself is fine: the same narration alone still converts.
    await runFfmpeg(['-loglevel', 'error', '-i', narration, '-f', 'null', '-'], { binary: tools.ffmpeg.path });
  }, 60_000);
});
