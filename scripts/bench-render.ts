/**
 * `npm run bench:render`: how fast and how lean the story-video render is, against fixed targets,
 * for both formats: a video (1920x1080) and a Short (1080x1920).
 *
 * It builds a realistic one-minute job offline: scene cards (the offline image provider; 6
 * landscape ones for the video, 4 portrait ones for the Short), six ~10 s narrations spoken by
 * espeak-ng and joined with concatAudio, subtitle cues from subtitleCues with each format's line
 * lengths. Then, per format and per run (BENCH_RUNS, default 1):
 *
 *  (a) render: renderVideo with the production settings of the format. Wall time is the whole call (what a
 *      job pays: version check, probes, thumbnail, the encode, the faststart rewrite). Peak RSS is
 *      that of the ffmpeg process tree: /proc is polled every 100 ms for every descendant of this
 *      process, reading VmHWM (the kernel's own high-water mark, so a peak between two polls is not
 *      missed) and VmRSS (summed over processes alive at the same time).
 *  (b) floor: the cost of encoding the very same frames with the same encoder and settings and
 *      nothing else: `ffmpeg -i render.mp4 -an -c:v libx264 <same preset/crf/pix_fmt/colour tags>`.
 *      Why decode + encode of the rendered file: it is the only way to feed the encoder identical
 *      frames without the filter graph (1500 raw 1080p frames would be 4.6 GB on disk), and H.264
 *      decoding is cheap next to encoding (its time is printed too), so "ratio to floor" is the
 *      price of our filter graph (zoom, subtitles, audio, muxing) over a bare encode. The decode
 *      share makes the floor slightly generous; `render / (floor - decode)` is printed as well.
 *
 *  (c) reference: the same job rendered as before the passes ran side by side (one pass of every
 *      still, one ffmpeg process: concurrentPasses 1), timed in the same run, and compared with
 *      the production render frame by frame: SSIM and PSNR (ffmpeg's ssim and psnr filters) say
 *      whether the picture changed.
 *
 * Every ffmpeg the machine has is measured in the same run and printed side by side: the one the
 * server uses (FFMPEG_PATH, else a system ffmpeg 5+, else the bundled 4.1) and the others (the
 * bundled one and a system one when both exist), each with its own floor.
 *
 * Targets (2 cores): realtime factor (render wall / video duration) <= 0.25, render <= 1.25x floor,
 * ffmpeg peak RSS <= 600 MB, the picture the reference's (SSIM >= 0.99). The machine may be shared:
 * CPU seconds and the load average are printed so a slow wall time caused by other processes can
 * be told apart from a slow render. Exit code 0 even when a target is missed (1 only when the
 * bench itself fails).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_TRUE_PEAK_DBTP, TARGET_LOUDNESS_LUFS, concatAudio, measureLoudness, type Loudness } from '../server/src/media/audio';
import {
  availableFfmpegs,
  ffmpegFileArg,
  resolveMediaTools,
  runFfmpeg,
  type MediaTool,
  type MediaTools,
} from '../server/src/media/ffmpeg';
import { encoderArgs, renderSettingsFor, renderVideo, type RenderSettings } from '../server/src/media/render';
import { formatPlan } from '../server/src/pipeline/format';
import { makeSceneCard } from '../server/src/media/sceneCards';
import { subtitleCues } from '../server/src/media/subtitles';
import { espeakSpeak } from '../server/src/providers/speech';

const TARGETS = { realtimeFactor: 0.25, ratioToFloor: 1.25, peakRssMb: 600, ssim: 0.99 };
type Format = 'video' | 'short';
const TITLE = 'The Lighthouse Keeper’s Daughter';
/** Six parts of about 28 words: about 10 s each at 150 words per minute. */
const PARTS = [
  'On the night of the great storm, Maria climbed the hundred steps of the old lighthouse, carrying a lantern and the letter her father had left on the kitchen table.',
  'The wind howled through the broken windows like a wounded animal, and far below the waves threw themselves against the black rocks, again and again, without rest.',
  'At the top she found the great lamp dark and cold. Her father was nowhere to be seen, but his coat still hung on the hook beside the door.',
  'She opened the letter with trembling hands. It said only this: when the light goes out, look to the sea, and you will understand what I have done.',
  'Maria turned to the window. Out in the darkness, a small boat was fighting the waves, and on its bow a single lantern swung, steady and bright.',
  'She lit the great lamp with the last match in her pocket. Its beam swept across the water, and the little boat turned slowly toward the harbour and home.',
];
const POLL_MS = 100;
const CLOCK_TICKS = 100;

interface ProcessSample {
  comm: string;
  hwmKb: number;
  cpuTicks: number;
}

/** The pid, command, parent and CPU ticks (user + system) from /proc/<pid>/stat; null when it is gone. */
function readStat(pid: string): { ppid: number; comm: string; cpuTicks: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    return { ppid: Number(fields[1]), comm, cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** VmHWM and VmRSS of a process, kB; null when it is gone. */
function readMemory(pid: string): { hwmKb: number; rssKb: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { hwmKb: field('VmHWM'), rssKb: field('VmRSS') };
  } catch {
    return null;
  }
}

/** Watches every descendant process of this one while `work` runs: per-process peaks and the tree's peak. */
async function watchChildren<T>(
  work: () => Promise<T>,
): Promise<{ result: T; wallSeconds: number; treePeakKb: number; perProcess: Map<string, ProcessSample> }> {
  const perProcess = new Map<string, ProcessSample>();
  let treePeakKb = 0;
  const poll = () => {
    const parents = new Map<string, { ppid: number; comm: string; cpuTicks: number }>();
    for (const pid of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const stat = readStat(pid);
      if (stat) parents.set(pid, stat);
    }
    const inTree = (pid: string): boolean => {
      for (
        let current = parents.get(pid), depth = 0;
        current && depth < 20;
        current = parents.get(String(current.ppid)), depth += 1
      ) {
        if (current.ppid === process.pid) return true;
      }
      return false;
    };
    let concurrentKb = 0;
    for (const [pid, stat] of parents) {
      if (!inTree(pid)) continue;
      const memory = readMemory(pid);
      if (!memory) continue;
      concurrentKb += memory.rssKb;
      const known = perProcess.get(pid);
      perProcess.set(pid, {
        comm: stat.comm,
        hwmKb: Math.max(known?.hwmKb ?? 0, memory.hwmKb),
        cpuTicks: Math.max(known?.cpuTicks ?? 0, stat.cpuTicks),
      });
      treePeakKb = Math.max(treePeakKb, memory.hwmKb);
    }
    treePeakKb = Math.max(treePeakKb, concurrentKb);
  };
  const timer = setInterval(poll, POLL_MS);
  const started = process.hrtime.bigint();
  try {
    const result = await work();
    const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { result, wallSeconds, treePeakKb, perProcess };
  } finally {
    clearInterval(timer);
  }
}

/** CPU seconds of the ffmpeg processes seen (as of their last poll). */
const ffmpegCpuSeconds = (perProcess: Map<string, ProcessSample>): number =>
  [...perProcess.values()].filter((p) => p.comm === 'ffmpeg').reduce((total, p) => total + p.cpuTicks, 0) / CLOCK_TICKS;

interface RunFigures {
  renderSeconds: number;
  realtimeFactor: number;
  peakRssMb: number;
  renderCpuSeconds: number;
  floorSeconds: number;
  floorCpuSeconds: number;
  decodeSeconds: number;
  ratio: number;
  sizeMb: number;
  /** The 1-minute load average when the run started (other processes stretch wall times). */
  load: number;
}

interface Job {
  format: Format;
  settings: RenderSettings;
  segments: Array<{ image: string; durationSeconds: number }>;
  narration: string;
  cues: ReturnType<typeof subtitleCues>;
}

interface Comparison {
  /** SSIM over all planes, and PSNR (average and worst frame, dB) of the render against the reference. */
  ssim: number;
  psnrAverage: number;
  psnrMin: number;
  referenceSeconds: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const fixed = (value: number, digits = 2) => value.toFixed(digits);

const renderJob = (job: Job, tools: MediaTools, dir: string, name: string, settings = job.settings) =>
  renderVideo({
    workDir: path.join(dir, 'work'),
    output: path.join(dir, `${name}.mp4`),
    thumbnail: path.join(dir, `${name}.jpg`),
    thumbnailTitle: TITLE,
    segments: job.segments,
    audio: job.narration,
    cues: job.cues,
    tools,
    settings,
  });

/** `count` renders with `tools`, each followed by its floor and a decode-only run. */
async function measure(
  tools: MediaTools,
  count: number,
  dir: string,
  job: Job,
): Promise<{ figures: RunFigures[]; video: string; output: string; loudness: Loudness }> {
  const figures: RunFigures[] = [];
  let video = '';
  let loudness: Loudness | undefined;
  const ffmpeg = tools.ffmpeg.path;
  const first = path.join(dir, `${job.format}-${tools.ffmpeg.source}-1.mp4`);
  for (let run = 1; run <= count; run += 1) {
    const name = `${job.format}-${tools.ffmpeg.source}-${run}`;
    const output = path.join(dir, `${name}.mp4`);
    const load = os.loadavg()[0];
    const render = await watchChildren(() => renderJob(job, tools, dir, name));
    const floor = await watchChildren(() =>
      runFfmpeg(
        [
          '-loglevel',
          'error',
          '-i',
          ffmpegFileArg(output),
          '-an',
          ...encoderArgs(job.settings),
          '-f',
          'mp4',
          ffmpegFileArg(path.join(dir, `floor-${run}.mp4`)),
        ],
        { binary: ffmpeg },
      ),
    );
    const decode = await watchChildren(() =>
      runFfmpeg(['-loglevel', 'error', '-i', ffmpegFileArg(output), '-an', '-f', 'null', '-'], { binary: ffmpeg }),
    );
    const duration = render.result.durationSeconds;
    figures.push({
      renderSeconds: render.wallSeconds,
      realtimeFactor: render.wallSeconds / duration,
      peakRssMb: render.treePeakKb / 1024,
      renderCpuSeconds: ffmpegCpuSeconds(render.perProcess),
      floorSeconds: floor.wallSeconds,
      floorCpuSeconds: ffmpegCpuSeconds(floor.perProcess),
      decodeSeconds: decode.wallSeconds,
      ratio: render.wallSeconds / floor.wallSeconds,
      sizeMb: render.result.sizeBytes / 1024 / 1024,
      load,
    });
    fs.rmSync(path.join(dir, `floor-${run}.mp4`), { force: true });
    if (run === 1) {
      video = `${fixed(duration)} s, ${render.result.width}x${render.result.height}, ${fixed(render.result.sizeBytes / 1024 / 1024)} MB`;
      // The sound a viewer hears: the rendered video's audio (AAC), measured by EBU R128.
      loudness = await measureLoudness(output, { tools });
    } else {
      fs.rmSync(output, { force: true });
    }
  }
  return { figures, video, output: first, loudness: loudness! };
}

/**
 * The picture against the reference render (one pass, one process: the render before passes ran
 * side by side), frame by frame: ffmpeg's ssim and psnr filters print their summary on stderr.
 */
async function compareWithReference(tools: MediaTools, dir: string, job: Job, rendered: string): Promise<Comparison> {
  const reference = { ...job.settings, stillsPerPass: 1000, concurrentPasses: 1 };
  const started = process.hrtime.bigint();
  await renderJob(job, tools, dir, `${job.format}-reference`, reference);
  const referenceSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const referenceFile = path.join(dir, `${job.format}-reference.mp4`);
  const { stderr } = await runFfmpeg(
    [
      '-loglevel',
      'info',
      '-i',
      ffmpegFileArg(rendered),
      '-i',
      ffmpegFileArg(referenceFile),
      '-lavfi',
      '[0:v]split=2[a0][a1];[1:v]split=2[b0][b1];[a0][b0]ssim;[a1][b1]psnr',
      '-f',
      'null',
      '-',
    ],
    { binary: tools.ffmpeg.path },
  );
  const ssim = Number(/SSIM .*All:([\d.]+)/.exec(stderr)?.[1] ?? NaN);
  const psnr = /PSNR .*average:([\d.]+|inf) min:([\d.]+|inf)/.exec(stderr);
  const db = (value: string | undefined) => (value === 'inf' ? Infinity : Number(value ?? NaN));
  fs.rmSync(referenceFile, { force: true });
  return { ssim, psnrAverage: db(psnr?.[1]), psnrMin: db(psnr?.[2]), referenceSeconds };
}

const describe = (tool: MediaTool) => `${tool.version} (${tool.source}${tool.major ? `, ${tool.major}.x` : ''}) ${tool.path}`;

/** The job of a format: its scene cards (landscape or portrait) over the shared narration and its cues. */
async function makeJob(
  format: Format,
  dir: string,
  narration: string,
  joined: { offsets: number[]; durations: number[]; durationSeconds: number },
): Promise<Job> {
  const settings = renderSettingsFor(format);
  const plan = formatPlan(format);
  // The Short shows fewer scenes: the six parts in four cards.
  const groups = format === 'short' ? [[0, 1], [2], [3, 4], [5]] : PARTS.map((_, i) => [i]);
  const segments = [];
  for (const [i, parts] of groups.entries()) {
    const image = path.join(dir, `${format}-card-${i + 1}.png`);
    await makeSceneCard({
      output: image,
      title: TITLE,
      text: parts.map((part) => PARTS[part]).join(' '),
      index: i + 1,
      total: groups.length,
      width: settings.width,
      height: settings.height,
    });
    const first = parts[0]!;
    const last = parts[parts.length - 1]!;
    segments.push({ image, durationSeconds: (joined.offsets[last + 1] ?? joined.durationSeconds) - joined.offsets[first] });
  }
  const cues = subtitleCues(
    PARTS.map((text, i) => ({ text, start: joined.offsets[i], duration: joined.durations[i] })),
    plan.subtitles,
  );
  return { format, settings, segments, narration, cues };
}

async function main(): Promise<void> {
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 1) || 1);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-render-'));
  // Ctrl-C stops ffmpeg too (same process group); the temporary folder goes with it.
  process.once('SIGINT', () => {
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    const chosen = await resolveMediaTools();
    const ffmpegs = await availableFfmpegs();
    console.log(
      `bench:render  cores ${os.cpus().length}  load average ${os
        .loadavg()
        .map((l) => fixed(l))
        .join(' ')}`,
    );
    console.log(`ffmpeg used by the server: ${describe(chosen.ffmpeg)}`);
    for (const other of ffmpegs.filter((tool) => tool.path !== chosen.ffmpeg.path))
      console.log(`also measured: ${describe(other)}`);
    console.log(`ffprobe: ${describe(chosen.ffprobe)}`);

    let started = Date.now();
    const speech: string[] = [];
    for (let i = 0; i < PARTS.length; i += 1) {
      const outFile = path.join(dir, `part-${i + 1}.wav`);
      await espeakSpeak({ text: PARTS[i], voice: 'en-us', outFile, wordsPerMinute: 150 });
      speech.push(outFile);
    }
    const narration = path.join(dir, 'narration.wav');
    const joined = await concatAudio(speech, narration);
    console.log(
      `narration: ${fixed(joined.durationSeconds)} s (parts ${joined.durations.map((s) => fixed(s, 1)).join(', ')} s), in ${fixed((Date.now() - started) / 1000)} s`,
    );

    const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    for (const format of ['video', 'short'] as const) {
      started = Date.now();
      const job = await makeJob(format, dir, narration, joined);
      console.log('');
      console.log(
        `=== ${format}: ${job.settings.width}x${job.settings.height}, ${job.segments.length} stills, ${job.cues.length} cues`,
      );
      console.log(`settings: ${JSON.stringify(job.settings)}`);
      console.log(`scene cards in ${fixed((Date.now() - started) / 1000)} s`);

      const results: Array<{
        tool: MediaTool;
        figures: RunFigures[];
        video: string;
        loudness: Loudness;
        comparison: Comparison;
      }> = [];
      for (const ffmpeg of ffmpegs) {
        const tools = { ffmpeg, ffprobe: chosen.ffprobe };
        const { figures, video, output, loudness } = await measure(tools, runs, dir, job);
        const comparison = await compareWithReference(tools, dir, job, output);
        fs.rmSync(output, { force: true });
        results.push({ tool: ffmpeg, figures, video, loudness, comparison });
      }

      for (const { tool, figures, video } of results) {
        console.log('');
        console.log(`ffmpeg ${describe(tool)}${tool.path === chosen.ffmpeg.path ? '  <- the server uses this one' : ''}`);
        console.log(`video: ${video}`);
        console.log(
          'run  render s  realtime  peak RSS MB  ffmpeg CPU s  floor s  floor CPU s  decode s  ratio  ratio w/o decode  load at start',
        );
        figures.forEach((f, i) => {
          console.log(
            [
              String(i + 1).padEnd(3),
              fixed(f.renderSeconds).padStart(8),
              fixed(f.realtimeFactor, 3).padStart(9),
              fixed(f.peakRssMb, 0).padStart(12),
              fixed(f.renderCpuSeconds, 1).padStart(13),
              fixed(f.floorSeconds).padStart(8),
              fixed(f.floorCpuSeconds, 1).padStart(12),
              fixed(f.decodeSeconds).padStart(9),
              fixed(f.ratio).padStart(6),
              fixed(f.renderSeconds / Math.max(0.01, f.floorSeconds - f.decodeSeconds)).padStart(17),
              fixed(f.load).padStart(5),
            ].join(' '),
          );
        });
      }

      console.log('');
      console.log(`${format}: ${runs > 1 ? `median of ${runs} runs` : 'result'} against the targets (2 cores), side by side:`);
      const header = ['', ...results.map(({ tool }) => `${tool.source} ${tool.major ?? '?'}.x`.padStart(16))].join('');
      console.log(`${'figure'.padEnd(26)}${header}  target`);
      const row = (label: string, values: number[], digits: number, limit: number, unit = '', atLeast = false) =>
        console.log(
          `${label.padEnd(26)}${values
            .map((v) => `${fixed(v, digits)}${unit} ${verdict(atLeast ? v >= limit : v <= limit)}`.padStart(16))
            .join('')}  ${atLeast ? '>=' : '<='} ${limit}${unit}`,
        );
      const plain = (label: string, values: string[], note = '') =>
        console.log(`${label.padEnd(26)}${values.map((v) => v.padStart(16)).join('')}${note ? `  ${note}` : ''}`);
      row(
        'realtime factor',
        results.map(({ figures }) => median(figures.map((f) => f.realtimeFactor))),
        3,
        TARGETS.realtimeFactor,
      );
      row(
        'ratio to floor',
        results.map(({ figures }) => median(figures.map((f) => f.ratio))),
        2,
        TARGETS.ratioToFloor,
      );
      row(
        'peak RSS (max)',
        results.map(({ figures }) => Math.max(...figures.map((f) => f.peakRssMb))),
        0,
        TARGETS.peakRssMb,
        ' MB',
      );
      plain(
        'render s',
        results.map(({ figures }) => fixed(median(figures.map((f) => f.renderSeconds)))),
      );
      plain(
        'floor s',
        results.map(({ figures }) => fixed(median(figures.map((f) => f.floorSeconds)))),
      );
      plain(
        'reference render s',
        results.map(({ comparison }) => fixed(comparison.referenceSeconds)),
        'one pass, one process',
      );
      row(
        'SSIM vs reference',
        results.map(({ comparison }) => comparison.ssim),
        4,
        TARGETS.ssim,
        '',
        true,
      );
      plain(
        'PSNR vs reference dB',
        results.map(({ comparison }) => `${fixed(comparison.psnrAverage, 1)} (min ${fixed(comparison.psnrMin, 1)})`),
        'average (worst frame)',
      );
      const loudness = results.map((result) => result.loudness);
      plain(
        'loudness LUFS',
        loudness.map((l) => `${fixed(l.integrated, 1)} ${verdict(Math.abs(l.integrated - TARGET_LOUDNESS_LUFS) <= 1)}`),
        `${TARGET_LOUDNESS_LUFS} ± 1`,
      );
      plain(
        'true peak dBTP',
        loudness.map((l) => `${fixed(l.truePeak, 1)} ${verdict(l.truePeak <= MAX_TRUE_PEAK_DBTP)}`),
        `<= ${MAX_TRUE_PEAK_DBTP}`,
      );
    }
    console.log('');
    console.log(`node's own peak RSS: ${fixed(process.resourceUsage().maxRSS / 1024, 0)} MB`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
