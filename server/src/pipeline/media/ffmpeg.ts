import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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

export const FFMPEG_MISSING_MESSAGE = 'ffmpeg is not installed: apt-get install ffmpeg, or set FFMPEG_PATH';
export const DEFAULT_FFMPEG_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_PROBE_TIMEOUT_MS = 30_000;
/** How much of ffmpeg's stderr is kept for error messages. */
const STDERR_TAIL_CHARS = 4096;
/** How many of the last stderr lines go into an error message. */
const ERROR_LINES = 8;

export interface ResolvedFfmpeg {
  ffmpeg: string;
  /** Where ffprobe is expected; see `ffprobeFound`. */
  ffprobe: string;
  /** False when no ffprobe was found (e.g. @ffmpeg-installer ships only ffmpeg): `probe` then fails with 'missing'. */
  ffprobeFound: boolean;
  source: 'FFMPEG_PATH' | 'system' | '@ffmpeg-installer';
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

/** The `path` of the optional @ffmpeg-installer/ffmpeg package, when it happens to be installed. */
function installerFfmpeg(): string | null {
  try {
    const installer = require(require.resolve('@ffmpeg-installer/ffmpeg')) as { path?: unknown };
    return typeof installer.path === 'string' && isExecutable(installer.path) ? installer.path : null;
  } catch {
    return null;
  }
}

/**
 * Where ffmpeg and ffprobe are: FFMPEG_PATH (ffprobe from FFPROBE_PATH or beside it), else both on
 * PATH, else the optional @ffmpeg-installer/ffmpeg package. An FFMPEG_PATH that does not point to
 * an executable is an error, not a reason to look elsewhere. Throws MediaError('missing').
 */
export function resolveFfmpeg(env: NodeJS.ProcessEnv = process.env): ResolvedFfmpeg {
  const configured = env.FFMPEG_PATH?.trim();
  if (configured) {
    if (!isExecutable(configured))
      throw new MediaError('missing', `${FFMPEG_MISSING_MESSAGE} (FFMPEG_PATH=${configured} is not an executable file)`);
    const ffprobe = env.FFPROBE_PATH?.trim() || path.join(path.dirname(configured), 'ffprobe');
    return { ffmpeg: configured, ffprobe, ffprobeFound: isExecutable(ffprobe), source: 'FFMPEG_PATH' };
  }
  const system = findOnPath('ffmpeg', env.PATH);
  if (system) {
    const ffprobe = env.FFPROBE_PATH?.trim() || findOnPath('ffprobe', env.PATH) || path.join(path.dirname(system), 'ffprobe');
    return { ffmpeg: system, ffprobe, ffprobeFound: isExecutable(ffprobe), source: 'system' };
  }
  const installed = installerFfmpeg();
  if (installed) {
    const ffprobe = env.FFPROBE_PATH?.trim() || path.join(path.dirname(installed), 'ffprobe');
    return { ffmpeg: installed, ffprobe, ffprobeFound: isExecutable(ffprobe), source: '@ffmpeg-installer' };
  }
  throw new MediaError('missing', FFMPEG_MISSING_MESSAGE);
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
  /** The program to run; resolveFfmpeg()'s ffmpeg (or ffprobe, for probe) when absent. */
  binary?: string;
  /** Told the child's pid once it started (benchmarks read /proc/<pid>). */
  onSpawn?: (pid: number) => void;
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
      stdio: ['ignore', opts.collectStdout ? 'pipe' : 'ignore', 'pipe'],
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
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
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
  const binary = opts.binary ?? resolveFfmpeg().ffmpeg;
  const { stderr } = await spawnCollect(binary, ['-hide_banner', '-nostdin', '-nostats', '-y', ...args], opts);
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
export async function probe(file: string, opts: RunOptions = {}): Promise<ProbeResult> {
  const binary = opts.binary ?? resolveFfmpeg().ffprobe;
  const args = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', `file:${path.resolve(file)}`];
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

/** ffmpeg's major version from `ffmpeg -version` (e.g. 5 for "ffmpeg version 5.1.9-0+deb12u1"); null for git builds. */
export function parseFfmpegMajor(versionOutput: string): number | null {
  const match = /ffmpeg version n?(\d+)\.\d+/i.exec(versionOutput);
  return match ? Number(match[1]) : null;
}

const majorVersions = new Map<string, Promise<number | null>>();

/** The major version of the ffmpeg at `binary` (cached per binary); null when it cannot be told. */
export function ffmpegMajorVersion(binary: string): Promise<number | null> {
  let known = majorVersions.get(binary);
  if (!known) {
    known = spawnCollect(binary, ['-version'], { timeoutMs: DEFAULT_PROBE_TIMEOUT_MS, collectStdout: true }).then(({ stdout }) =>
      parseFfmpegMajor(stdout),
    );
    majorVersions.set(binary, known);
    known.catch(() => majorVersions.delete(binary));
  }
  return known;
}

/** `file:<absolute path>`: how a path is passed to ffmpeg, so no name is read as a protocol or an option. */
export function ffmpegFileArg(file: string): string {
  return `file:${path.resolve(file)}`;
}
