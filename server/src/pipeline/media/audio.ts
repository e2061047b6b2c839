import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { MediaError, ffmpegFileArg, probe, runFfmpeg, type MediaTools } from './ffmpeg';

/**
 * Narration audio: joining the narrated parts into one track and measuring audio files.
 */

/** Silence between two narrated parts, seconds: a breath between paragraphs. */
export const DEFAULT_GAP_SECONDS = 0.4;
/** The joined narration's sample rate: what AAC in the final MP4 uses, so nothing is resampled twice. */
export const NARRATION_SAMPLE_RATE = 48_000;

export interface ConcatAudioOptions {
  /** Silence after every input but the last; default 0.4 s. */
  gapSeconds?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The ffmpeg binary; resolveMediaTools()'s when absent. */
  ffmpegPath?: string;
  /** The tools to use (ffmpeg and ffprobe); resolveMediaTools() when absent. */
  tools?: MediaTools;
}

export interface ConcatAudioResult {
  /** The joined file's duration, measured. */
  durationSeconds: number;
  /** Where each input starts in the output, seconds (what subtitle cues are timed from). */
  offsets: number[];
  /** How long each input is, seconds (without the silence after it): a part's cues span offsets[i] .. offsets[i] + durations[i]. */
  durations: number[];
}

/** The duration of an audio file, seconds. Throws MediaError('invalid') when it holds no audio. */
export async function audioDurationSeconds(file: string, tools?: MediaTools): Promise<number> {
  const info = await probe(file, tools ? { binary: tools.ffprobe.path } : {});
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
  const temporary = `${target}.${crypto.randomBytes(4).toString('hex')}.partial.wav`;
  const args = [
    '-loglevel',
    'error',
    ...inputs.flatMap((file) => ['-i', ffmpegFileArg(file)]),
    '-filter_complex',
    concatAudioGraph(inputs.length, gap),
    '-map',
    '[out]',
    '-c:a',
    'pcm_s16le',
    '-f',
    'wav',
    ffmpegFileArg(temporary),
  ];
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    await runFfmpeg(args, { timeoutMs: opts.timeoutMs, signal: opts.signal, binary: opts.tools?.ffmpeg.path ?? opts.ffmpegPath });
    const durationSeconds = await audioDurationSeconds(temporary, opts.tools);
    await fs.rename(temporary, target);
    return { durationSeconds, offsets, durations };
  } finally {
    await fs.rm(temporary, { force: true });
  }
}
