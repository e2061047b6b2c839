import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { concatAudio, concatAudioGraph } from '../src/pipeline/media/audio';
import {
  MediaError,
  parseFfmpegMajor,
  parseProbeJson,
  probe,
  resolveFfmpeg,
  runFfmpeg,
  stderrSummary,
} from '../src/pipeline/media/ffmpeg';
import { espeakSpeak } from '../src/providers/speech';

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-ffmpeg-'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An executable shell script at `file` (a stand-in binary; only its existence matters). */
function fakeBinary(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return file;
}

/** What a promise rejected with. */
async function rejection(promise: Promise<unknown>): Promise<MediaError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(MediaError);
    return error as MediaError;
  }
  throw new Error('expected a rejection');
}

describe('resolveFfmpeg', () => {
  it('prefers FFMPEG_PATH, with ffprobe beside it or from FFPROBE_PATH', () => {
    const ffmpeg = fakeBinary(path.join(dir, 'custom', 'ffmpeg'));
    const ffprobe = fakeBinary(path.join(dir, 'custom', 'ffprobe'));
    expect(resolveFfmpeg({ FFMPEG_PATH: ffmpeg, PATH: '/usr/bin' })).toEqual({
      ffmpeg,
      ffprobe,
      ffprobeFound: true,
      source: 'FFMPEG_PATH',
    });
    const other = fakeBinary(path.join(dir, 'other', 'ffprobe'));
    expect(resolveFfmpeg({ FFMPEG_PATH: ffmpeg, FFPROBE_PATH: other }).ffprobe).toBe(other);
  });

  it('finds both on PATH by scanning its folders', () => {
    const bin = path.join(dir, 'bin');
    const ffmpeg = fakeBinary(path.join(bin, 'ffmpeg'));
    expect(resolveFfmpeg({ PATH: `/nonexistent${path.delimiter}${bin}` })).toEqual({
      ffmpeg,
      ffprobe: path.join(bin, 'ffprobe'),
      ffprobeFound: false,
      source: 'system',
    });
    fs.writeFileSync(path.join(bin, 'ffprobe'), 'not executable', { mode: 0o644 });
    expect(resolveFfmpeg({ PATH: bin }).ffprobeFound).toBe(false);
  });

  it("is 'missing' when FFMPEG_PATH names no executable, or nothing is installed", () => {
    expect(() => resolveFfmpeg({ FFMPEG_PATH: path.join(dir, 'no-such-ffmpeg'), PATH: '/usr/bin' })).toThrow(
      expect.objectContaining({
        code: 'missing',
        message: expect.stringContaining('apt-get install ffmpeg, or set FFMPEG_PATH'),
      }),
    );
    expect(() => resolveFfmpeg({ PATH: path.join(dir, 'empty') })).toThrow(expect.objectContaining({ code: 'missing' }));
  });
});

describe('runFfmpeg', () => {
  it('runs ffmpeg and keeps stderr', async () => {
    const out = path.join(dir, 'tone.wav');
    const { stderr } = await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=0.2', out]);
    expect(typeof stderr).toBe('string');
    expect(fs.statSync(out).size).toBeGreaterThan(1000);
  });

  it("fails with the last stderr lines, 'missing' without a binary, 'timeout', and on abort", async () => {
    const failed = await rejection(runFfmpeg(['-i', path.join(dir, 'nothing-here.wav'), '-f', 'null', '-']));
    expect(failed.code).toBe('failed');
    expect(failed.message).toMatch(/nothing-here\.wav: No such file or directory/);

    const missing = await rejection(runFfmpeg(['-version'], { binary: path.join(dir, 'no-such-ffmpeg') }));
    expect(missing.code).toBe('missing');

    const endless = ['-f', 'lavfi', '-i', 'anullsrc', '-f', 'null', '-'];
    const timedOut = await rejection(runFfmpeg(endless, { timeoutMs: 300 }));
    expect(timedOut).toMatchObject({ code: 'timeout', message: 'ffmpeg took longer than 0.3 s' });

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    expect(await rejection(runFfmpeg(endless, { signal: controller.signal }))).toMatchObject({
      code: 'failed',
      message: 'ffmpeg was cancelled',
    });
  });

  it('summarises stderr and parses versions', () => {
    expect(stderrSummary('a\r\n\nb\rc\n  d  \n', 2)).toBe('c\nd');
    expect(parseFfmpegMajor('ffmpeg version 5.1.9-0+deb12u1 Copyright')).toBe(5);
    expect(parseFfmpegMajor('ffmpeg version n6.1.1 Copyright')).toBe(6);
    expect(parseFfmpegMajor('ffmpeg version N-112000-gabc Copyright')).toBeNull();
  });
});

describe('probe', () => {
  it('reads streams and duration', async () => {
    const file = path.join(dir, 'probe.wav');
    await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1.5:sample_rate=24000', file]);
    const info = await probe(file);
    expect(info.formatName).toBe('wav');
    expect(info.durationSeconds).toBeCloseTo(1.5, 2);
    expect(info.streams).toEqual([{ type: 'audio', codec: 'pcm_s16le', sampleRate: 24000, channels: 1 }]);
  });

  it("is 'invalid' for a file that is not media", async () => {
    const file = path.join(dir, 'not-media.wav');
    fs.writeFileSync(file, 'hello');
    expect((await rejection(probe(file))).code).toBe('invalid');
    expect(
      parseProbeJson('{"streams":[{"codec_type":"video","codec_name":"h264","width":1920,"height":1080,"pix_fmt":"yuv420p"}]}'),
    ).toEqual({
      durationSeconds: 0,
      formatName: '',
      streams: [{ type: 'video', codec: 'h264', width: 1920, height: 1080, pixFmt: 'yuv420p' }],
    });
  });
});

describe('concatAudio', () => {
  it('joins narrations of different rates into 48 kHz mono with 0.4 s gaps, answering where each starts', async () => {
    const first = path.join(dir, 'part1.wav');
    const second = path.join(dir, 'part2.wav');
    const third = path.join(dir, 'part3.wav');
    await espeakSpeak({ text: 'The lighthouse stood alone on the rock.', voice: 'en-us', outFile: first });
    await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=330:duration=1.25:sample_rate=24000', second]);
    await espeakSpeak({ text: 'Era uma vez um farol.', voice: 'pt-br', outFile: third });
    const durations = await Promise.all([first, second, third].map(async (file) => (await probe(file)).durationSeconds));
    expect((await probe(first)).streams[0].sampleRate).toBe(22050);

    const output = path.join(dir, 'joined', 'narration.wav');
    const result = await concatAudio([first, second, third], output);
    expect(result.durations).toEqual(durations);
    expect(result.offsets[0]).toBe(0);
    expect(result.offsets[1]).toBeCloseTo(durations[0] + 0.4, 6);
    expect(result.offsets[2]).toBeCloseTo(durations[0] + durations[1] + 0.8, 6);
    expect(result.durationSeconds).toBeCloseTo(durations[0] + durations[1] + durations[2] + 0.8, 1);
    const info = await probe(output);
    expect(info.streams).toEqual([{ type: 'audio', codec: 'pcm_s16le', sampleRate: 48000, channels: 1 }]);
    expect(fs.readdirSync(path.dirname(output))).toEqual(['narration.wav']);
  });

  it('pads every input but the last, and refuses nothing to join', async () => {
    expect(concatAudioGraph(2, 0.4)).toBe(
      '[0:a:0]aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono,apad=pad_dur=0.400[a0];' +
        '[1:a:0]aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono[a1];[a0][a1]concat=n=2:v=0:a=1[out]',
    );
    expect((await rejection(concatAudio([], path.join(dir, 'x.wav')))).code).toBe('invalid');
  });
});
