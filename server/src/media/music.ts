import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../lib/atomicWrite';
import { NARRATION_SAMPLE_RATE, audioDurationSeconds, normalizeLoudness, type Loudness } from './audio';
import { MediaError, ffmpegFileArg, inputArgs, runFfmpeg, type MediaTools } from './ffmpeg';

/**
 * Background music under the narration: the admin's track brought to a quiet bed, ducked further
 * while the voice speaks (a sidechain compressor keyed by the narration), looped when it is
 * shorter than the video and faded in and out at the video's ends; then the mix is brought to the
 * narration's loudness target again (-14 LUFS, true peak under -1 dBTP). Every filter here runs on
 * the ffmpeg 4.1 that ships in node_modules (amerge + pan rather than amix's `normalize`, 4.4+).
 */

/** The bed's loudness before ducking: 13 LU under the narration, audible between sentences. */
export const MUSIC_BED_LUFS = -27;
/** Seconds of fade at the start and the end of the video. */
export const MUSIC_FADE_IN_SECONDS = 1.5;
export const MUSIC_FADE_OUT_SECONDS = 3;
/** How much of the bed's gain a quiet or silent track may get (it is never amplified into noise). */
const MAX_MUSIC_GAIN_DB = 20;

/**
 * The ducking: the music is compressed by the narration's level (threshold -30 dBFS, ratio 8, so
 * speech at -14 LUFS holds it ~10 dB lower), fast to duck (20 ms) and slow to come back (400 ms),
 * so it breathes between sentences without pumping between words.
 */
export const DUCKING = 'sidechaincompress=threshold=0.03:ratio=8:attack=20:release=400:makeup=1';

/** The gain, dB, that brings a track measured at `loudness` to the bed's level. */
export function musicGainDb(loudness: number | null | undefined): number {
  if (loudness === null || loudness === undefined || !Number.isFinite(loudness)) return 0;
  return Math.min(MAX_MUSIC_GAIN_DB, MUSIC_BED_LUFS - loudness);
}

/**
 * The graph: input 0 the narration, input 1 the music (looped by `-stream_loop -1`), both at
 * 48 kHz stereo; the music at `gainDb`, cut to `seconds`, faded, ducked by the narration, then
 * summed with it (amerge + pan: an exact sum, no scaling by the number of inputs).
 */
export function musicMixGraph(seconds: number, gainDb: number): string {
  const fadeIn = Math.min(MUSIC_FADE_IN_SECONDS, seconds / 4);
  const fadeOut = Math.min(MUSIC_FADE_OUT_SECONDS, seconds / 4);
  const stereo = `aresample=${NARRATION_SAMPLE_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo`;
  return [
    `[1:a:0]${stereo},volume=${gainDb.toFixed(2)}dB,atrim=duration=${seconds.toFixed(3)},asetpts=PTS-STARTPTS,` +
      `afade=t=in:d=${fadeIn.toFixed(3)},afade=t=out:st=${(seconds - fadeOut).toFixed(3)}:d=${fadeOut.toFixed(3)}[bed]`,
    `[0:a:0]${stereo},asplit=2[voice][key]`,
    `[bed][key]${DUCKING}[ducked]`,
    `[voice][ducked]amerge=inputs=2,pan=stereo|c0=c0+c2|c1=c1+c3[out]`,
  ].join(';');
}

/** Of a long track, only this much is measured: the bed under a video rarely needs more. */
const MEASURED_SECONDS = 600;
/** Quieter than this is silence: nothing to bring up. */
const SILENT_LUFS = -70;

/**
 * A track's integrated loudness (EBU R128, ffmpeg's ebur128 filter, which is far cheaper than
 * loudnorm on a long file) over its first ten minutes; null for silence. Decoding the file is also
 * the proof that ffmpeg can read it: a damaged file throws MediaError('failed').
 */
export async function measureIntegratedLoudness(
  file: string,
  opts: { tools?: MediaTools; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<number | null> {
  const { stderr } = await runFfmpeg(
    [
      '-loglevel',
      'info',
      '-nostats',
      '-t',
      String(MEASURED_SECONDS),
      ...(await inputArgs(file, 'audio')),
      '-map',
      '0:a:0',
      '-af',
      'ebur128',
      '-f',
      'null',
      '-',
    ],
    { timeoutMs: opts.timeoutMs, signal: opts.signal, binary: opts.tools?.ffmpeg.path },
  );
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const match = /Integrated loudness:\s*I:\s*(-?[\d.]+|-inf)\s*LUFS/.exec(summary);
  if (!match) throw new MediaError('failed', 'ffmpeg printed no loudness for the track');
  const value = Number(match[1]);
  return Number.isFinite(value) && value > SILENT_LUFS ? value : null;
}

export interface MixMusicOptions {
  tools?: MediaTools;
  /** The track's integrated loudness when known (measured at upload; null: silent); measured here when undefined. */
  musicLoudness?: number | null;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface MixMusicResult {
  durationSeconds: number;
  /** The mix's loudness before it was brought to the target. */
  measured?: Loudness;
}

/**
 * Mixes `music` under `narration` into a 48 kHz stereo WAV at `output` lasting exactly as long as
 * the narration, brought to -14 LUFS. Written under a temporary name, then renamed. Throws
 * MediaError ('invalid' for a file without audio).
 */
export async function mixMusic(
  narration: string,
  music: string,
  output: string,
  opts: MixMusicOptions = {},
): Promise<MixMusicResult> {
  const seconds = await audioDurationSeconds(narration, opts.tools);
  await audioDurationSeconds(music, opts.tools);
  const run = { timeoutMs: opts.timeoutMs, signal: opts.signal, binary: opts.tools?.ffmpeg.path };
  const loudness =
    opts.musicLoudness !== undefined
      ? opts.musicLoudness
      : await measureIntegratedLoudness(music, { tools: opts.tools, timeoutMs: opts.timeoutMs, signal: opts.signal });
  const target = path.resolve(output);
  const suffix = crypto.randomBytes(4).toString('hex');
  const mixed = `${target}.${suffix}.mixed.wav`;
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    await runFfmpeg(
      [
        '-loglevel',
        'error',
        ...(await inputArgs(narration, 'audio')),
        '-stream_loop',
        '-1',
        ...(await inputArgs(music, 'audio')),
        '-filter_complex',
        musicMixGraph(seconds, musicGainDb(loudness)),
        '-map',
        '[out]',
        '-t',
        seconds.toFixed(3),
        '-c:a',
        'pcm_s16le',
        '-f',
        'wav',
        ffmpegFileArg(mixed),
      ],
      run,
    );
    return await writeFileAtomic(
      target,
      async (temporary) => {
        const measured = await normalizeLoudness(mixed, temporary, opts);
        return { durationSeconds: await audioDurationSeconds(temporary, opts.tools), ...(measured ? { measured } : {}) };
      },
      { suffix: '.partial.wav' },
    );
  } catch (error) {
    if (error instanceof MediaError) throw error;
    throw new MediaError('failed', error instanceof Error ? error.message : String(error));
  } finally {
    await fs.rm(mixed, { force: true });
  }
}
