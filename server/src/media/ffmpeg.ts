import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../lib/atomicWrite';
import { SNIFF_BYTES, sniffMediaType, type MediaFileType } from '../lib/mediaInput';

/**
 * Finding and running ffmpeg/ffprobe. Both are always started with an argument array (spawn, no
 * shell), so no file name or text can inject anything. Nothing is looked up at import: the
 * binaries are resolved when first used, and a missing ffmpeg is a MediaError('missing').
 */

export type MediaErrorCode = 'missing' | 'failed' | 'timeout' | 'invalid';

export class MediaError extends Error {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MediaError';
  }
}

export const FFMPEG_MISSING_MESSAGE =
  'ffmpeg was not found: run `npm ci` (the bundled ffmpeg comes with @ffmpeg-installer/ffmpeg), or set FFMPEG_PATH';
export const FFPROBE_MISSING_MESSAGE =
  'ffprobe was not found: run `npm ci` (the bundled ffprobe comes with @ffprobe-installer/ffprobe), or set FFPROBE_PATH';
export const DEFAULT_FFMPEG_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_PROBE_TIMEOUT_MS = 30_000;
/** A system ffmpeg older than this is passed over for the bundled one (the README's rule). */
export const MIN_SYSTEM_FFMPEG_MAJOR = 5;
/** How much of ffmpeg's stderr is kept for error messages. */
const STDERR_TAIL_CHARS = 4096;
/** How many of the last stderr lines go into an error message. */
const ERROR_LINES = 8;

/** Where a tool came from: an operator's setting, the system's PATH, or the npm package that ships it. */
export type MediaToolSource = 'FFMPEG_PATH' | 'FFPROBE_PATH' | 'system' | 'bundled';

export interface MediaTool {
  path: string;
  source: MediaToolSource;
  /** What `-version` says, e.g. "5.1.9-0+deb12u1" or "N-47683-g0e8eb07980-static". */
  version: string;
  /** The release it belongs to, from its libraries when the version does not say (4, 5, 6...); null when unknown. */
  major: number | null;
}

export interface MediaTools {
  ffmpeg: MediaTool;
  ffprobe: MediaTool;
}

/** The part of the environment that decides which tools are used. */
export interface MediaToolsEnv {
  FFMPEG_PATH?: string;
  FFPROBE_PATH?: string;
  PATH?: string;
}

/** True when `file` is an executable regular file. */
function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` in the folders of PATH, without starting a shell. */
export function findOnPath(name: string, envPath: string | undefined): string | null {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/** The private copies of shipped binaries this process made, by source; removed when it exits. */
const privateCopies = new Map<string, string>();
let privateFolder: string | undefined;

function sha256File(file: string): string {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1 << 20);
    for (let read = fs.readSync(fd, buffer); read > 0; read = fs.readSync(fd, buffer)) hash.update(buffer.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/**
 * A copy of `file` this process alone can have written: in a new folder of its own (mkdtemp,
 * 0700, checked to be this account's), compared byte for byte (SHA-256) with the original before
 * it is answered. Never a path chosen in advance, which another account of the machine could
 * have planted first. One copy per binary and process, removed when the process exits.
 */
export function privateCopy(file: string): string {
  const known = privateCopies.get(file);
  if (known && fs.existsSync(known)) return known;
  if (!privateFolder) {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'storyflow-tools-'));
    const stat = fs.lstatSync(folder);
    if (!stat.isDirectory() || (typeof process.getuid === 'function' && stat.uid !== process.getuid())) {
      throw new Error(`${folder} is not a folder of this account`);
    }
    fs.chmodSync(folder, 0o700);
    privateFolder = folder;
    process.once('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
  }
  const copy = path.join(privateFolder, `${path.basename(file)}-${crypto.randomBytes(4).toString('hex')}`);
  const expected = sha256File(file);
  fs.copyFileSync(file, copy, fs.constants.COPYFILE_EXCL);
  fs.chmodSync(copy, 0o700);
  if (sha256File(copy) !== expected) {
    fs.rmSync(copy, { force: true });
    throw new Error(`the copy of ${file} differs from it`);
  }
  privateCopies.set(file, copy);
  return copy;
}

/**
 * A binary shipped inside an npm package, made runnable: the packages set the run bit in an install
 * script that npm 11 does not run, and @ffprobe-installer's tarball has it for the owner only. When
 * this user may not run it and cannot chmod it, a private copy is used (privateCopy).
 */
export function runnableShipped(file: string, chmod: (file: string, mode: number) => void = fs.chmodSync): string | null {
  if (!fs.existsSync(file)) return null;
  if (isExecutable(file)) return file;
  try {
    chmod(file, 0o755);
    if (isExecutable(file)) return file;
  } catch {
    // Not ours: copy it below.
  }
  try {
    return privateCopy(file);
  } catch {
    return null;
  }
}

/** The binary of an @ffmpeg-installer / @ffprobe-installer package for this platform, if installed. */
function shippedBinary(pkg: '@ffmpeg-installer/ffmpeg' | '@ffprobe-installer/ffprobe'): string | null {
  try {
    const installer = require(pkg) as { path?: unknown };
    return typeof installer.path === 'string' ? runnableShipped(installer.path) : null;
  } catch {
    return null;
  }
}

/**
 * The version in `-version`'s first line, and the release: "5.1.9-0+deb12u1" says 5; a git build
 * ("N-47683-g0e8eb07980-static") says nothing, so its libavutil major tells (56 is 4.x, 57 is 5.x, ...).
 */
export function parseToolVersion(output: string): { version: string; major: number | null } {
  const first = /(?:ffmpeg|ffprobe) version (\S+)/i.exec(output);
  const version = first?.[1] ?? 'unknown';
  const release = /^n?(\d+)\.\d+/i.exec(version);
  if (release) return { version, major: Number(release[1]) };
  const avutil = /libavutil\s+(\d+)\./.exec(output);
  return { version, major: avutil ? Number(avutil[1]) - 52 : null };
}

/** ffmpeg's major version from `ffmpeg -version` (e.g. 5 for "ffmpeg version 5.1.9-0+deb12u1"); null when it cannot be told. */
export function parseFfmpegMajor(versionOutput: string): number | null {
  return parseToolVersion(versionOutput).major;
}

const versions = new Map<string, Promise<{ version: string; major: number | null }>>();

/** What `binary -version` says (cached per binary). Rejects with MediaError('missing') when it cannot run. */
export function toolVersion(binary: string): Promise<{ version: string; major: number | null }> {
  let known = versions.get(binary);
  if (!known) {
    known = spawnCollect(binary, ['-version'], { timeoutMs: DEFAULT_PROBE_TIMEOUT_MS, collectStdout: true }).then(({ stdout }) =>
      parseToolVersion(stdout),
    );
    versions.set(binary, known);
    known.catch(() => versions.delete(binary));
  }
  return known;
}

async function tool(binary: string, source: MediaToolSource): Promise<MediaTool> {
  const { version, major } = await toolVersion(binary);
  return { path: binary, source, version, major };
}

async function findFfmpeg(env: MediaToolsEnv): Promise<MediaTool> {
  const configured = env.FFMPEG_PATH?.trim();
  if (configured) {
    if (!isExecutable(configured)) throw new MediaError('missing', `FFMPEG_PATH=${configured} is not an executable file`);
    return tool(configured, 'FFMPEG_PATH');
  }
  const system = findOnPath('ffmpeg', env.PATH);
  if (system) {
    const found = await tool(system, 'system').catch(() => null);
    // A git build says no release; its libraries do, and an unknown one is taken as new.
    if (found && (found.major === null || found.major >= MIN_SYSTEM_FFMPEG_MAJOR)) return found;
  }
  const shipped = shippedBinary('@ffmpeg-installer/ffmpeg');
  if (shipped) return tool(shipped, 'bundled');
  throw new MediaError('missing', FFMPEG_MISSING_MESSAGE);
}

async function findFfprobe(env: MediaToolsEnv): Promise<MediaTool> {
  const configured = env.FFPROBE_PATH?.trim();
  if (configured) {
    if (!isExecutable(configured)) throw new MediaError('missing', `FFPROBE_PATH=${configured} is not an executable file`);
    return tool(configured, 'FFPROBE_PATH');
  }
  const ffmpegPath = env.FFMPEG_PATH?.trim();
  if (ffmpegPath) {
    const beside = path.join(path.dirname(ffmpegPath), 'ffprobe');
    if (isExecutable(beside)) return tool(beside, 'FFMPEG_PATH');
  }
  const system = findOnPath('ffprobe', env.PATH);
  if (system) {
    const found = await tool(system, 'system').catch(() => null);
    if (found) return found;
  }
  const shipped = shippedBinary('@ffprobe-installer/ffprobe');
  if (shipped) return tool(shipped, 'bundled');
  throw new MediaError('missing', FFPROBE_MISSING_MESSAGE);
}

const resolved = new Map<string, Promise<MediaTools>>();

/**
 * Which ffmpeg and ffprobe run (cached per setting): FFMPEG_PATH (ffprobe from FFPROBE_PATH or
 * beside it), else a system ffmpeg of version 5 or newer on PATH, else the one shipped in
 * node_modules by @ffmpeg-installer/ffmpeg (4.1); ffprobe likewise (any system version, else
 * @ffprobe-installer/ffprobe). Every graph of the engine runs on all of them. A setting that names
 * no executable is an error, not a reason to look elsewhere. Rejects with MediaError('missing').
 */
export function resolveMediaTools(env: MediaToolsEnv = process.env): Promise<MediaTools> {
  const key = JSON.stringify([env.FFMPEG_PATH ?? '', env.FFPROBE_PATH ?? '', env.PATH ?? '']);
  let known = resolved.get(key);
  if (!known) {
    known = Promise.all([findFfmpeg(env), findFfprobe(env)]).then(([ffmpeg, ffprobe]) => ({ ffmpeg, ffprobe }));
    resolved.set(key, known);
    known.catch(() => resolved.delete(key));
  }
  return known;
}

/**
 * Every ffmpeg this machine offers, the chosen one first: FFMPEG_PATH, the system's (whatever its
 * version) and the bundled one, each once. The benchmarks time them side by side.
 */
export async function availableFfmpegs(env: MediaToolsEnv = process.env): Promise<MediaTool[]> {
  const found: MediaTool[] = [];
  const add = async (binary: string | null, source: MediaToolSource) => {
    if (!binary || found.some((known) => known.path === binary)) return;
    const known = await tool(binary, source).catch(() => null);
    if (known) found.push(known);
  };
  const chosen = await resolveMediaTools(env).catch(() => null);
  if (chosen) found.push(chosen.ffmpeg);
  await add(env.FFMPEG_PATH?.trim() || null, 'FFMPEG_PATH');
  await add(findOnPath('ffmpeg', env.PATH), 'system');
  await add(shippedBinary('@ffmpeg-installer/ffmpeg'), 'bundled');
  return found;
}

/** The environment of resolveMediaTools for the server's settings (FFMPEG_PATH, FFPROBE_PATH), with this process's PATH. */
export function mediaToolsEnv(settings: { ffmpegPath?: string | undefined; ffprobePath?: string | undefined }): MediaToolsEnv {
  return {
    ...(settings.ffmpegPath ? { FFMPEG_PATH: settings.ffmpegPath } : {}),
    ...(settings.ffprobePath ? { FFPROBE_PATH: settings.ffprobePath } : {}),
    PATH: process.env.PATH ?? '',
  };
}

/** Milliseconds as seconds for a message: 0.3, 12, 600. */
const seconds = (ms: number): string => (ms < 10_000 ? String(Math.round(ms / 100) / 10) : String(Math.round(ms / 1000)));

/** The last lines of `stderr`, trimmed, for an error message. */
export function stderrSummary(stderr: string, lines: number = ERROR_LINES): string {
  return stderr
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-lines)
    .join('\n');
}

export interface RunOptions {
  cwd?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The program to run; resolveMediaTools()'s ffmpeg (or ffprobe, for probe) when absent. */
  binary?: string;
  /** Told the child's pid once it started (benchmarks read /proc/<pid>). */
  onSpawn?: (pid: number) => void;
  /** ffmpeg only: told how many seconds of output are written, as ffmpeg's `-progress` reports it. */
  onProgress?: (seconds: number) => void;
}

interface SpawnResult {
  stdout: string;
  stderr: string;
}

/**
 * Runs `binary args` and collects stderr (its last 4 KB) and, if asked, stdout. Kills the child
 * with SIGKILL on timeout or abort. Rejects with MediaError: 'missing' when the binary cannot be
 * started, 'timeout', or 'failed' (a non-zero exit, a signal, or an abort).
 */
function spawnCollect(binary: string, args: string[], opts: RunOptions & { collectStdout?: boolean }): Promise<SpawnResult> {
  const name = path.basename(binary);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_FFMPEG_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new MediaError('failed', `${name} was cancelled before it started`));
      return;
    }
    const child = spawn(binary, args, {
      cwd: opts.cwd,
      stdio: ['ignore', opts.collectStdout || opts.onProgress ? 'pipe' : 'ignore', 'pipe'],
      windowsHide: true,
    });
    let stderr = '';
    const stdout: Buffer[] = [];
    let ending: 'timeout' | 'abort' | null = null;
    let settled = false;

    const kill = (why: 'timeout' | 'abort') => {
      if (ending || child.exitCode !== null) return;
      ending = why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill('timeout'), timeoutMs);
    const onAbort = () => kill('abort');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (error: MediaError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderr });
    };

    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    if (opts.onProgress) {
      // `-progress pipe:1`: key=value lines; out_time_us (out_time_ms in ffmpeg 4, also microseconds).
      const report = opts.onProgress;
      let pending = '';
      child.stdout?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const match = /^out_time_(?:us|ms)=(\d+)\s*$/.exec(line);
          if (match) report(Number(match[1]) / 1e6);
        }
      });
    } else child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.on('spawn', () => {
      if (child.pid !== undefined) opts.onSpawn?.(child.pid);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EACCES') {
        finish(
          new MediaError(
            'missing',
            name.startsWith('ffprobe') ? `ffprobe is not installed (${binary})` : `${FFMPEG_MISSING_MESSAGE} (${binary})`,
          ),
        );
      } else {
        finish(new MediaError('failed', `${name} could not be started: ${error.message}`));
      }
    });
    child.on('close', (code, signal) => {
      const tail = stderrSummary(stderr);
      if (ending === 'timeout') finish(new MediaError('timeout', `${name} took longer than ${seconds(timeoutMs)} s`));
      else if (ending === 'abort') finish(new MediaError('failed', `${name} was cancelled`));
      else if (code === 0) finish(null);
      else
        finish(
          new MediaError(
            'failed',
            `${name} failed (${signal ? `signal ${signal}` : `exit code ${code}`})${tail ? `: ${tail}` : ''}`,
          ),
        );
    });
  });
}

/**
 * Runs ffmpeg with `-hide_banner -nostdin -nostats -y` before `args` (no progress lines, never
 * waits for a keypress, overwrites outputs). Answers the kept tail of stderr.
 */
export async function runFfmpeg(args: string[], opts: RunOptions = {}): Promise<{ stderr: string }> {
  const binary = opts.binary ?? (await resolveMediaTools()).ffmpeg.path;
  const progress = opts.onProgress ? ['-progress', 'pipe:1'] : [];
  const { stderr } = await spawnCollect(binary, ['-hide_banner', '-nostdin', '-nostats', '-y', ...progress, ...args], opts);
  return { stderr };
}

export interface ProbedStream {
  type: 'video' | 'audio' | string;
  codec: string;
  width?: number;
  height?: number;
  pixFmt?: string;
  sampleRate?: number;
  channels?: number;
  /** Frames (video) or packets the container counts, when it says. */
  frames?: number;
}

export interface ProbeResult {
  /** The container's duration; 0 when it has none (a still image). */
  durationSeconds: number;
  streams: ProbedStream[];
  formatName: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** A positive finite number from a number or a numeric string (ffprobe writes both). */
const num = (value: unknown): number | undefined => {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(parsed) ? parsed : undefined;
};

/** ffprobe's JSON (`-show_format -show_streams`) as a ProbeResult. */
export function parseProbeJson(json: string): ProbeResult {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    throw new MediaError('invalid', 'ffprobe answered something that is not JSON');
  }
  const format = isRecord(data) && isRecord(data.format) ? data.format : {};
  const rawStreams = isRecord(data) && Array.isArray(data.streams) ? data.streams : [];
  const streams = rawStreams.filter(isRecord).map((s): ProbedStream => {
    const stream: ProbedStream = { type: str(s.codec_type) ?? 'unknown', codec: str(s.codec_name) ?? 'unknown' };
    const width = num(s.width);
    const height = num(s.height);
    const pixFmt = str(s.pix_fmt);
    const sampleRate = num(s.sample_rate);
    const channels = num(s.channels);
    if (width !== undefined) stream.width = width;
    if (height !== undefined) stream.height = height;
    if (pixFmt !== undefined) stream.pixFmt = pixFmt;
    if (sampleRate !== undefined) stream.sampleRate = sampleRate;
    if (channels !== undefined) stream.channels = channels;
    const frames = num(s.nb_frames);
    if (frames !== undefined) stream.frames = frames;
    return stream;
  });
  return { durationSeconds: num(format.duration) ?? 0, streams, formatName: str(format.format_name) ?? '' };
}

/**
 * What a media file holds: `ffprobe -v error -print_format json -show_format -show_streams`.
 * Throws MediaError: 'missing' without ffprobe, 'invalid' when ffprobe cannot read the file.
 */
export async function probe(file: string, opts: RunOptions & { kind?: InputKind } = {}): Promise<ProbeResult> {
  const binary = opts.binary ?? (await resolveMediaTools()).ffprobe.path;
  const [, demuxer] = await inputArgs(file, opts.kind ?? 'any');
  const args = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams'];
  args.push('-f', demuxer!, '-protocol_whitelist', 'file', ffmpegFileArg(file));
  try {
    const { stdout } = await spawnCollect(binary, args, {
      ...opts,
      timeoutMs: opts.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
      collectStdout: true,
    });
    return parseProbeJson(stdout);
  } catch (error) {
    if (error instanceof MediaError && error.code === 'failed' && !error.message.includes('cancelled')) {
      throw new MediaError(
        'invalid',
        `Cannot read ${path.basename(file)} as media: ${error.message.replace(/^ffprobe failed \([^)]*\):?\s*/, '')}`,
      );
    }
    throw error;
  }
}

/** `file:<absolute path>`: how a path is passed to ffmpeg, so no name is read as a protocol or an option. */
export function ffmpegFileArg(file: string): string {
  return `file:${path.resolve(file)}`;
}

/**
 * Runs ffmpeg with `args` (all but the output) so that `target` is written whole or not at all:
 * ffmpeg writes a temporary file beside it, ending like the target (so the same muxer is picked),
 * which is renamed over it once ffmpeg succeeded and removed when it failed. The folder must exist.
 */
export function runFfmpegInto(target: string, args: string[], opts: RunOptions = {}): Promise<{ stderr: string }> {
  return writeFileAtomic(target, (temporary) => runFfmpeg([...args, ffmpegFileArg(temporary)], opts), {
    suffix: `.partial${path.extname(target)}`,
  });
}

/** The demuxer ffmpeg is told to use for each kind of file it is given (never its own guess). */
const DEMUXERS: Record<MediaFileType, string> = {
  png: 'png_pipe',
  jpeg: 'jpeg_pipe',
  webp: 'webp_pipe',
  wav: 'wav',
  mp3: 'mp3',
  ogg: 'ogg',
  flac: 'flac',
  mp4: 'mov',
};

/** What each use of an input accepts: a still, a sound (a narration, a music track, our AAC), a video we rendered, or any of them. */
const KINDS: Record<InputKind, MediaFileType[]> = {
  image: ['png', 'jpeg', 'webp'],
  audio: ['wav', 'mp3', 'ogg', 'flac', 'mp4'],
  video: ['mp4'],
  any: ['png', 'jpeg', 'webp', 'wav', 'mp3', 'ogg', 'flac', 'mp4'],
};
export type InputKind = 'image' | 'audio' | 'video' | 'any';

/**
 * What `file` is, by its first bytes (lib/mediaInput.ts, sniffMediaType), checked against what
 * the caller expects. Throws MediaError('invalid') for anything else: a playlist, a concat script
 * or any other format ffmpeg would otherwise recognise and follow.
 */
export async function inputTypeOf(file: string, kind: InputKind): Promise<MediaFileType> {
  let head: Buffer;
  try {
    const handle = await fs.promises.open(file, 'r');
    try {
      const buffer = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new MediaError('invalid', `Cannot read ${path.basename(file)}: ${(error as Error).message}`);
  }
  const type = sniffMediaType(head);
  if (!type || !KINDS[kind].includes(type)) {
    const expected = {
      image: 'a PNG, JPEG or WebP image',
      audio: 'WAV, MP3, Ogg, FLAC or M4A audio',
      video: 'an MP4 video',
      any: 'an image, audio or video file of a known type',
    }[kind];
    throw new MediaError('invalid', `${path.basename(file)} is not ${expected}${type ? ` (it is ${type.toUpperCase()})` : ''}`);
  }
  return type;
}

/**
 * The ffmpeg (or ffprobe) arguments that open `file` as an input: its demuxer named (from its
 * first bytes, never guessed by ffmpeg, so a file that is really an HLS playlist or a concat
 * script is refused before ffmpeg runs, instead of being followed to other files), and only the
 * `file` protocol allowed for it and anything it could open. `-i` comes last: options for this
 * input (-stream_loop, -t) go before the answer.
 */
export async function inputArgs(file: string, kind: InputKind): Promise<string[]> {
  const type = await inputTypeOf(file, kind);
  return ['-f', DEMUXERS[type], '-protocol_whitelist', 'file', '-i', ffmpegFileArg(file)];
}

/** The input options of a file this process wrote itself in a format ffmpeg cannot guess (raw pixels, our concat list). */
export const OWN_INPUT = ['-protocol_whitelist', 'file'] as const;
