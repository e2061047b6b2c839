import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { concatAudio } from '../src/media/audio';
import { MediaError, availableFfmpegs, ffmpegFileArg, probe, resolveMediaTools, runFfmpeg } from '../src/media/ffmpeg';
import {
  RENDER_SETTINGS,
  SHORT_RENDER_SETTINGS,
  planSegments,
  renderGraph,
  renderSettingsFor,
  renderVideo,
  passSize,
  splitPasses,
  stillChain,
  zoomSteps,
} from '../src/media/render';
import { cardPalette, makeSceneCard } from '../src/media/sceneCards';
import { subtitleCues } from '../src/media/subtitles';
import { espeakSpeak } from '../src/providers/speech';

const TITLE = 'The Lighthouse Keeper’s Daughter';
const PARTS = [
  'On the night of the storm, Maria climbed the old lighthouse.',
  'The wind howled through the stairs {like} an animal.',
  'At the top, the lantern was still warm.',
];

let dir: string;
let cards: string[];
let narration: string;
let narrationSeconds: number;
let offsets: number[];
let partSeconds: number[];
/** The single-pass render of the first renderVideo test, compared with a multi-pass one. */
let rendered: string;

/** The top-level boxes of an MP4 file, in order. */
function topLevelBoxes(file: string): string[] {
  const data = fs.readFileSync(file);
  const boxes: string[] = [];
  let offset = 0;
  while (offset + 8 <= data.length) {
    let size = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    if (size === 1) size = Number(data.readBigUInt64BE(offset + 8));
    else if (size === 0) size = data.length - offset;
    boxes.push(type);
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}

/** PSNR (dB) of the bottom 280 rows (the subtitles) of two videos' frames at `seconds`. */
async function subtitleAreaPsnr(a: string, b: string, seconds: number): Promise<number> {
  const at = seconds.toFixed(3);
  const { stderr } = await runFfmpeg([
    ...['-ss', at, '-i', a, '-ss', at, '-i', b],
    ...[
      '-filter_complex',
      '[0:v]crop=1920:280:0:800[a];[1:v]crop=1920:280:0:800[b];[a][b]psnr',
      '-frames:v',
      '1',
      '-f',
      'null',
      '-',
    ],
  ]);
  const match = /PSNR .*average:(inf|[\d.]+)/.exec(stderr);
  if (!match) throw new Error(`no PSNR in ${stderr}`);
  return match[1] === 'inf' ? Infinity : Number(match[1]);
}

async function rejection(promise: Promise<unknown>): Promise<MediaError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(MediaError);
    return error as MediaError;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-render-'));
  cards = [];
  for (let i = 0; i < PARTS.length; i += 1) {
    const output = path.join(dir, `card-${i + 1}.png`);
    await makeSceneCard({ output, title: TITLE, text: PARTS[i], index: i + 1, total: PARTS.length });
    cards.push(output);
  }
  const speech = await Promise.all(
    PARTS.map(async (text, i) => {
      const outFile = path.join(dir, `part-${i + 1}.wav`);
      await espeakSpeak({ text, voice: 'en-us', outFile, wordsPerMinute: 190 });
      return outFile;
    }),
  );
  narration = path.join(dir, 'narration.wav');
  ({ durationSeconds: narrationSeconds, offsets, durations: partSeconds } = await concatAudio(speech, narration));
}, 60_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('scene cards', () => {
  it('draws a 1920x1080 PNG, the same one every time', async () => {
    const info = await probe(cards[0]);
    expect(info.streams[0]).toMatchObject({ type: 'video', codec: 'png', width: 1920, height: 1080 });
    const again = path.join(dir, 'again.png');
    await makeSceneCard({ output: again, title: TITLE, text: PARTS[0], index: 1, total: PARTS.length });
    expect(fs.readFileSync(again).equals(fs.readFileSync(cards[0]))).toBe(true);
    expect(cardPalette(TITLE, 1)).toEqual(cardPalette(TITLE, 1));
    expect(cardPalette(TITLE, 1).stops).not.toEqual(cardPalette(TITLE, 2).stops);
  });

  it('refuses a bad numbering or size', async () => {
    const output = path.join(dir, 'bad.png');
    expect((await rejection(makeSceneCard({ output, title: 't', text: 'x', index: 3, total: 2 }))).code).toBe('invalid');
    expect((await rejection(makeSceneCard({ output, title: 't', text: 'x', index: 1, total: 1, width: 1921 }))).code).toBe(
      'invalid',
    );
    expect(fs.existsSync(output)).toBe(false);
  });
});

describe('the render plan', () => {
  it('gives every still whole frames summing to the audio, zooming in and out in turn', () => {
    const plan = planSegments(
      [
        { image: 'a', durationSeconds: 1 },
        { image: 'b', durationSeconds: 1 },
        { image: 'c', durationSeconds: 1 },
      ],
      10.01,
      25,
    );
    expect(plan.map((segment) => segment.frames)).toEqual([83, 84, 83]);
    expect(plan.map((segment) => segment.direction)).toEqual(['in', 'out', 'in']);
    expect(
      planSegments(
        [
          { image: 'a', durationSeconds: 0.001 },
          { image: 'b', durationSeconds: 5 },
        ],
        5,
        25,
      ),
    ).toEqual([{ image: 'b', frames: 125, direction: 'in' }]);
  });

  it('holds each one-pixel zoom step for several frames of a long still', () => {
    const segment = { image: 'a', frames: 250, direction: 'in' as const };
    // The crop shrinks by 1920 - 1920/1.08 = 142 pixels: 71 steps of one pixel per edge, 72 pictures for 250 frames.
    expect(zoomSteps(segment, RENDER_SETTINGS)).toBe(71);
    const chain = stillChain(0, segment, RENDER_SETTINGS);
    expect(chain).toContain('loop=loop=72:size=1:start=0');
    expect(chain).toContain(
      "zoompan=z='1920/(1920-2*min(in,71)+0.25)':x='min(in,71)':y='floor((ih-trunc(ih/zoom))/2)':d=1:s=1920x1080:fps=25",
    );
    expect(chain).toContain('setpts=N*250/72/(25*TB)');
    expect(chain).toContain('trim=end_frame=250');
    const graph = renderGraph([{ image: 'a', frames: 10, direction: 'out' }], RENDER_SETTINGS, 'subs.ass');
    expect(graph).toContain("z='1920/(1920-2*(9-min(in,9))+0.25)'");
    expect(graph.endsWith('[s0]concat=n=1:v=1:a=0,ass=filename=subs.ass:fontsdir=fonts,format=yuv420p[v]')).toBe(true);
  });

  it('RENDER_SCALE shrinks every size of the picture, to even pixels, and leaves the graph and the timing as they are', () => {
    // 1, production's default: the spec's sizes.
    expect(renderSettingsFor('video', 1)).toBe(RENDER_SETTINGS);
    expect(renderSettingsFor('short')).toBe(SHORT_RENDER_SETTINGS);
    expect(RENDER_SETTINGS).toMatchObject({ width: 1920, height: 1080, thumbnailWidth: 1280, thumbnailHeight: 720 });
    expect(SHORT_RENDER_SETTINGS).toMatchObject({ width: 1080, height: 1920, thumbnailWidth: 720, thumbnailHeight: 1280 });
    // The tests' quarter: 480x270 and 270x480, everything else (fps, encoder, zoom, subtitle shares) the same.
    const small = renderSettingsFor('video', 0.25);
    expect(small).toEqual({ ...RENDER_SETTINGS, width: 480, height: 270, thumbnailWidth: 320, thumbnailHeight: 180 });
    expect(renderSettingsFor('short', 0.25)).toEqual({
      ...SHORT_RENDER_SETTINGS,
      width: 270,
      height: 480,
      thumbnailWidth: 180,
      thumbnailHeight: 320,
    });
    // Any scale gives even sizes (H.264's 4:2:0), in proportion.
    expect(renderSettingsFor('video', 0.3)).toMatchObject({ width: 576, height: 324, thumbnailWidth: 384, thumbnailHeight: 216 });
    expect(renderSettingsFor('video', 0.13)).toMatchObject({ width: 250, height: 140 });
    // The same graph, character for character but for its numbers: the sizes and the zoom's travel in pixels.
    const shape = (graph: string) => graph.replace(/\d+/g, 'N');
    const planned = [{ image: 'a', frames: 250, direction: 'in' as const }];
    const smallGraph = renderGraph(planned, small, 'subs.ass');
    expect(shape(smallGraph)).toBe(shape(renderGraph(planned, RENDER_SETTINGS, 'subs.ass')));
    expect(smallGraph).not.toBe(renderGraph(planned, RENDER_SETTINGS, 'subs.ass'));
    expect(smallGraph).toContain('s=480x270:fps=25');
    expect(zoomSteps(planned[0]!, small)).toBe(18);
  });

  it('splits long stories into passes that know where they start, for the subtitles', () => {
    const planned = [10, 20, 30].map((frames, i) => ({ image: `i${i}`, frames, direction: 'in' as const }));
    expect(splitPasses(planned, 2).map(({ startFrame, frames, segments }) => [startFrame, frames, segments.length])).toEqual([
      [0, 30, 2],
      [30, 30, 1],
    ]);
    // Passes as even as they can be, at most stillsPerPass, and at least two to run side by side.
    const sizes = (stills: number) => {
      const size = passSize(stills, RENDER_SETTINGS);
      return Array.from({ length: Math.ceil(stills / size) }, (_, i) => Math.min(size, stills - i * size));
    };
    expect([1, 2, 4, 6, 10, 20].map(sizes)).toEqual([[1], [1, 1], [2, 2], [3, 3], [3, 3, 3, 1], [3, 3, 3, 3, 3, 3, 2]]);
    expect(passSize(6, { stillsPerPass: 6, concurrentPasses: 1 })).toBe(6);
    const graph = renderGraph(planned.slice(2), RENDER_SETTINGS, 'subs.ass', 30);
    expect(graph).toContain(
      'concat=n=1:v=1:a=0,setpts=PTS+30/(25*TB),ass=filename=subs.ass:fontsdir=fonts,setpts=PTS-STARTPTS,format=yuv420p[v]',
    );
  });
});

describe('renderVideo', () => {
  it('renders a 1080p H.264/AAC MP4 with faststart, as long as the narration, and a 720p thumbnail', async () => {
    const output = path.join(dir, 'out', 'story.mp4');
    const thumbnail = path.join(dir, 'out', 'story.jpg');
    const workDir = path.join(dir, 'work');
    const cues = subtitleCues(PARTS.map((text, i) => ({ text, start: offsets[i], duration: partSeconds[i] })));
    expect(narrationSeconds).toBeGreaterThan(4);
    const segments = cards.map((image, i) => ({ image, durationSeconds: partSeconds[i] + (i < cards.length - 1 ? 0.4 : 0) }));

    const here = fs.readdirSync(process.cwd());
    const result = await renderVideo({ workDir, output, thumbnail, thumbnailTitle: TITLE, segments, audio: narration, cues });
    // Nothing written outside workDir and the outputs (the process's own folder included).
    expect(fs.readdirSync(process.cwd())).toEqual(here);

    const info = await probe(output);
    const video = info.streams.find((stream) => stream.type === 'video');
    const audio = info.streams.find((stream) => stream.type === 'audio');
    expect(video).toMatchObject({ codec: 'h264', width: 1920, height: 1080, pixFmt: 'yuv420p' });
    expect(audio).toMatchObject({ codec: 'aac', sampleRate: 48000 });
    expect(Math.abs(info.durationSeconds - narrationSeconds)).toBeLessThanOrEqual(0.2);
    expect(result).toEqual({
      durationSeconds: info.durationSeconds,
      sizeBytes: fs.statSync(output).size,
      width: 1920,
      height: 1080,
      missingGlyphs: [],
    });

    const boxes = topLevelBoxes(output);
    expect(boxes).toContain('mdat');
    expect(boxes.indexOf('moov')).toBeGreaterThanOrEqual(0);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));

    const thumb = await probe(thumbnail);
    expect(thumb.streams[0]).toMatchObject({ type: 'video', codec: 'mjpeg', width: 1280, height: 720 });
    expect(fs.readdirSync(path.dirname(output)).sort()).toEqual(['story.jpg', 'story.mp4']);
    expect(fs.readdirSync(workDir)).toEqual([]);
    expect(video?.frames).toBe(Math.round(narrationSeconds * RENDER_SETTINGS.fps));
    rendered = output;
  }, 90_000);

  it('renders long stories in passes that join seamlessly, subtitles in place', async () => {
    const output = path.join(dir, 'passes', 'story.mp4');
    const workDir = path.join(dir, 'work-passes');
    const cues = subtitleCues(PARTS.map((text, i) => ({ text, start: offsets[i], duration: partSeconds[i] })));
    const segments = cards.map((image, i) => ({ image, durationSeconds: partSeconds[i] + (i < cards.length - 1 ? 0.4 : 0) }));
    const settings = { ...RENDER_SETTINGS, stillsPerPass: 1 };

    await renderVideo({
      workDir,
      output,
      thumbnail: path.join(dir, 'passes', 'story.jpg'),
      segments,
      audio: narration,
      cues,
      settings,
    });

    const info = await probe(output);
    expect(info.streams.find((stream) => stream.type === 'video')).toMatchObject({ codec: 'h264', width: 1920, height: 1080 });
    expect(info.streams.find((stream) => stream.type === 'video')?.frames).toBe(
      Math.round(narrationSeconds * RENDER_SETTINGS.fps),
    );
    expect(Math.abs(info.durationSeconds - narrationSeconds)).toBeLessThanOrEqual(0.2);
    expect(topLevelBoxes(output).indexOf('moov')).toBeLessThan(topLevelBoxes(output).indexOf('mdat'));
    // In the third pass, the same subtitle as the single-pass render (a shifted one would differ).
    expect(await subtitleAreaPsnr(rendered, output, offsets[2] + 0.6)).toBeGreaterThan(30);
    expect(fs.readdirSync(workDir)).toEqual([]);
  }, 90_000);

  it('leaves nothing at the output when ffmpeg fails', async () => {
    // A PNG's signature (so it gets as far as ffmpeg), then nothing ffmpeg can decode.
    const broken = path.join(dir, 'broken.png');
    fs.writeFileSync(broken, Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('not an image')]));
    const output = path.join(dir, 'failed', 'story.mp4');
    const error = await rejection(
      renderVideo({
        workDir: path.join(dir, 'work-failed'),
        output,
        thumbnail: path.join(dir, 'failed', 'story.jpg'),
        segments: [
          { image: cards[0], durationSeconds: 1 },
          { image: broken, durationSeconds: 1 },
        ],
        audio: narration,
        cues: [],
      }),
    );
    expect(error.code).toBe('failed');
    expect(fs.readdirSync(path.dirname(output))).toEqual(['story.jpg']);
  }, 60_000);

  it("is 'invalid' without images or with a missing file, 'missing' without ffmpeg", async () => {
    const base = {
      workDir: path.join(dir, 'w'),
      output: path.join(dir, 'x.mp4'),
      thumbnail: path.join(dir, 'x.jpg'),
      audio: narration,
      cues: [],
    };
    expect((await rejection(renderVideo({ ...base, segments: [] }))).code).toBe('invalid');
    expect(
      (await rejection(renderVideo({ ...base, segments: [{ image: path.join(dir, 'nope.png'), durationSeconds: 1 }] }))).code,
    ).toBe('invalid');

    const segments = [{ image: cards[0], durationSeconds: 1 }];
    const previous = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = path.join(dir, 'no-such-dir', 'ffmpeg');
    try {
      const error = await rejection(renderVideo({ ...base, segments }));
      expect(error.code).toBe('missing');
      expect(error.message).toContain('is not an executable file');
    } finally {
      if (previous === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = previous;
    }
    expect((await rejection(renderVideo({ ...base, segments, ffmpegPath: path.join(dir, 'no-such-ffmpeg') }))).code).toBe(
      'missing',
    );
    expect(fs.existsSync(base.output)).toBe(false);
  });
});

describe('on every ffmpeg this machine has (always the bundled 4.1; a system 5+ too when present)', () => {
  let ffmpegs: Awaited<ReturnType<typeof availableFfmpegs>>;
  let tone: string;
  let lines: string;
  let emptyFonts: string;

  beforeAll(async () => {
    ffmpegs = await availableFfmpegs();
    tone = path.join(dir, 'tone.wav');
    await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=330:duration=2:sample_rate=48000', ffmpegFileArg(tone)]);
    // A black still with two thin white lines: a vertical one near the left edge, a horizontal one near the top.
    lines = path.join(dir, 'lines.png');
    await runFfmpeg([
      ...['-f', 'lavfi', '-i', 'color=black:s=1920x1080:d=1'],
      ...['-vf', 'drawbox=x=199:y=0:w=3:h=1080:color=white:t=fill,drawbox=x=0:y=149:w=1920:h=3:color=white:t=fill'],
      ...['-frames:v', '1', ffmpegFileArg(lines)],
    ]);
    emptyFonts = path.join(dir, 'no-fonts.conf');
    fs.writeFileSync(emptyFonts, '<?xml version="1.0"?>\n<fontconfig></fontconfig>\n');
  }, 60_000);

  it('includes the bundled ffmpeg', () => {
    expect(ffmpegs.some((tool) => tool.source === 'bundled')).toBe(true);
  });

  it('draws the subtitles with the shipped fonts when the machine lists no fonts at all', async () => {
    const previous = process.env.FONTCONFIG_FILE;
    process.env.FONTCONFIG_FILE = emptyFonts;
    try {
      const { ffprobe } = await resolveMediaTools();
      for (const ffmpeg of ffmpegs) {
        const render = async (name: string, withCue: boolean) => {
          const output = path.join(dir, `fonts-${ffmpeg.source}-${name}.mp4`);
          await renderVideo({
            workDir: path.join(dir, `work-fonts-${name}`),
            output,
            thumbnail: path.join(dir, `fonts-${ffmpeg.source}-${name}.jpg`),
            thumbnailTitle: 'Título com acentuação',
            segments: [{ image: cards[0], durationSeconds: 2 }],
            audio: tone,
            cues: withCue ? [{ start: 0.4, end: 1.4, text: 'Água, ação e coração.\nЗдравствуй, мир!' }] : [],
            tools: { ffmpeg, ffprobe },
          });
          return output;
        };
        const withCue = await render('cue', true);
        const withoutCue = await render('none', false);
        // Where the cue stands the pictures differ; after it they are the same again.
        expect(await subtitleAreaPsnr(withCue, withoutCue, 0.9)).toBeLessThan(25);
        expect(await subtitleAreaPsnr(withCue, withoutCue, 1.8)).toBeGreaterThan(35);
      }
    } finally {
      if (previous === undefined) delete process.env.FONTCONFIG_FILE;
      else process.env.FONTCONFIG_FILE = previous;
    }
  }, 180_000);

  it('renders a story in a script no font here can draw, and names the characters that are missing', async () => {
    const result = await renderVideo({
      workDir: path.join(dir, 'work-cjk'),
      output: path.join(dir, 'cjk.mp4'),
      thumbnail: path.join(dir, 'cjk.jpg'),
      thumbnailTitle: '灯台守の娘',
      segments: [{ image: cards[0], durationSeconds: 2 }],
      audio: tone,
      cues: [{ start: 0.2, end: 1.5, text: '嵐の夜、マリアは灯台に登った。' }],
      systemFontDirs: [path.join(dir, 'no-fonts-here')],
    });
    expect(result.durationSeconds).toBeGreaterThan(1.9);
    expect(result.missingGlyphs).toEqual(expect.arrayContaining(['灯', '台', '嵐']));
    expect(result.missingGlyphs.length).toBeLessThanOrEqual(20);
  }, 60_000);

  it('zooms smoothly: lines near the edges move one way, about a pixel at a time, with no visible wobble', async () => {
    const segment = { image: lines, frames: 100, direction: 'in' as const };
    for (const ffmpeg of ffmpegs) {
      const row = path.join(dir, `row-${ffmpeg.source}.raw`);
      const column = path.join(dir, `column-${ffmpeg.source}.raw`);
      const graph = `${stillChain(0, segment, RENDER_SETTINGS)};[s0]format=gray,split=2[r][c];[r]crop=1920:1:0:540[row];[c]crop=1:1080:960:0[col]`;
      await runFfmpeg(
        [
          ...['-i', ffmpegFileArg(lines), '-filter_complex', graph],
          ...['-map', '[row]', '-f', 'rawvideo', ffmpegFileArg(row)],
          ...['-map', '[col]', '-f', 'rawvideo', ffmpegFileArg(column)],
        ],
        { binary: ffmpeg.path },
      );
      /** Brightness-weighted centre of the line found in the first `span` pixels of each frame. */
      const centres = (file: string, size: number, span: number) => {
        const data = fs.readFileSync(file);
        expect(data.length).toBe(size * segment.frames);
        return Array.from({ length: segment.frames }, (_, frame) => {
          let sum = 0;
          let weight = 0;
          for (let i = 0; i < span; i += 1) {
            const value = Math.max(0, data[frame * size + i] - 40);
            sum += value * i;
            weight += value;
          }
          return sum / weight;
        });
      };
      for (const positions of [centres(row, 1920, 400), centres(column, 1080, 300)]) {
        // Zooming in pushes both lines towards the top-left corner, steadily. The window's edges are
        // whole pixels that only move inwards; when the height shrinks by one pixel while the top stays,
        // a line near the top lags by a fraction of a pixel (measured: 0.15), never a visible step back.
        expect(positions[positions.length - 1]).toBeLessThan(positions[0] - 8);
        for (let i = 1; i < positions.length; i += 1) {
          expect(positions[i]).toBeLessThanOrEqual(positions[i - 1] + 0.25);
          expect(positions[i - 1] - positions[i]).toBeLessThan(1.5);
        }
      }
    }
  }, 120_000);
});
