import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MediaError, OWN_INPUT, runFfmpegInto, type MediaTools } from './ffmpeg';
import { chooseFonts } from './fonts';
import { wrapText } from './subtitles';

/**
 * Scene cards: the offline image provider. Without an images API every scene still gets a real
 * picture: a diagonal three-colour gradient (computed here, so any ffmpeg from 4.1 on draws the card)
 * whose hues come from a hash of the story title and scene number (so a story keeps one palette and
 * a re-render is identical), then, by ffmpeg, a vignette, the story title and "n / total" on top, a
 * faint large scene number, and a wrapped excerpt of the scene's text in the middle, in the fonts
 * that ship with the server (fonts.ts).
 *
 * All text reaches drawtext through `textfile=` (files in a temporary folder that is ffmpeg's
 * working directory) with `expansion=none`, so no text needs escaping and none can break the graph.
 */

export interface SceneCardInput {
  /** The PNG to write (written under a temporary name, then renamed). */
  output: string;
  /** The story's title, shown small at the top left. */
  title: string;
  /** The scene's text; an excerpt (at most 5 lines) is shown in the middle. */
  text: string;
  /** 1-based scene number. */
  index: number;
  total: number;
  width?: number;
  height?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  ffmpegPath?: string;
  /** The tools to use (the engine passes the server's); resolveMediaTools() when absent. */
  tools?: MediaTools;
}

export interface SceneCardResult {
  output: string;
  width: number;
  height: number;
  /** Characters of the title or text that no font on this server can draw. */
  missingGlyphs: string[];
}

/** An HSL colour (h in degrees, s and l in 0-1) as ffmpeg's 0xRRGGBB. */
export function hslHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const value = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `0x${channel(0)}${channel(8)}${channel(4)}`;
}

export interface CardPalette {
  /** Three gradient stops, dark to lighter to dark, and the accent bar's colour. */
  stops: [string, string, string];
  accent: string;
  /** The gradient's direction, in degrees. */
  angle: number;
}

/**
 * The card's colours: the story title picks a base hue (one palette per story), the scene number
 * turns it a little and sets the gradient's direction, so neighbouring scenes differ but match.
 */
export function cardPalette(title: string, index: number): CardPalette {
  const story = crypto.createHash('sha256').update(title.trim().toLowerCase()).digest();
  const scene = crypto.createHash('sha256').update(`${title}\n${index}`).digest();
  const hue = (story.readUInt16BE(0) + index * 37) % 360;
  const second = (hue + 25 + (scene[0] % 40)) % 360;
  const third = (hue + 180 + (scene[1] % 60) - 30 + 360) % 360;
  return {
    stops: [hslHex(hue, 0.55, 0.16), hslHex(second, 0.5, 0.34), hslHex(third, 0.45, 0.2)],
    accent: hslHex((hue + 40) % 360, 0.85, 0.62),
    angle: scene.readUInt16BE(2) % 360,
  };
}

/** The gradient's start and end points for `angle`, through the centre, reaching the corners. */
function gradientLine(angle: number, width: number, height: number): { x0: number; y0: number; x1: number; y1: number } {
  const radians = (angle * Math.PI) / 180;
  const dx = Math.cos(radians) * (width / 2);
  const dy = Math.sin(radians) * (height / 2);
  const clamp = (value: number, max: number) => Math.min(max, Math.max(0, Math.round(value)));
  return {
    x0: clamp(width / 2 - dx, width),
    y0: clamp(height / 2 - dy, height),
    x1: clamp(width / 2 + dx, width),
    y1: clamp(height / 2 + dy, height),
  };
}

/** A colour 0xRRGGBB as its three channels. */
function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(2), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

/**
 * The card's background as raw RGB24 pixels: a linear gradient through the palette's three stops
 * along the palette's direction, the same ramp as ffmpeg's `gradients` source (each pixel projected
 * onto the line, clipped to its ends, the colours interpolated between neighbouring stops).
 */
export function gradientPixels(palette: CardPalette, width: number, height: number): Buffer {
  const line = gradientLine(palette.angle, width, height);
  const stops = palette.stops.map(channels);
  const dx = line.x1 - line.x0;
  const dy = line.y1 - line.y0;
  const self = dx * dx + dy * dy || 1;
  const pixels = Buffer.alloc(width * height * 3);
  // Local names for the loop: a global looked up two million times is slow in a vm sandbox (jest).
  const { round, min, max, floor } = Math;
  const last = stops.length - 1;
  let at = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const t = min(1, max(0, ((x - line.x0) * dx + (y - line.y0) * dy) / self));
      const scaled = t * last;
      const i = min(last - 1, floor(scaled));
      const f = scaled - i;
      const a = stops[i]!;
      const b = stops[i + 1]!;
      pixels[at] = round(a[0] + (b[0] - a[0]) * f);
      pixels[at + 1] = round(a[1] + (b[1] - a[1]) * f);
      pixels[at + 2] = round(a[2] + (b[2] - a[2]) * f);
      at += 3;
    }
  }
  return pixels;
}

/** A path that can stand in a filter graph unescaped. */
const SAFE_PATH = /^[A-Za-z0-9_./-]+$/;

/**
 * `font` as a drawtext `fontfile=` value: its own path when that needs no escaping, else a link
 * (or copy) named `name` in `workDir` (ffmpeg's working directory), so the graph never needs escaping.
 */
export async function fontForGraph(font: string, workDir: string, name: string): Promise<string> {
  if (SAFE_PATH.test(font)) return font;
  const link = path.join(workDir, name);
  await fs.rm(link, { force: true });
  await fs.symlink(path.resolve(font), link).catch(() => fs.copyFile(font, link));
  return name;
}

interface TextItem {
  /** File name (in the working folder) holding the text. */
  file: string;
  text: string;
  font: 'bold' | 'regular';
  size: number;
  color: string;
  x: string;
  y: string;
  shadow?: boolean;
}

/** A drawtext filter drawing one text file. */
function drawtext(item: TextItem, fonts: Record<'bold' | 'regular', string>): string {
  const shadow = item.shadow ? ':shadowcolor=black@0.45:shadowx=3:shadowy=3' : '';
  return `drawtext=fontfile=${fonts[item.font]}:textfile=${item.file}:expansion=none:fontsize=${item.size}:fontcolor=${item.color}:x=${item.x}:y=${item.y}${shadow}`;
}

/** The text items of a card: title, counter, big faint number, excerpt lines (each centred). */
function cardTexts(input: SceneCardInput, width: number, height: number): TextItem[] {
  // Sizes follow the short side, so a portrait card (a Short's) has the landscape one's type sizes.
  const unit = Math.min(width, height) / 1080;
  const portrait = height > width;
  const margin = Math.round(width * 0.0625);
  const small = Math.round(40 * unit);
  const items: TextItem[] = [];
  const title = wrapText(input.title, portrait ? 34 : 60, 1)[0] ?? '';
  if (title)
    items.push({
      file: 'title.txt',
      text: title,
      font: 'regular',
      size: small,
      color: 'white@0.85',
      x: String(margin),
      y: String(Math.round(90 * unit)),
    });
  items.push({
    file: 'counter.txt',
    text: `${input.index} / ${input.total}`,
    font: 'regular',
    size: small,
    color: 'white@0.85',
    x: `w-tw-${margin}`,
    y: String(Math.round(90 * unit)),
  });
  items.push({
    file: 'number.txt',
    text: String(input.index).padStart(2, '0'),
    font: 'bold',
    size: Math.round(420 * unit),
    color: 'white@0.06',
    x: `w-tw-${Math.round(margin * 0.6)}`,
    y: `h-th-${Math.round(40 * unit)}`,
  });
  const size = Math.round(70 * unit);
  const lineHeight = Math.round(size * 1.35);
  // A portrait card is narrower: shorter lines, and more of them (it is taller).
  const lines = wrapText(input.text, portrait ? 22 : 36, portrait ? 8 : 5);
  // A portrait card (a Short's) keeps its text in the upper part: a Short's subtitles sit at about
  // 60 % of the height, and the text must not run under them.
  const centre = portrait ? height * 0.3 : height / 2;
  const top = Math.round(centre - (lines.length * lineHeight) / 2 + 30 * unit);
  lines.forEach((line, i) => {
    items.push({
      file: `line${i}.txt`,
      text: line,
      font: 'bold',
      size,
      color: 'white',
      x: '(w-tw)/2',
      y: String(top + i * lineHeight),
      shadow: true,
    });
  });
  return items;
}

/** The whole filter graph of a card, from the background (input 0, raw RGB) to the last drawtext. */
export function sceneCardGraph(
  input: SceneCardInput,
  fonts: Record<'bold' | 'regular', string>,
): { graph: string; texts: TextItem[] } {
  const width = input.width ?? 1920;
  const height = input.height ?? 1080;
  const palette = cardPalette(input.title, input.index);
  const unit = Math.min(width, height) / 1080;
  const margin = Math.round(width * 0.0625);
  const texts = cardTexts(input, width, height);
  const filters = [
    '[0:v]format=rgb24',
    // No grain: noise would cost the video encoder a quarter more time and double the bitrate.
    'vignette=angle=PI/4.5',
    `drawbox=x=${margin}:y=${Math.round(150 * unit)}:w=${Math.round(110 * unit)}:h=${Math.max(2, Math.round(6 * unit))}:color=${palette.accent}:t=fill`,
    ...texts.map((item) => drawtext(item, fonts)),
  ];
  return { graph: `${filters.join(',')}[card]`, texts };
}

/** An even size from 64x64 to 7680x4320. */
const isCardSize = (width: number, height: number): boolean =>
  [width, height].every((side) => Number.isInteger(side) && side % 2 === 0) &&
  width >= 64 &&
  height >= 64 &&
  width <= 7680 &&
  height <= 4320;

/**
 * Draws a scene card (PNG, default 1920x1080) with ffmpeg. Throws MediaError: 'missing' without
 * ffmpeg, 'invalid' for a bad size or numbering, 'failed'/'timeout' from ffmpeg.
 */
export async function makeSceneCard(input: SceneCardInput): Promise<SceneCardResult> {
  const width = input.width ?? 1920;
  const height = input.height ?? 1080;
  if (!isCardSize(width, height)) {
    throw new MediaError('invalid', `A scene card must be an even size between 64x64 and 7680x4320 (got ${width}x${height})`);
  }
  if (!Number.isInteger(input.index) || !Number.isInteger(input.total) || input.index < 1 || input.total < input.index) {
    throw new MediaError('invalid', `Scene ${input.index} of ${input.total} is not a valid numbering`);
  }
  const fonts = await chooseFonts(`${input.title}\n${input.text}`);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'scene-card-'));
  const target = path.resolve(input.output);
  try {
    const fontArgs = {
      bold: await fontForGraph(fonts.bold, work, 'bold.ttf'),
      regular: await fontForGraph(fonts.regular, work, 'regular.ttf'),
    };
    const { graph, texts } = sceneCardGraph({ ...input, width, height }, fontArgs);
    await Promise.all(texts.map((item) => fs.writeFile(path.join(work, item.file), item.text, 'utf8')));
    await fs.writeFile(path.join(work, 'background.rgb'), gradientPixels(cardPalette(input.title, input.index), width, height));
    await fs.mkdir(path.dirname(target), { recursive: true });
    const args = [
      '-loglevel',
      'error',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      `${width}x${height}`,
      ...OWN_INPUT,
      '-i',
      'file:background.rgb',
      '-filter_complex',
      graph,
      '-map',
      '[card]',
      '-frames:v',
      '1',
      '-c:v',
      'png',
      // zlib's fastest level: the vignette's dither makes every pixel differ, so the default level
      // spends ~0.3 s of a 1080p card's ~0.5 s on compression, for a file only a quarter smaller
      // (1.3 MB instead of 1.7 MB). The card lives only until the run's video is made.
      '-compression_level',
      '1',
      '-f',
      'image2',
      '-update',
      '1',
    ];
    await runFfmpegInto(target, args, {
      cwd: work,
      timeoutMs: input.timeoutMs ?? 60_000,
      signal: input.signal,
      binary: input.tools?.ffmpeg.path ?? input.ffmpegPath,
    });
    return { output: target, width, height, missingGlyphs: fonts.missing };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
