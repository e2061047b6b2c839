import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../lib/atomicWrite';
import {
  MediaError,
  OWN_INPUT,
  ffmpegFileArg,
  inputArgs,
  inputTypeOf,
  mediaToolsEnv,
  probe,
  resolveMediaTools,
  runFfmpeg,
  runFfmpegInto,
  type MediaTools,
} from './ffmpeg';
import { chooseFonts, fontFolder, type FontChoice } from './fonts';
import { fontForGraph } from './sceneCards';
import { type Cue, balancedLines, toAss } from './subtitles';

/**
 * The story video: stills with a slow centred zoom, one after the other, the narration as AAC, the
 * subtitles burned in; 1920x1080 H.264 (yuv420p, BT.709) in an MP4 whose index comes first
 * (faststart), plus a 1280x720 JPEG thumbnail. docs/pipeline-media.md explains the filter graph
 * and how the settings were chosen (scripts/bench-render.ts measures them). Every graph here runs
 * on the ffmpeg 4.1 that ships in node_modules as well as on a newer system one.
 *
 * The zoom: each still is fitted to the frame once (in yuv444p, so any crop offset is exact: zoompan
 * rounds offsets to even pixels in a subsampled format, a visible jitter); step
 * k of S keeps the centred (1920 - 2k) x (1080 - ~2k*9/16) window of it and scales that back to
 * 1920x1080 (zoompan, fed one copy of the still per step). The left and right edges move in by
 * exactly one source pixel per step and the top and bottom in proportion, always centred and
 * always the same way, so the motion is steady and never wobbles (zoompan's classic jitter comes
 * from a crop size that rounds differently every frame; here every step's size is a whole number
 * chosen up front). Each step is computed once and held on screen for as many frames as it lasts
 * (loop + setpts + fps), so a 10 s still costs ~72 scaled frames instead of 250.
 */

export interface RenderSettings {
  /** 1920x1080 for a video, 1080x1920 for a Short (renderSettingsFor). */
  width: number;
  height: number;
  fps: number;
  /** libx264 preset and constant-quality factor. */
  preset: string;
  crf: number;
  /** Extra growth of the picture over a still: 0.08 zooms 1.0 -> 1.08 (or back, on every other still). */
  zoom: number;
  /** swscale algorithm for fitting the stills (zoompan always scales its steps bicubic). */
  scaleFlags: string;
  audioBitrate: string;
  audioSampleRate: number;
  audioChannels: number;
  /**
   * Stills per ffmpeg run at most. Every still's chain holds its own frames and buffer pools until
   * the run ends (~12-20 MB each), so longer stories are rendered in passes of at most this many
   * stills, joined without re-encoding, which keeps the peak memory flat.
   */
  stillsPerPass: number;
  /**
   * Passes encoded at once (passPlan). ffmpeg runs a pass's whole filter graph (zoom, subtitles)
   * in one thread while x264 uses the others: two passes side by side keep both cores busy, where
   * one pass leaves a core waiting on the filters a quarter of the time.
   */
  concurrentPasses: number;
  thumbnailWidth: number;
  thumbnailHeight: number;
  /** Characters per line of the thumbnail's title (up to three lines). */
  thumbnailLineChars: number;
  /** The burned-in subtitles: font size and bottom margin as shares of the height, side margins of the width. */
  subtitleFontSize: number;
  subtitleMarginV: number;
  subtitleMarginH: number;
}

/**
 * Chosen with `npm run bench:render` on 2 cores (figures in docs/pipeline-media.md). libx264 is
 * nearly all of the cost (it spends ~10 ms per 1080p frame even on identical frames), so the preset
 * decides: `superfast` needs ~20 % less CPU than `veryfast` for files ~1.6x larger (about 1.7 Mbit/s
 * at CRF 23: still far below what YouTube accepts, and visually the same); `ultrafast` would be
 * twice as fast again but 5x larger and further from a bare encode. 25 fps keeps subtitle timing to
 * 40 ms; the zoom itself changes at most every ~3 frames on a 10 s still.
 */
export const RENDER_SETTINGS: RenderSettings = {
  width: 1920,
  height: 1080,
  fps: 25,
  preset: 'superfast',
  crf: 23,
  zoom: 0.08,
  scaleFlags: 'bicubic',
  audioBitrate: '160k',
  audioSampleRate: 48_000,
  audioChannels: 2,
  stillsPerPass: 3,
  concurrentPasses: 2,
  thumbnailWidth: 1280,
  thumbnailHeight: 720,
  thumbnailLineChars: 24,
  subtitleFontSize: 0.055,
  subtitleMarginV: 0.065,
  subtitleMarginH: 0.05,
};

/**
 * A Short: the same encoder and zoom on a vertical 1080x1920 frame; larger subtitles (68 px on a
 * 1080-wide frame, 10 % side margins, 20 characters a line: see pipeline/format.ts) whose lines sit
 * at about 60 % of the height, above where a phone lays the title, the channel and the buttons;
 * a vertical 720x1280 thumbnail.
 */
export const SHORT_RENDER_SETTINGS: RenderSettings = {
  ...RENDER_SETTINGS,
  width: 1080,
  height: 1920,
  thumbnailWidth: 720,
  thumbnailHeight: 1280,
  thumbnailLineChars: 14,
  subtitleFontSize: 0.0355,
  subtitleMarginV: 0.33,
  subtitleMarginH: 0.1,
};

/**
 * `settings` with every size of the picture times `scale` (RENDER_SCALE; 1 leaves them as they
 * are): the frame and the thumbnail, rounded to even pixels (H.264's 4:2:0 needs them). The
 * subtitles' font size and margins and the thumbnail's title are shares of these sizes, and the
 * zoom a share of the width, so the layout and the filter graph stay the same, only smaller.
 */
export function scaleRenderSettings(settings: RenderSettings, scale: number): RenderSettings {
  if (scale === 1) return settings;
  const even = (pixels: number) => Math.max(2, 2 * Math.round((pixels * scale) / 2));
  return {
    ...settings,
    width: even(settings.width),
    height: even(settings.height),
    thumbnailWidth: even(settings.thumbnailWidth),
    thumbnailHeight: even(settings.thumbnailHeight),
  };
}

/** The settings of a format's render, its sizes times `scale` (RENDER_SCALE, 1 by default). */
export function renderSettingsFor(format: 'video' | 'short', scale = 1): RenderSettings {
  return scaleRenderSettings(format === 'short' ? SHORT_RENDER_SETTINGS : RENDER_SETTINGS, scale);
}

export interface RenderSegment {
  image: string;
  durationSeconds: number;
}

export interface RenderInput {
  /** Folder for temporary files (subtitle file, filter graph); created if missing. */
  workDir: string;
  /** Told how much of the video is encoded, 0 to 1, as ffmpeg reports it (the join of passes is not counted). */
  onProgress?: (fraction: number) => void;
  /** The .mp4 to write; only ever appears complete (written under a temporary name, then renamed). */
  output: string;
  /** The .jpg thumbnail (1280x720, or 720x1280 for a Short, from the first image, with the title drawn if given). */
  thumbnail: string;
  thumbnailTitle?: string;
  /** The stills in order; their durations are stretched to sum to the audio's exactly. */
  segments: RenderSegment[];
  /** One narration file. */
  audio: string;
  cues: Cue[];
  timeoutMs?: number;
  signal?: AbortSignal;
  /** An ffmpeg binary to use (ffprobe beside it, else the resolved one); resolveMediaTools() when absent. */
  ffmpegPath?: string;
  /** The tools to use, already resolved (the engine passes the server's). */
  tools?: MediaTools;
  /** Default RENDER_SETTINGS (benchmarks and tests may try others). */
  settings?: RenderSettings;
  /** Where to look for fonts DejaVu lacks; the system's folders by default (tests point elsewhere). */
  systemFontDirs?: string[];
}

export interface RenderResult {
  durationSeconds: number;
  sizeBytes: number;
  width: number;
  height: number;
  /** Characters of the subtitles or title that no font on this server can draw (see fonts.ts). */
  missingGlyphs: string[];
}

export interface PlannedSegment {
  image: string;
  /** Frames this still is on screen. */
  frames: number;
  /** Zoom in (1.0 -> 1+zoom) or out (1+zoom -> 1.0). */
  direction: 'in' | 'out';
}

/**
 * How many frames each still gets: the durations are scaled to sum to `totalSeconds`, and frame
 * boundaries are rounded on the running total, so the video has round(total x fps) frames and no
 * rounding error accumulates. Stills that round to no frame at all are left out.
 */
export function planSegments(segments: RenderSegment[], totalSeconds: number, fps: number): PlannedSegment[] {
  const sum = segments.reduce((total, segment) => total + segment.durationSeconds, 0);
  const totalFrames = Math.max(1, Math.round(totalSeconds * fps));
  const planned: PlannedSegment[] = [];
  let elapsed = 0;
  let startFrame = 0;
  for (const segment of segments) {
    elapsed += segment.durationSeconds;
    const endFrame = Math.round((elapsed / sum) * totalFrames);
    if (endFrame > startFrame) {
      planned.push({ image: segment.image, frames: endFrame - startFrame, direction: planned.length % 2 === 0 ? 'in' : 'out' });
    }
    startFrame = Math.max(startFrame, endFrame);
  }
  return planned;
}

/** How many one-pixel steps a still's zoom takes: the crop shrinks by `zoom`, one pixel per edge per step. */
export function zoomSteps(segment: PlannedSegment, settings: RenderSettings): number {
  const shrinkW = Math.max(1, Math.round((settings.width - settings.width / (1 + settings.zoom)) / 2));
  return Math.max(1, Math.min(shrinkW, segment.frames - 1));
}

/**
 * The filter chain of one still (input `index`): fit it to the frame once, make one copy per zoom
 * step and one more marking the end (so the last step lasts its whole time), let zoompan take step k's centred window of (W - 2k) x trunc(H (W - 2k + 1/4) / W) pixels
 * and scale it to W x H (the quarter pixel makes its truncation land on the whole size chosen;
 * the top offset is rounded down, so both edges move monotonically), then hold each step for
 * frames/(S+1) of the time, resampled to the output rate and cut to exactly `frames` frames.
 */
export function stillChain(index: number, segment: PlannedSegment, settings: RenderSettings): string {
  const { width: w, height: h, fps, scaleFlags } = settings;
  const steps = zoomSteps(segment, settings);
  // zoompan's `in` counts the copies from 0; the last copy only marks the end (it repeats step S);
  // zooming out walks the steps backwards.
  const level = segment.direction === 'in' ? `min(in,${steps})` : `(${steps}-min(in,${steps}))`;
  return [
    `[${index}:v:0]trim=end_frame=1`,
    `scale=${w}:${h}:force_original_aspect_ratio=increase:flags=${scaleFlags}:out_color_matrix=bt709:out_range=tv`,
    `crop=${w}:${h}`,
    'format=yuv444p',
    'setsar=1',
    `loop=loop=${steps + 1}:size=1:start=0`,
    `zoompan=z='${w}/(${w}-2*${level}+0.25)':x='${level}':y='floor((ih-trunc(ih/zoom))/2)':d=1:s=${w}x${h}:fps=${fps}`,
    'settb=AVTB',
    `setpts=N*${segment.frames}/${steps + 1}/(${fps}*TB)`,
    'setsar=1',
    'format=yuv420p',
    `fps=${fps}`,
    `trim=end_frame=${segment.frames}`,
    `setpts=PTS-STARTPTS[s${index}]`,
  ].join(',');
}

/** The folder (in the render's working directory) that holds links to the fonts the subtitles use. */
export const FONTS_DIR = 'fonts';

/**
 * The whole graph of one pass: one chain per still, concatenated, subtitles burned in
 * (`subtitleFile` is relative to ffmpeg's cwd). A pass starting at `startFrame` shifts its
 * timestamps there for the subtitles, and back to 0 for the encoder.
 */
export function renderGraph(
  segments: PlannedSegment[],
  settings: RenderSettings,
  subtitleFile: string | null,
  startFrame = 0,
): string {
  const chains = segments.map((segment, i) => stillChain(i, segment, settings));
  const labels = segments.map((_, i) => `[s${i}]`).join('');
  let subtitles = subtitleFile ? `,ass=filename=${subtitleFile}:fontsdir=${FONTS_DIR}` : '';
  if (subtitles && startFrame > 0) subtitles = `,setpts=PTS+${startFrame}/(${settings.fps}*TB)${subtitles},setpts=PTS-STARTPTS`;
  return `${chains.join(';\n')};\n${labels}concat=n=${segments.length}:v=1:a=0${subtitles},format=yuv420p[v]`;
}

export interface RenderPass {
  segments: PlannedSegment[];
  /** The pass's first frame in the whole video. */
  startFrame: number;
  frames: number;
}

/**
 * How many stills each pass takes: as even as possible, at most `stillsPerPass`, and spread over
 * at least `concurrentPasses` passes when there are that many stills (so they can run side by side).
 */
export function passSize(stills: number, settings: Pick<RenderSettings, 'stillsPerPass' | 'concurrentPasses'>): number {
  const most = Math.max(1, Math.floor(settings.stillsPerPass));
  const count = Math.max(Math.min(stills, Math.max(1, Math.floor(settings.concurrentPasses))), Math.ceil(stills / most));
  return Math.max(1, Math.ceil(stills / Math.max(1, count)));
}

/** The stills in runs of at most `stillsPerPass`, each knowing where it starts. */
export function splitPasses(planned: PlannedSegment[], stillsPerPass: number): RenderPass[] {
  const size = Math.max(1, Math.floor(stillsPerPass));
  const passes: RenderPass[] = [];
  let startFrame = 0;
  for (let i = 0; i < planned.length; i += size) {
    const segments = planned.slice(i, i + size);
    const frames = segments.reduce((total, segment) => total + segment.frames, 0);
    passes.push({ segments, startFrame, frames });
    startFrame += frames;
  }
  return passes;
}

/** The ffmpeg arguments of the render, after the inputs. */
export function encoderArgs(settings: RenderSettings): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    settings.preset,
    '-crf',
    String(settings.crf),
    '-pix_fmt',
    'yuv420p',
    '-colorspace',
    'bt709',
    '-color_primaries',
    'bt709',
    '-color_trc',
    'bt709',
    '-color_range',
    'tv',
  ];
}

/** The AAC arguments of the render. */
function audioArgs(settings: RenderSettings): string[] {
  return [
    '-c:a',
    'aac',
    '-b:a',
    settings.audioBitrate,
    '-ar',
    String(settings.audioSampleRate),
    '-ac',
    String(settings.audioChannels),
  ];
}

/** The tools a render uses: the ones given, else FFMPEG_PATH-style resolution of `ffmpegPath`, else the server's. */
export function renderTools(input: { tools?: MediaTools; ffmpegPath?: string }): Promise<MediaTools> {
  if (input.tools) return Promise.resolve(input.tools);
  if (input.ffmpegPath) return resolveMediaTools(mediaToolsEnv({ ffmpegPath: input.ffmpegPath }));
  return resolveMediaTools();
}

/** Checks the inputs before any work: stills, durations, files. Throws MediaError('invalid'). */
async function validateInput(input: RenderInput): Promise<void> {
  if (input.segments.length === 0) throw new MediaError('invalid', 'A video needs at least one image');
  for (const segment of input.segments) {
    if (!(segment.durationSeconds > 0) || !Number.isFinite(segment.durationSeconds)) {
      throw new MediaError('invalid', `Every image needs a positive duration (got ${segment.durationSeconds})`);
    }
  }
  for (const file of [input.audio, ...input.segments.map((segment) => segment.image)]) {
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) throw new MediaError('invalid', `Missing input file: ${file}`);
  }
  // What each file really is, before any ffmpeg runs: stills are images, the narration is audio.
  await inputTypeOf(input.audio, 'audio');
  for (const segment of input.segments) await inputTypeOf(segment.image, 'image');
}

export interface ThumbnailInput {
  image: string;
  output: string;
  title?: string;
  width?: number;
  height?: number;
  /** Characters per line of the title; 24 by default (a 1280-wide thumbnail). */
  lineChars?: number;
  ffmpegPath?: string;
  tools?: MediaTools;
  /** The fonts for the title; chosen for it when absent. */
  fonts?: FontChoice;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A folder for the title's text files; created if missing. */
  workDir: string;
}

/**
 * The shade under a thumbnail's title as raw RGBA pixels: transparent down to 40 % of the height,
 * then darker in a straight ramp to 75 % black at the bottom edge.
 */
export function thumbnailShade(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 4);
  const top = height * 0.4;
  for (let y = 0; y < height; y += 1) {
    const alpha = Math.round(255 * 0.75 * Math.min(1, Math.max(0, (y - top) / (height - top))));
    for (let x = 3; x < width * 4; x += 4) pixels[y * width * 4 + x] = alpha;
  }
  return pixels;
}

/**
 * A JPEG thumbnail: the image fitted (cover) to 1280x720, with the title, if given, in up to three
 * balanced bold lines over a shade that darkens the lower half. Text goes through `textfile=`, never
 * escaped into the graph. Answers the title's characters no font could draw.
 */
export async function makeThumbnail(input: ThumbnailInput): Promise<{ missingGlyphs: string[] }> {
  const width = input.width ?? RENDER_SETTINGS.thumbnailWidth;
  const height = input.height ?? RENDER_SETTINGS.thumbnailHeight;
  const workDir = path.resolve(input.workDir);
  const id = crypto.randomBytes(4).toString('hex');
  const lines = input.title?.trim() ? balancedLines(input.title, input.lineChars ?? 24, 3) : [];
  const textFiles = lines.map((_, i) => `thumb-${id}-${i}.txt`);
  const shadeFile = `thumb-${id}-shade.rgba`;
  const scratch = [...textFiles];
  const target = path.resolve(input.output);
  const tools = await renderTools(input);
  let missingGlyphs: string[] = [];
  await fs.mkdir(workDir, { recursive: true });
  try {
    const fit = `[0:v]trim=end_frame=1,scale=${width}:${height}:force_original_aspect_ratio=increase:flags=bicubic,crop=${width}:${height},setsar=1,format=rgb24`;
    let graph = `${fit}[out]`;
    const inputs = await inputArgs(input.image, 'image');
    if (lines.length > 0) {
      const fonts = input.fonts ?? (await chooseFonts(input.title ?? ''));
      missingGlyphs = fonts.missing;
      const font = await fontForGraph(fonts.bold, workDir, `thumb-${id}.ttf`);
      if (font !== fonts.bold) scratch.push(font);
      await Promise.all(lines.map((line, i) => fs.writeFile(path.join(workDir, textFiles[i]), line, 'utf8')));
      scratch.push(shadeFile);
      await fs.writeFile(path.join(workDir, shadeFile), thumbnailShade(width, height));
      inputs.push('-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${width}x${height}`, ...OWN_INPUT, '-i', `file:${shadeFile}`);
      // Sized by the short side: a vertical thumbnail's title is as large as a landscape one's.
      const size = Math.round(Math.min(width, height) * 0.105);
      const lineHeight = Math.round(size * 1.2);
      const top = height - Math.round(height * 0.07) - lines.length * lineHeight;
      const border = Math.max(2, Math.round(size / 18));
      const texts = textFiles.map(
        (file, i) =>
          `drawtext=fontfile=${font}:textfile=${file}:expansion=none:fontsize=${size}:fontcolor=white:borderw=${border}:bordercolor=black@0.7:x=(w-tw)/2:y=${top + i * lineHeight}`,
      );
      graph = `${fit}[img];[1:v]format=rgba[shade];[img][shade]overlay=0:0:format=rgb,${texts.join(',')}[out]`;
    }
    await fs.mkdir(path.dirname(target), { recursive: true });
    const args = ['-loglevel', 'error', ...inputs, '-filter_complex', graph, '-map', '[out]', '-frames:v', '1'];
    args.push('-c:v', 'mjpeg', '-q:v', '3', '-pix_fmt', 'yuvj420p', '-f', 'image2', '-update', '1');
    await runFfmpegInto(target, args, {
      cwd: workDir,
      timeoutMs: input.timeoutMs ?? 60_000,
      signal: input.signal,
      binary: tools.ffmpeg.path,
    });
    return { missingGlyphs };
  } finally {
    await Promise.all(scratch.map((file) => fs.rm(path.join(workDir, file), { force: true })));
  }
}

interface PassContext {
  workDir: string;
  ffmpeg: string;
  settings: RenderSettings;
  subtitleFile: string | null;
  signal?: AbortSignal;
  /** Milliseconds left before the render's deadline. */
  remainingMs: () => number;
  /** Told the seconds of output the pass `index` has written. */
  onPassProgress?: (index: number, seconds: number) => void;
}

/** Encodes one pass into `output`: its stills through the filter graph, video only. */
async function encodePass(pass: RenderPass, index: number, output: string, ctx: PassContext, graphFile: string): Promise<void> {
  await fs.writeFile(
    path.join(ctx.workDir, graphFile),
    renderGraph(pass.segments, ctx.settings, ctx.subtitleFile, pass.startFrame),
    'utf8',
  );
  const args = ['-loglevel', 'error'];
  for (const segment of pass.segments) args.push(...(await inputArgs(segment.image, 'image')));
  args.push('-filter_complex_script', graphFile, '-map', '[v]', ...encoderArgs(ctx.settings), '-an');
  args.push('-f', 'mp4', ffmpegFileArg(output));
  await runFfmpeg(args, {
    cwd: ctx.workDir,
    timeoutMs: ctx.remainingMs(),
    signal: ctx.signal,
    binary: ctx.ffmpeg,
    ...(ctx.onPassProgress ? { onProgress: (seconds: number) => ctx.onPassProgress?.(index, seconds) } : {}),
  });
}

/**
 * The narration as AAC (in an MP4 of its own), encoded while the picture is: apart, the two use
 * both cores; in one ffmpeg run the audio waits its turn in the thread that also runs the filters.
 */
async function encodeAudio(audio: string, output: string, ctx: PassContext): Promise<void> {
  await runFfmpeg(
    [
      '-loglevel',
      'error',
      ...(await inputArgs(audio, 'audio')),
      '-map',
      '0:a:0',
      '-vn',
      ...audioArgs(ctx.settings),
      '-f',
      'mp4',
      ffmpegFileArg(output),
    ],
    { cwd: ctx.workDir, timeoutMs: ctx.remainingMs(), signal: ctx.signal, binary: ctx.ffmpeg },
  );
}

/**
 * Puts the passes' videos (joined by the concat demuxer, no re-encoding: they share every encoder
 * setting and each lasts a whole number of frames) and the encoded narration into `output`, both
 * copied as they are, with faststart.
 */
async function muxParts(
  parts: Array<{ file: string; frames: number }>,
  audio: string,
  output: string,
  ctx: PassContext,
  listFile: string,
): Promise<void> {
  const args = ['-loglevel', 'error'];
  if (parts.length === 1) {
    args.push(...(await inputArgs(path.join(ctx.workDir, parts[0]!.file), 'video')));
  } else {
    const list = [
      'ffconcat version 1.0',
      ...parts.flatMap((part) => [`file ${part.file}`, `duration ${(part.frames / ctx.settings.fps).toFixed(6)}`]),
    ];
    await fs.writeFile(path.join(ctx.workDir, listFile), `${list.join('\n')}\n`, 'utf8');
    // Our own list of our own parts: plain names in the working folder (-safe 1 refuses any other), files only.
    args.push('-f', 'concat', '-safe', '1', ...OWN_INPUT, '-i', listFile);
  }
  args.push(...(await inputArgs(audio, 'audio')), '-map', '0:v:0', '-map', '1:a:0', '-c', 'copy', '-movflags', '+faststart');
  args.push('-f', 'mp4', ffmpegFileArg(output));
  await runFfmpeg(args, { cwd: ctx.workDir, timeoutMs: ctx.remainingMs(), signal: ctx.signal, binary: ctx.ffmpeg });
}

/**
 * Renders the story video (see the top of this file) and its thumbnail. The video lasts exactly as
 * long as the audio (to the frame). The stills are encoded in passes (passSize), two at a time,
 * while the narration's AAC and the thumbnail are made beside them; the parts are then joined and
 * muxed, copied, with faststart. Throws MediaError: 'invalid' for bad input, 'missing' without
 * ffmpeg, 'failed' or 'timeout'.
 */
export async function renderVideo(input: RenderInput): Promise<RenderResult> {
  const settings = input.settings ?? RENDER_SETTINGS;
  await validateInput(input);
  const tools = await renderTools(input);
  const ffmpeg = tools.ffmpeg.path;

  const audioInfo = await probe(input.audio, { binary: tools.ffprobe.path, signal: input.signal, kind: 'audio' });
  if (!audioInfo.streams.some((stream) => stream.type === 'audio') || !(audioInfo.durationSeconds > 0)) {
    throw new MediaError('invalid', `${path.basename(input.audio)} holds no audio`);
  }
  const audioSeconds = audioInfo.durationSeconds;
  const planned = planSegments(input.segments, audioSeconds, settings.fps);
  const passes = splitPasses(planned, passSize(planned.length, settings));
  const deadline = Date.now() + (input.timeoutMs ?? 120_000 + audioSeconds * 4000);

  const workDir = path.resolve(input.workDir);
  await fs.mkdir(workDir, { recursive: true });
  const id = crypto.randomBytes(4).toString('hex');
  const subtitleFile = input.cues.length > 0 ? `subtitles-${id}.ass` : null;
  const scratch: string[] = subtitleFile ? [subtitleFile] : [];
  const target = path.resolve(input.output);
  const ctx: PassContext = {
    workDir,
    ffmpeg,
    settings,
    subtitleFile,
    signal: input.signal,
    remainingMs: () => Math.max(1000, deadline - Date.now()),
  };
  // One choice of fonts for the whole video: the subtitles and the thumbnail's title look alike.
  const fonts = await chooseFonts(
    [input.thumbnailTitle ?? '', ...input.cues.map((cue) => cue.text)].join('\n'),
    ...(input.systemFontDirs ? [input.systemFontDirs] : []),
  );

  try {
    if (subtitleFile) {
      await fontFolder(fonts.files, workDir, FONTS_DIR);
      await fs.writeFile(
        path.join(workDir, subtitleFile),
        toAss(input.cues, {
          width: settings.width,
          height: settings.height,
          fontName: fonts.family,
          fontSize: settings.height * settings.subtitleFontSize,
          marginV: settings.height * settings.subtitleMarginV,
          marginH: settings.width * settings.subtitleMarginH,
        }),
        'utf8',
      );
    }
    // The thumbnail and the narration's AAC are made while the picture is encoded (each is a
    // small job in a process of its own); the parts are put together at the end, copied.
    const thumbnail = makeThumbnail({
      image: passes[0]?.segments[0]?.image ?? input.segments[0].image,
      output: input.thumbnail,
      title: input.thumbnailTitle,
      width: settings.thumbnailWidth,
      height: settings.thumbnailHeight,
      lineChars: settings.thumbnailLineChars,
      workDir,
      tools,
      fonts,
      signal: input.signal,
    });
    const audioFile = `audio-${id}.m4a`;
    scratch.push(audioFile);
    // A path in workDir: ffmpegFileArg resolves names against this process's folder, not ffmpeg's.
    const audio = encodeAudio(input.audio, path.join(workDir, audioFile), ctx);
    // Both are awaited even when the picture fails first, so nothing runs on after the render.
    const sideJobs = Promise.allSettled([thumbnail, audio]);
    await fs.mkdir(path.dirname(target), { recursive: true });

    // Progress over all passes: the frames each has written, summed (passes run side by side).
    const totalFrames = passes.reduce((sum, pass) => sum + pass.frames, 0);
    const written = passes.map(() => 0);
    const report = input.onProgress;
    if (report && totalFrames > 0) {
      ctx.onPassProgress = (index, seconds) => {
        written[index] = Math.min(passes[index]!.frames, seconds * settings.fps);
        report(Math.min(1, written.reduce((sum, frames) => sum + frames, 0) / totalFrames));
      };
    }
    const parts = passes.map((pass, i) => ({ file: `part-${id}-${i}.mp4`, graph: `graph-${id}-${i}.txt`, frames: pass.frames }));
    scratch.push(...parts.flatMap((part) => [part.file, part.graph]));
    // A few passes at a time; the first failure stops the others (they see the aborted signal).
    const passAbort = new AbortController();
    const passSignal = input.signal ? AbortSignal.any([input.signal, passAbort.signal]) : passAbort.signal;
    const passCtx: PassContext = { ...ctx, signal: passSignal };
    let next = 0;
    const lane = async () => {
      while (next < passes.length) {
        const i = next;
        next += 1;
        await encodePass(passes[i]!, i, path.join(workDir, parts[i]!.file), passCtx, parts[i]!.graph);
      }
    };
    let failure: { error: unknown } | undefined;
    try {
      await Promise.all(
        Array.from({ length: Math.max(1, Math.min(settings.concurrentPasses, passes.length)) }, () =>
          lane().catch((error: unknown) => {
            failure ??= { error };
            passAbort.abort();
          }),
        ),
      );
      if (failure) throw failure.error;
    } finally {
      await sideJobs;
    }
    for (const job of await sideJobs) if (job.status === 'rejected') throw job.reason;
    scratch.push(`parts-${id}.ffconcat`);
    return await writeFileAtomic(
      target,
      async (temporary) => {
        await muxParts(parts, path.join(workDir, audioFile), temporary, ctx, `parts-${id}.ffconcat`);
        const result = await probe(temporary, { binary: tools.ffprobe.path, kind: 'video' });
        const video = result.streams.find((stream) => stream.type === 'video');
        if (!video?.width || !video.height) throw new MediaError('failed', 'ffmpeg wrote a video without a picture');
        const { size } = await fs.stat(temporary);
        return {
          durationSeconds: result.durationSeconds,
          sizeBytes: size,
          width: video.width,
          height: video.height,
          missingGlyphs: fonts.missing,
        };
      },
      { suffix: '.partial.mp4' },
    );
  } finally {
    await Promise.all(scratch.map((file) => fs.rm(path.join(workDir, file), { force: true })));
    if (subtitleFile) await fs.rm(path.join(workDir, FONTS_DIR), { recursive: true, force: true });
  }
}
