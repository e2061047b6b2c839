import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  MAX_TRUE_PEAK_DBTP,
  TARGET_LOUDNESS_LUFS,
  concatAudio,
  concatAudioGraph,
  measureLoudness,
  parseLoudnormJson,
} from '../src/media/audio';
import {
  MediaError,
  availableFfmpegs,
  parseFfmpegMajor,
  parseProbeJson,
  parseToolVersion,
  probe,
  resolveMediaTools,
  runFfmpeg,
  runFfmpegInto,
  stderrSummary,
} from '../src/media/ffmpeg';
import { espeakSpeak } from '../src/providers/speech';

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-ffmpeg-'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An executable stand-in for ffmpeg/ffprobe at `file` that answers `-version` with `version`. */
function fakeBinary(file: string, version = '6.1.1'): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const name = path.basename(file);
  fs.writeFileSync(file, `#!/bin/sh\necho "${name} version ${version} Copyright (c) the FFmpeg developers"\n`, { mode: 0o755 });
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

const BUNDLED_FFMPEG = require('@ffmpeg-installer/ffmpeg').path as string;
const BUNDLED_FFPROBE = require('@ffprobe-installer/ffprobe').path as string;

describe('resolveMediaTools', () => {
  it('prefers FFMPEG_PATH, with ffprobe from FFPROBE_PATH or beside it, and says their versions', async () => {
    const ffmpeg = fakeBinary(path.join(dir, 'custom', 'ffmpeg'), '7.0.2');
    const ffprobe = fakeBinary(path.join(dir, 'custom', 'ffprobe'), '7.0.2');
    expect(await resolveMediaTools({ FFMPEG_PATH: ffmpeg, PATH: '/nonexistent' })).toEqual({
      ffmpeg: { path: ffmpeg, source: 'FFMPEG_PATH', version: '7.0.2', major: 7 },
      ffprobe: { path: ffprobe, source: 'FFMPEG_PATH', version: '7.0.2', major: 7 },
    });
    const other = fakeBinary(path.join(dir, 'other', 'ffprobe'), '5.1.2');
    expect((await resolveMediaTools({ FFMPEG_PATH: ffmpeg, FFPROBE_PATH: other })).ffprobe).toMatchObject({
      path: other,
      source: 'FFPROBE_PATH',
    });
  });

  it('takes a system ffmpeg of version 5 or newer from PATH', async () => {
    const bin = path.join(dir, 'bin5');
    const ffmpeg = fakeBinary(path.join(bin, 'ffmpeg'), '5.1.9-0+deb12u1');
    const ffprobe = fakeBinary(path.join(bin, 'ffprobe'), '5.1.9-0+deb12u1');
    const tools = await resolveMediaTools({ PATH: `/nonexistent${path.delimiter}${bin}` });
    expect(tools.ffmpeg).toEqual({ path: ffmpeg, source: 'system', version: '5.1.9-0+deb12u1', major: 5 });
    expect(tools.ffprobe).toMatchObject({ path: ffprobe, source: 'system' });
  });

  it('passes over an older system ffmpeg, and uses the bundled ones when the system has none', async () => {
    const bin = path.join(dir, 'bin4');
    fakeBinary(path.join(bin, 'ffmpeg'), '4.4.2-0ubuntu0.22.04.1');
    const old = await resolveMediaTools({ PATH: bin });
    expect(old.ffmpeg).toMatchObject({ path: BUNDLED_FFMPEG, source: 'bundled', major: 4 });
    expect(old.ffmpeg.version).toMatch(/^N-\d+/);

    const bare = await resolveMediaTools({ PATH: path.join(dir, 'empty') });
    expect(bare.ffmpeg).toMatchObject({ path: BUNDLED_FFMPEG, source: 'bundled' });
    expect(bare.ffprobe).toMatchObject({ path: BUNDLED_FFPROBE, source: 'bundled' });
    expect(fs.statSync(BUNDLED_FFPROBE).mode & 0o111).not.toBe(0);
  });

  it("is 'missing' when FFMPEG_PATH or FFPROBE_PATH names no executable", async () => {
    const error = await rejection(resolveMediaTools({ FFMPEG_PATH: path.join(dir, 'no-such-ffmpeg'), PATH: '/usr/bin' }));
    expect(error).toMatchObject({ code: 'missing', message: expect.stringContaining('is not an executable file') });
    expect(error.message).toContain('FFMPEG_PATH=');
    const probeError = await rejection(resolveMediaTools({ FFPROBE_PATH: path.join(dir, 'no-such-ffprobe'), PATH: '/usr/bin' }));
    expect(probeError.message).toContain('FFPROBE_PATH=');
  });

  it('lists every ffmpeg the machine has, the chosen one first', async () => {
    const bin = path.join(dir, 'bin6');
    const system = fakeBinary(path.join(bin, 'ffmpeg'), '6.1.1');
    fakeBinary(path.join(bin, 'ffprobe'), '6.1.1');
    const list = await availableFfmpegs({ PATH: bin });
    expect(list.map((tool) => [tool.path, tool.source])).toEqual([
      [system, 'system'],
      [BUNDLED_FFMPEG, 'bundled'],
    ]);
  });

  it('tells the release from a version or, for a git build, from its libraries', () => {
    expect(parseToolVersion('ffmpeg version 5.1.9-0+deb12u1 Copyright')).toEqual({ version: '5.1.9-0+deb12u1', major: 5 });
    expect(parseToolVersion('ffprobe version n6.1.1 Copyright')).toEqual({ version: 'n6.1.1', major: 6 });
    expect(
      parseToolVersion('ffmpeg version N-47683-g0e8eb07980-static https://x\nlibavutil      56. 24.101 / 56. 24.101'),
    ).toEqual({
      version: 'N-47683-g0e8eb07980-static',
      major: 4,
    });
    expect(parseFfmpegMajor('ffmpeg version N-112000-gabc Copyright')).toBeNull();
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

  it('writes a target whole or not at all (runFfmpegInto)', async () => {
    const folder = path.join(dir, 'into');
    fs.mkdirSync(folder);
    const target = path.join(folder, 'tone.wav');
    fs.writeFileSync(target, 'the old file');
    // Cancelled while it writes an endless output: the old file stays, the partial one is gone.
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const endless = ['-f', 'lavfi', '-i', 'anullsrc=r=48000', '-c:a', 'pcm_s16le', '-f', 'wav'];
    expect(await rejection(runFfmpegInto(target, endless, { signal: controller.signal }))).toMatchObject({ code: 'failed' });
    expect(fs.readFileSync(target, 'utf8')).toBe('the old file');
    expect(fs.readdirSync(folder)).toEqual(['tone.wav']);

    await runFfmpegInto(target, ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=0.2']);
    expect((await probe(target)).durationSeconds).toBeCloseTo(0.2, 1);
    expect(fs.readdirSync(folder)).toEqual(['tone.wav']);
  });

  it('summarises stderr', () => {
    expect(stderrSummary('a\r\n\nb\rc\n  d  \n', 2)).toBe('c\nd');
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

  it('brings a quiet narration and a loud one to -14 LUFS with true peaks at most -1 dBTP', async () => {
    const quiet = path.join(dir, 'quiet.wav');
    const loud = path.join(dir, 'loud.wav');
    // A voice at about -35 LUFS, and one clipping at full scale (a square-ish tone), as providers answer.
    // Long enough for the normaliser's 3-second window to settle, as any chapter is.
    const sentence = 'The lighthouse keeper counted the ships that never came back, and wrote each name in his book. ';
    await espeakSpeak({ text: sentence.repeat(4), voice: 'en-us', outFile: quiet });
    await runFfmpeg(['-i', quiet, '-af', 'volume=-20dB', '-y', `${quiet}.tmp.wav`]);
    fs.renameSync(`${quiet}.tmp.wav`, quiet);
    await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=220:duration=12:sample_rate=24000', '-af', 'volume=12dB', loud]);
    expect((await measureLoudness(quiet)).integrated).toBeLessThan(-30);

    for (const inputs of [[quiet], [loud], [quiet, loud]]) {
      const output = path.join(dir, 'loudness', `${inputs.length}-${path.basename(inputs[0]!)}`);
      const result = await concatAudio(inputs, output);
      expect(result.measured).toBeDefined();
      const after = await measureLoudness(output);
      expect(Math.abs(after.integrated - TARGET_LOUDNESS_LUFS)).toBeLessThanOrEqual(1);
      expect(after.truePeak).toBeLessThanOrEqual(MAX_TRUE_PEAK_DBTP);
      // Normalising changes the level, never the timing the subtitles are built on.
      expect(result.durationSeconds).toBeCloseTo(result.durations.reduce((a, b) => a + b, 0) + 0.4 * (inputs.length - 1), 1);
    }
    // Eleven ffmpeg passes over 12 s of audio: 15-20 s alone, twice that on a busy 2-core machine.
  }, 120_000);

  it('leaves silence silent, and reads loudnorm’s measurement', async () => {
    const silence = path.join(dir, 'silence.wav');
    await runFfmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono', '-t', '1', silence]);
    const result = await concatAudio([silence], path.join(dir, 'silent-out.wav'));
    expect(result.measured).toBeUndefined();
    expect((await measureLoudness(path.join(dir, 'silent-out.wav'))).integrated).toBe(-Infinity);
    expect(
      parseLoudnormJson(
        '[Parsed_loudnorm_0 @ 0x1]\n{\n\t"input_i" : "-23.51",\n\t"input_tp" : "-4.20",\n\t"input_lra" : "3.10",\n\t"input_thresh" : "-33.9"\n}',
      ),
    ).toEqual({ integrated: -23.51, truePeak: -4.2, range: 3.1, threshold: -33.9 });
  });

  it('pads every input but the last, and refuses nothing to join', async () => {
    expect(concatAudioGraph(2, 0.4)).toBe(
      '[0:a:0]aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono,apad=pad_len=19200[a0];' +
        '[1:a:0]aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono[a1];[a0][a1]concat=n=2:v=0:a=1[out]',
    );
    expect((await rejection(concatAudio([], path.join(dir, 'x.wav')))).code).toBe('invalid');
  });
});
