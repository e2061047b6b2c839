import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { concatAudio } from '../src/pipeline/media/audio';
import { MediaError, probe, runFfmpeg } from '../src/pipeline/media/ffmpeg';
import { RENDER_SETTINGS, planSegments, renderGraph, renderVideo, splitPasses, stillChain } from '../src/pipeline/media/render';
import { cardPalette, makeSceneCard } from '../src/pipeline/media/sceneCards';
import { subtitleCues } from '../src/pipeline/media/subtitles';
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
    const chain = stillChain(0, { image: 'a', frames: 250, direction: 'in' }, RENDER_SETTINGS);
    // 77 steps of one pixel per edge (1920 * 0.08 / 2), 78 distinct pictures for 250 frames.
    expect(chain).toContain('loop=loop=78:size=1:start=0');
    expect(chain).toContain('scale=w=1920+2*round(min(n\\,77)*77/77):h=1080+2*round(min(n\\,77)*43/77):eval=frame');
    expect(chain).toContain('trim=end_frame=250');
    const graph = renderGraph([{ image: 'a', frames: 10, direction: 'out' }], RENDER_SETTINGS, 'subs.ass');
    expect(graph).toContain('(9-min(n\\,9))');
    expect(graph.endsWith('[s0]concat=n=1:v=1:a=0,ass=filename=subs.ass,format=yuv420p[v]')).toBe(true);
  });

  it('splits long stories into passes that know where they start, for the subtitles', () => {
    const planned = [10, 20, 30].map((frames, i) => ({ image: `i${i}`, frames, direction: 'in' as const }));
    expect(splitPasses(planned, 2).map(({ startFrame, frames, segments }) => [startFrame, frames, segments.length])).toEqual([
      [0, 30, 2],
      [30, 30, 1],
    ]);
    const graph = renderGraph(planned.slice(2), RENDER_SETTINGS, 'subs.ass', 30);
    expect(graph).toContain(
      'concat=n=1:v=1:a=0,setpts=PTS+30/(25*TB),ass=filename=subs.ass,setpts=PTS-STARTPTS,format=yuv420p[v]',
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

    const result = await renderVideo({ workDir, output, thumbnail, thumbnailTitle: TITLE, segments, audio: narration, cues });

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
    const broken = path.join(dir, 'broken.png');
    fs.writeFileSync(broken, 'not an image');
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
      expect(error.message).toContain('apt-get install ffmpeg, or set FFMPEG_PATH');
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
