import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../lib/atomicWrite';
import { MediaError, ffmpegFileArg, inputArgs, probe, runFfmpeg, type MediaTools } from './ffmpeg';

/**
 * Narration audio: joining the narrated parts into one track and measuring audio files.
 */

/** Silence between two narrated parts, seconds: a breath between paragraphs. */
export const DEFAULT_GAP_SECONDS = 0.4;
/** The joined narration's sample rate: what AAC in the final MP4 uses, so nothing is resampled twice. */
export const NARRATION_SAMPLE_RATE = 48_000;

/**
 * The narration's loudness, whatever the voice provider: -14 LUFS integrated (EBU R128, what
 * YouTube plays at), true peak at most -1 dBTP. The normaliser aims a little lower (-1.5) because
 * the AAC encode of the final video can lift peaks by a fraction of a decibel.
 */
export const TARGET_LOUDNESS_LUFS = -14;
export const MAX_TRUE_PEAK_DBTP = -1;
const NORMALISER_TRUE_PEAK_DBTP = -1.5;
const NORMALISER_LRA = 11;
/** Quieter than this is silence (or nearly): it is left as it is rather than amplified into noise. */
const SILENCE_LUFS = -70;

export interface Loudness {
  /** Integrated loudness, LUFS. */
  integrated: number;
  /** True peak, dBTP. */
  truePeak: number;
  /** Loudness range, LU. */
  range: number;
  /** loudnorm's gating threshold, LUFS (needed by the second pass). */
  threshold: number;
}

/** The JSON block ffmpeg's loudnorm filter prints (print_format=json) as numbers. */
export function parseLoudnormJson(stderr: string): Loudness {
  const block = /\{[^{}]*"input_i"[^{}]*\}/.exec(stderr)?.[0];
  if (!block) throw new MediaError('failed', 'ffmpeg printed no loudness measurement');
  const data = JSON.parse(block) as Record<string, string>;
  const value = (key: string) => {
    const parsed = Number(data[key]);
    // "-inf" (silence) reads as -Infinity: a number the caller can compare.
    return Number.isNaN(parsed) ? (String(data[key]).trim() === '-inf' ? -Infinity : NaN) : parsed;
  };
  return {
    integrated: value('input_i'),
    truePeak: value('input_tp'),
    range: value('input_lra'),
    threshold: value('input_thresh'),
  };
}

/** Measures an audio file's (or a video's audio's) loudness: EBU R128 by ffmpeg's loudnorm filter. */
export async function measureLoudness(
  file: string,
  opts: { tools?: MediaTools; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Loudness> {
  const { stderr } = await runFfmpeg(
    [
      '-loglevel',
      'info',
      ...(await inputArgs(file, 'audio')),
      '-map',
      '0:a:0',
      '-af',
      `loudnorm=I=${TARGET_LOUDNESS_LUFS}:TP=${NORMALISER_TRUE_PEAK_DBTP}:LRA=${NORMALISER_LRA}:print_format=json`,
      '-f',
      'null',
      '-',
    ],
    { timeoutMs: opts.timeoutMs, signal: opts.signal, binary: opts.tools?.ffmpeg.path },
  );
  return parseLoudnormJson(stderr);
}

/** The limiter's ceiling, in sample peaks: low enough that true peaks between samples stay under -1 dBTP. */
const LIMIT_DBFS = -2;

/** How close to the target the narration must land, LU, and the rounds allowed to get there. */
const LOUDNESS_TOLERANCE_LU = 0.3;
const MAX_LOUDNESS_ROUNDS = 5;

/**
 * One gain for the whole narration (so the voice keeps its phrasing), then a peak limiter: speech
 * often has peaks 18 dB above its loudness, more than -14 LUFS with peaks under -1 dBTP allows, so
 * the loudest syllables are held down (5 ms attack, 50 ms release).
 */
export function gainAndLimitFilter(gainDb: number): string {
  const limit = (10 ** (LIMIT_DBFS / 20)).toFixed(4);
  return `volume=${gainDb.toFixed(2)}dB,alimiter=limit=${limit}:attack=5:release=50:level=false`;
}

export interface ConcatAudioOptions {
  /** Silence after every input but the last; default 0.4 s. */
  gapSeconds?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The ffmpeg binary; resolveMediaTools()'s when absent. */
  ffmpegPath?: string;
  /** The tools to use (ffmpeg and ffprobe); resolveMediaTools() when absent. */
  tools?: MediaTools;
  /** Bring the joined track to TARGET_LOUDNESS_LUFS (two passes); default true. */
  normalize?: boolean;
}

export interface ConcatAudioResult {
  /** The joined file's duration, measured. */
  durationSeconds: number;
  /** Where each input starts in the output, seconds (what subtitle cues are timed from). */
  offsets: number[];
  /** How long each input is, seconds (without the silence after it): a part's cues span offsets[i] .. offsets[i] + durations[i]. */
  durations: number[];
  /** The joined track's loudness before normalisation; absent when it was not normalised. */
  measured?: Loudness;
}

/** The duration of an audio file, seconds. Throws MediaError('invalid') when it holds no audio. */
export async function audioDurationSeconds(file: string, tools?: MediaTools): Promise<number> {
  const info = await probe(file, { kind: 'audio', ...(tools ? { binary: tools.ffprobe.path } : {}) });
  if (!info.streams.some((stream) => stream.type === 'audio'))
    throw new MediaError('invalid', `${path.basename(file)} holds no audio`);
  if (!(info.durationSeconds > 0)) throw new MediaError('invalid', `${path.basename(file)} has no duration`);
  return info.durationSeconds;
}

/**
 * The filter graph joining `count` inputs: each one resampled to 48 kHz mono 16-bit (so WAVs at
 * 22 050 Hz from espeak-ng and 24 kHz from OpenAI mix freely), padded with `gapSeconds` of silence
 * (apad, counted in samples) unless it is the last, then joined with the concat filter.
 */
export function concatAudioGraph(count: number, gapSeconds: number): string {
  const chains: string[] = [];
  const labels: string[] = [];
  for (let i = 0; i < count; i += 1) {
    // pad_len (samples) rather than pad_dur, which ffmpeg 4.1 lacks.
    const pad = i < count - 1 && gapSeconds > 0 ? `,apad=pad_len=${Math.round(gapSeconds * NARRATION_SAMPLE_RATE)}` : '';
    chains.push(`[${i}:a:0]aresample=${NARRATION_SAMPLE_RATE},aformat=sample_fmts=s16:channel_layouts=mono${pad}[a${i}]`);
    labels.push(`[a${i}]`);
  }
  return `${chains.join(';')};${labels.join('')}concat=n=${count}:v=0:a=1[out]`;
}

/**
 * Brings `input` to TARGET_LOUDNESS_LUFS with true peaks under MAX_TRUE_PEAK_DBTP into `output`
 * (16-bit WAV): one gain for the whole file (so speech keeps its phrasing) and a peak limiter.
 * Limiting the peaks lowers the loudness, the more the louder: the gain is raised by what is still
 * missing and the original rendered again (never the limited copy, so the limiter runs once), until
 * it lands within 0.3 LU: two or three rounds of a few hundred ms each. A silent file is copied as
 * it is. Answers the input's loudness, or undefined when it was silent (or nearly).
 */
export async function normalizeLoudness(
  input: string,
  output: string,
  opts: { tools?: MediaTools; ffmpegPath?: string; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Loudness | undefined> {
  const run = { timeoutMs: opts.timeoutMs, signal: opts.signal, binary: opts.tools?.ffmpeg.path ?? opts.ffmpegPath };
  const measure = (file: string) => measureLoudness(file, { tools: opts.tools, timeoutMs: opts.timeoutMs, signal: opts.signal });
  const measured = await measure(input);
  if (!(measured.integrated > SILENCE_LUFS) || !Number.isFinite(measured.truePeak)) {
    await fs.copyFile(input, output);
    return undefined;
  }
  let gain = TARGET_LOUDNESS_LUFS - measured.integrated;
  for (let round = 1; ; round += 1) {
    await runFfmpeg(
      [
        '-loglevel',
        'error',
        ...(await inputArgs(input, 'audio')),
        '-af',
        gainAndLimitFilter(gain),
        '-c:a',
        'pcm_s16le',
        '-f',
        'wav',
        ffmpegFileArg(output),
      ],
      run,
    );
    const after = await measure(output);
    const missing = TARGET_LOUDNESS_LUFS - after.integrated;
    if (Math.abs(missing) <= LOUDNESS_TOLERANCE_LU || round === MAX_LOUDNESS_ROUNDS) break;
    gain += missing;
  }
  return measured;
}

/**
 * Joins narration files (any format ffmpeg reads) into one 48 kHz mono WAV at `output`, with
 * `gapSeconds` of silence between them. Each input's duration is probed first, so the offsets
 * answered are where each input really starts. The file is written under a temporary name and
 * renamed, so `output` never holds half a file. Throws MediaError.
 */
export async function concatAudio(inputs: string[], output: string, opts: ConcatAudioOptions = {}): Promise<ConcatAudioResult> {
  if (inputs.length === 0) throw new MediaError('invalid', 'No narration to join');
  const gap = opts.gapSeconds ?? DEFAULT_GAP_SECONDS;
  if (!(gap >= 0) || gap > 10) throw new MediaError('invalid', `The gap between parts must be 0-10 s (got ${gap})`);
  const durations = await Promise.all(inputs.map((file) => audioDurationSeconds(file, opts.tools)));
  const offsets: number[] = [];
  let position = 0;
  for (const duration of durations) {
    offsets.push(position);
    position += duration + gap;
  }

  const target = path.resolve(output);
  const joinedFile = `${target}.${crypto.randomBytes(4).toString('hex')}.joined.wav`;
  const normalize = opts.normalize ?? true;
  const run = { timeoutMs: opts.timeoutMs, signal: opts.signal, binary: opts.tools?.ffmpeg.path ?? opts.ffmpegPath };
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    return await writeFileAtomic(
      target,
      async (temporary) => {
        // Joined first, then measured and normalised from that file: two passes over one small WAV
        // rather than decoding every part twice. Not normalised, the join is the file.
        await runFfmpeg(
          [
            '-loglevel',
            'error',
            ...(await Promise.all(inputs.map((file) => inputArgs(file, 'audio')))).flat(),
            '-filter_complex',
            concatAudioGraph(inputs.length, gap),
            '-map',
            '[out]',
            '-c:a',
            'pcm_s16le',
            '-f',
            'wav',
            ffmpegFileArg(normalize ? joinedFile : temporary),
          ],
          run,
        );
        const measured = normalize ? await normalizeLoudness(joinedFile, temporary, opts) : undefined;
        const durationSeconds = await audioDurationSeconds(temporary, opts.tools);
        return { durationSeconds, offsets, durations, ...(measured ? { measured } : {}) };
      },
      { suffix: '.partial.wav' },
    );
  } finally {
    await fs.rm(joinedFile, { force: true });
  }
}
