import fs from 'node:fs/promises';
import path from 'node:path';
import { RUN_FILES } from '../../runLayout';
import { StepFailure, warn, type StepContext } from '../context';
import { concatAudio, type ConcatAudioResult } from '../../media/audio';
import { MediaError, ffmpegFileArg, mediaToolsEnv, resolveMediaTools, runFfmpegInto, type MediaTools } from '../../media/ffmpeg';
import { mixMusic } from '../../media/music';
import { renderSettingsFor, renderVideo } from '../../media/render';
import { subtitleCues, toSrt, type Cue, type CueOptions, type SpokenWord } from '../../media/subtitles';
import { SHORT_MAX_TEMPO, runFormat } from '../format';
import { narrationText } from './generatingAudios';

/**
 * Disk the render needs at most: the joined narration, the passes' parts, the video and a margin.
 * A render that would run out of space stops here with a clear error instead of leaving half a file.
 */
export const RENDER_DISK_BASE_MB = 300;
export const RENDER_DISK_PER_CHAPTER_MB = 60;

async function checkFreeSpace(ctx: StepContext, chapters: number): Promise<void> {
  const stats = await fs.statfs(ctx.workDir).catch(() => undefined);
  if (!stats) return;
  const freeMb = Math.floor((stats.bavail * stats.bsize) / (1024 * 1024));
  const neededMb = RENDER_DISK_BASE_MB + chapters * RENDER_DISK_PER_CHAPTER_MB;
  if (freeMb < neededMb) {
    throw new StepFailure(
      'pipeline.diskFull',
      { free: freeMb, needed: neededMb },
      `only ${freeMb} MB free, ${neededMb} MB needed`,
    );
  }
}

/** One narration file of the joined track: what it says, where it starts, how long it speaks. */
export interface NarrationPiece {
  text: string;
  /** Seconds from the start of the joined track. */
  offset: number;
  /** Seconds of speech (the silence after it excluded). */
  duration: number;
  /** Where its words start, seconds from its own start, when the voice told (the local voice). */
  words?: SpokenWord[];
}

/**
 * The subtitles of the joined narration: on the spoken word where the voice gave word timings,
 * by length otherwise (media/subtitles.ts). `npm run bench:subtitles` measures these cues.
 */
export function narrationCues(pieces: NarrationPiece[], opts: CueOptions = {}): Cue[] {
  return subtitleCues(
    pieces.map((piece) => ({
      text: piece.text,
      start: piece.offset,
      duration: Math.max(0.1, piece.duration),
      ...(piece.words ? { words: piece.words } : {}),
    })),
    opts,
  );
}

/**
 * A Short's narration longer than `maxSeconds`, sped up to fit (ffmpeg's atempo, which keeps the
 * pitch) when it needs at most SHORT_MAX_TEMPO; longer, the run stops and says how long it was.
 * Answers the factor the times were divided by (1 when it already fitted); `joined`'s offsets and
 * durations are rescaled in place, and the caller rescales the word timings with the factor.
 */
export async function fitNarration(
  narration: string,
  joined: ConcatAudioResult,
  maxSeconds: number,
  opts: { tools: MediaTools; signal?: AbortSignal },
): Promise<number> {
  if (joined.durationSeconds <= maxSeconds) return 1;
  const tempo = joined.durationSeconds / maxSeconds;
  if (tempo > SHORT_MAX_TEMPO) {
    throw new StepFailure(
      'pipeline.shortTooLong',
      { seconds: Math.round(joined.durationSeconds), max: Math.round(maxSeconds * SHORT_MAX_TEMPO) },
      `the Short's narration lasts ${joined.durationSeconds.toFixed(1)} s`,
    );
  }
  await runFfmpegInto(
    narration,
    ['-loglevel', 'error', '-i', ffmpegFileArg(narration), '-af', `atempo=${tempo.toFixed(5)}`, '-c:a', 'pcm_s16le', '-f', 'wav'],
    { binary: opts.tools.ffmpeg.path, ...(opts.signal ? { signal: opts.signal } : {}) },
  );
  joined.offsets = joined.offsets.map((offset) => offset / tempo);
  joined.durations = joined.durations.map((duration) => duration / tempo);
  joined.durationSeconds /= tempo;
  return tempo;
}

/** The word timings written beside a narration file (local voice), or undefined. */
async function readWords(audioFile: string): Promise<SpokenWord[] | undefined> {
  const raw = await fs.readFile(RUN_FILES.words(audioFile), 'utf8').catch(() => undefined);
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (!Array.isArray(parsed)) return undefined;
    const words = parsed.filter(
      (word): word is SpokenWord =>
        typeof word === 'object' &&
        word !== null &&
        Number.isFinite((word as SpokenWord).offset) &&
        Number.isFinite((word as SpokenWord).start),
    );
    return words.length > 0 ? words.map(({ offset, start }) => ({ offset, start })) : undefined;
  } catch {
    return undefined;
  }
}

/** Rendering a long story may take a while on a small machine. */
const RENDER_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * The process's background music under the narration (media/music.ts) into `soundtrack`, or the
 * narration alone: no track chosen, or one switched off, deleted or without its file since (the
 * run warns and goes on without it).
 */
async function withMusic(ctx: StepContext, narration: string, tools: MediaTools): Promise<string> {
  const musicId = ctx.process.musicId;
  if (!musicId) return narration;
  const track = await ctx.services.music.forRun(musicId);
  // The run takes its own link to the file (a copy across file systems), so an admin deleting the
  // track while it mixes changes nothing for it. Its file missing (a worker that does not share
  // MEDIA_DIR with the API): the video goes without music rather than failing, and says so.
  const own = path.join(ctx.workDir, RUN_FILES.music(path.extname(track?.file ?? '')));
  const present = track?.isActive ? await takeOwnCopy(track.file, own) : false;
  if (!track?.isActive || !present) {
    if (track?.isActive && !present) ctx.log.warn({ musicId, file: track.file }, 'background music file missing');
    // A deleted track has no name left to say.
    if (track) warn(ctx, 'pipeline.musicUnavailable', { name: track.name });
    else warn(ctx, 'pipeline.musicGone', {});
    return narration;
  }
  const soundtrack = path.join(ctx.workDir, RUN_FILES.soundtrack);
  await mixMusic(narration, own, soundtrack, { tools, musicLoudness: track.loudnessLufs, signal: ctx.signal });
  return soundtrack;
}

/**
 * Step 6: the narration joined into one track (a Short's sped up to fit three minutes when it
 * runs a little over), the background music mixed under it, each chapter's scenes sharing its
 * time in proportion to their text, subtitles timed to the narration, rendered by ffmpeg into
 * video.mp4 (1920x1080, or 1080x1920 for a Short, times RENDER_SCALE; H.264 + AAC, faststart) with a
 * thumbnail.
 */
export async function generatingVideo(ctx: StepContext): Promise<void> {
  const audios = ctx.checkpoint.audios!.files;
  const images = ctx.checkpoint.images!;
  const plan = runFormat(ctx);
  try {
    await checkFreeSpace(ctx, audios.length);
    const tools = await resolveMediaTools(mediaToolsEnv(ctx.config));
    const narration = path.join(ctx.workDir, RUN_FILES.narration);
    const joined = await concatAudio(
      audios.map((file) => path.join(ctx.workDir, file)),
      narration,
      { tools, signal: ctx.signal },
    );
    const tempo = plan.maxSeconds ? await fitNarration(narration, joined, plan.maxSeconds, { tools, signal: ctx.signal }) : 1;
    const soundtrack = await withMusic(ctx, narration, tools);
    const chapterSpan = (index: number) => {
      const start = joined.offsets[index] ?? 0;
      const end = joined.offsets[index + 1] ?? joined.durationSeconds;
      return { start, duration: Math.max(0.1, end - start) };
    };

    const segments = images.files.map((file, scene) => {
      const chapter = images.chapterOf[scene] ?? 0;
      const sameChapter = images.chapterOf
        .map((c, i) => ({ c, i }))
        .filter(({ c }) => c === chapter)
        .map(({ i }) => i);
      const lengths = sameChapter.map((i) => Math.max(1, images.texts[i]?.length ?? 1));
      const share = Math.max(1, images.texts[scene]?.length ?? 1) / lengths.reduce((a, b) => a + b, 0);
      return { image: path.join(ctx.workDir, file), durationSeconds: chapterSpan(chapter).duration * share };
    });
    // The chapters' spans cover the whole track: the last segment absorbs any rounding.
    const covered = segments.reduce((sum, s) => sum + s.durationSeconds, 0);
    const last = segments[segments.length - 1];
    if (last) last.durationSeconds = Math.max(0.1, last.durationSeconds + joined.durationSeconds - covered);

    // Subtitles follow the speech only (each chapter's span also holds the pause after it), on
    // the spoken word when the voice told where each word starts.
    const cues = narrationCues(
      await Promise.all(
        audios.map(async (file, index) => {
          const spoken = await readWords(path.join(ctx.workDir, file));
          const words = spoken?.map((word) => ({ offset: word.offset, start: word.start / tempo }));
          return {
            text: narrationText(ctx, index),
            offset: chapterSpan(index).start,
            duration: joined.durations[index] ?? chapterSpan(index).duration,
            ...(words ? { words } : {}),
          };
        }),
      ),
      plan.subtitles,
    );
    const result = await renderVideo({
      workDir: path.join(ctx.workDir, RUN_FILES.renderDir),
      output: path.join(ctx.workDir, RUN_FILES.video),
      thumbnail: path.join(ctx.workDir, RUN_FILES.thumbnail),
      thumbnailTitle: ctx.checkpoint.texts!.title,
      segments,
      audio: soundtrack,
      cues,
      settings: renderSettingsFor(plan.format, ctx.config.renderScale),
      timeoutMs: RENDER_TIMEOUT_MS,
      signal: ctx.signal,
      tools,
      onProgress: (fraction) => void ctx.progress(Math.floor(fraction * 100), 100, 'percent'),
    });
    if (result.missingGlyphs.length > 0) warn(ctx, 'pipeline.fontsMissing', { characters: result.missingGlyphs.join(' ') });
    // The same cues, as the caption track YouTube gets with the video (step 7).
    await fs.writeFile(path.join(ctx.workDir, RUN_FILES.captions), toSrt(cues));
    ctx.checkpoint.video = {
      file: RUN_FILES.video,
      thumbnail: RUN_FILES.thumbnail,
      durationSeconds: result.durationSeconds,
      captions: RUN_FILES.captions,
    };
  } catch (error) {
    if (error instanceof StepFailure) throw error;
    if (error instanceof MediaError && error.code === 'missing')
      throw new StepFailure('pipeline.ffmpegMissing', {}, error.message);
    // ffmpeg's own words go to the server log; the reader learns what kind of stop it was.
    const message = error instanceof Error ? error.message : String(error);
    const reasonKey = error instanceof MediaError && error.code === 'timeout' ? 'reason.render.timeout' : 'reason.render.failed';
    throw new StepFailure('pipeline.videoFailed', { reason_key: reasonKey }, message);
  }
}

/** `file` hard-linked (else copied) at `to`; false when it is not there to take. */
async function takeOwnCopy(file: string, to: string): Promise<boolean> {
  await fs.rm(to, { force: true });
  return fs.link(file, to).then(
    () => true,
    () =>
      fs.copyFile(file, to).then(
        () => true,
        () => false,
      ),
  );
}
