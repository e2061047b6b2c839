import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The fonts the video draws with. The picture never depends on what the machine has: DejaVu Sans
 * ships in node_modules (the `dejavu-fonts-ttf` package) and is handed to ffmpeg explicitly
 * (`fontfile=` for drawtext, `fontsdir=` for the subtitles), so a server with no fonts at all still
 * draws every title, card and subtitle. DejaVu covers Latin, Greek, Cyrillic and basic Arabic: 16 of
 * the 20 story languages. For text it cannot draw (Japanese, Korean, Chinese, Hindi), the system's
 * font folders are searched for a font that covers it (fonts-noto-cjk, fonts-deva...); when none
 * does, the run carries a warning and the video is drawn with DejaVu (the missing glyphs come out
 * as nothing). docs/pipeline-media.md, "Fonts".
 *
 * Coverage is read from the fonts' own character maps (the `cmap` table of TrueType/OpenType files
 * and collections), so nothing outside Node is needed to choose.
 */

export interface FontChoice {
  /** The family name the subtitles' style names (as in the font's `name` table). */
  family: string;
  /** Files for drawtext: bold (titles, card text) and regular. */
  bold: string;
  regular: string;
  /** Every file the subtitles may need, for `fontsdir`. */
  files: string[];
  /** 'bundled' (DejaVu from npm) or 'system' (a system font that covers what DejaVu cannot). */
  source: 'bundled' | 'system';
  /** Characters of the text that no font on this server can draw (at most 20, for the warning). */
  missing: string[];
}

/** The folder of the shipped DejaVu fonts. */
export function bundledFontDir(): string {
  return path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
}

export const BUNDLED_FAMILY = 'DejaVu Sans';

export function bundledFonts(): { family: string; bold: string; regular: string } {
  const dir = bundledFontDir();
  return { family: BUNDLED_FAMILY, bold: path.join(dir, 'DejaVuSans-Bold.ttf'), regular: path.join(dir, 'DejaVuSans.ttf') };
}

/** Where the system keeps fonts (searched only for scripts DejaVu lacks). */
export const SYSTEM_FONT_DIRS = [
  '/usr/share/fonts',
  '/usr/local/share/fonts',
  path.join(os.homedir(), '.local/share/fonts'),
  path.join(os.homedir(), '.fonts'),
  '/Library/Fonts',
  '/System/Library/Fonts',
  'C:\\Windows\\Fonts',
];

/** One face of a font file, with what it can draw. */
export interface FontFace {
  file: string;
  /** Index of the face in a collection (.ttc); 0 otherwise. */
  index: number;
  family: string;
  bold: boolean;
  /** True when the face has a glyph for the code point. */
  covers(codePoint: number): boolean;
}

class FontFormatError extends Error {}

function check(condition: boolean, what: string): void {
  if (!condition) throw new FontFormatError(what);
}

/** Reads `length` bytes at `offset` of an open file. */
async function readAt(handle: fs.FileHandle, offset: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, offset);
  check(bytesRead === length, 'truncated font file');
  return buffer;
}

interface TableRecord {
  offset: number;
  length: number;
}

async function tableDirectory(handle: fs.FileHandle, at: number): Promise<Map<string, TableRecord>> {
  const head = await readAt(handle, at, 12);
  const version = head.readUInt32BE(0);
  check(version === 0x00010000 || version === 0x4f54544f || version === 0x74727565, 'not a TrueType/OpenType font');
  const count = head.readUInt16BE(4);
  check(count > 0 && count < 200, 'bad table count');
  const records = await readAt(handle, at + 12, count * 16);
  const tables = new Map<string, TableRecord>();
  for (let i = 0; i < count; i += 1) {
    const tag = records.toString('latin1', i * 16, i * 16 + 4);
    tables.set(tag, { offset: records.readUInt32BE(i * 16 + 8), length: records.readUInt32BE(i * 16 + 12) });
  }
  return tables;
}

/** Ranges [start, end] of code points with a glyph, from a cmap subtable of format 4 or 12. */
export function cmapRanges(cmap: Buffer): Array<[number, number]> {
  check(cmap.length >= 4, 'short cmap');
  const count = cmap.readUInt16BE(2);
  const subtables: Array<{ platform: number; encoding: number; offset: number }> = [];
  for (let i = 0; i < count && 4 + i * 8 + 8 <= cmap.length; i += 1) {
    subtables.push({
      platform: cmap.readUInt16BE(4 + i * 8),
      encoding: cmap.readUInt16BE(4 + i * 8 + 2),
      offset: cmap.readUInt32BE(4 + i * 8 + 4),
    });
  }
  // Full Unicode tables first, then the BMP ones.
  const preference = (s: { platform: number; encoding: number; offset: number }) => {
    const format = s.offset + 2 <= cmap.length ? cmap.readUInt16BE(s.offset) : -1;
    if (format === 12 && (s.platform === 3 || s.platform === 0)) return 0;
    if (format === 4 && (s.platform === 3 || s.platform === 0)) return 1;
    return 9;
  };
  const best = subtables.sort((a, b) => preference(a) - preference(b))[0];
  check(best !== undefined && preference(best) < 9, 'no Unicode cmap');
  const at = best!.offset;
  const format = cmap.readUInt16BE(at);
  const ranges: Array<[number, number]> = [];
  if (format === 12) {
    const groups = cmap.readUInt32BE(at + 12);
    for (let i = 0; i < groups && at + 16 + i * 12 + 12 <= cmap.length; i += 1) {
      const start = cmap.readUInt32BE(at + 16 + i * 12);
      const end = cmap.readUInt32BE(at + 16 + i * 12 + 4);
      if (cmap.readUInt32BE(at + 16 + i * 12 + 8) !== 0 || start !== end) ranges.push([start, end]);
    }
    return ranges;
  }
  // Format 4: segments of end codes, start codes, deltas and range offsets.
  const segments = cmap.readUInt16BE(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let s = 0; s < segments; s += 1) {
    const end = cmap.readUInt16BE(ends + s * 2);
    const start = cmap.readUInt16BE(starts + s * 2);
    const delta = cmap.readInt16BE(deltas + s * 2);
    const rangeOffset = cmap.readUInt16BE(rangeOffsets + s * 2);
    if (start === 0xffff) continue;
    if (rangeOffset === 0) {
      // Every code of the segment maps to (code + delta) mod 65536; only glyph 0 means "none".
      const zeroAt = (65536 - delta) & 0xffff;
      if (zeroAt >= start && zeroAt <= end) {
        if (zeroAt > start) ranges.push([start, zeroAt - 1]);
        if (zeroAt < end) ranges.push([zeroAt + 1, end]);
      } else ranges.push([start, end]);
      continue;
    }
    let runStart = -1;
    for (let code = start; code <= end; code += 1) {
      const glyphAt = rangeOffsets + s * 2 + rangeOffset + (code - start) * 2;
      const glyph = glyphAt + 2 <= cmap.length ? cmap.readUInt16BE(glyphAt) : 0;
      const has = glyph !== 0;
      if (has && runStart < 0) runStart = code;
      if (!has && runStart >= 0) {
        ranges.push([runStart, code - 1]);
        runStart = -1;
      }
    }
    if (runStart >= 0) ranges.push([runStart, end]);
  }
  return ranges;
}

/** The family name (name ID 1, or the typographic family 16 when present) of a `name` table. */
export function familyName(name: Buffer): string | null {
  const count = name.readUInt16BE(2);
  const storage = name.readUInt16BE(4);
  const found = new Map<number, string>();
  for (let i = 0; i < count && 6 + i * 12 + 12 <= name.length; i += 1) {
    const at = 6 + i * 12;
    const platform = name.readUInt16BE(at);
    const language = name.readUInt16BE(at + 4);
    const id = name.readUInt16BE(at + 6);
    const length = name.readUInt16BE(at + 8);
    const offset = storage + name.readUInt16BE(at + 10);
    if (id !== 1 && id !== 16) continue;
    if (offset + length > name.length) continue;
    let text: string | null = null;
    if (platform === 3 || platform === 0) {
      const bytes = Buffer.from(name.subarray(offset, offset + length));
      text = bytes.swap16().toString('utf16le');
      if (platform === 3 && language !== 0x409 && found.has(id)) continue;
    } else if (platform === 1 && !found.has(id)) {
      text = name.toString('latin1', offset, offset + length);
    }
    if (text) found.set(id, text);
  }
  return found.get(1) ?? found.get(16) ?? null;
}

function coverage(ranges: Array<[number, number]>): (codePoint: number) => boolean {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  return (codePoint) => {
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [start, end] = sorted[mid]!;
      if (codePoint < start) hi = mid - 1;
      else if (codePoint > end) lo = mid + 1;
      else return true;
    }
    return false;
  };
}

/** The faces of a .ttf, .otf or .ttc file. Throws on a file that is not a font. */
export async function readFontFile(file: string): Promise<FontFace[]> {
  const handle = await fs.open(file, 'r');
  try {
    const tag = (await readAt(handle, 0, 4)).toString('latin1');
    let starts = [0];
    if (tag === 'ttcf') {
      const head = await readAt(handle, 4, 8);
      const count = Math.min(head.readUInt32BE(4), 64);
      const offsets = await readAt(handle, 12, count * 4);
      starts = Array.from({ length: count }, (_, i) => offsets.readUInt32BE(i * 4));
    }
    const faces: FontFace[] = [];
    for (const [index, start] of starts.entries()) {
      const tables = await tableDirectory(handle, start);
      const cmap = tables.get('cmap');
      const name = tables.get('name');
      check(cmap !== undefined && name !== undefined, 'no cmap or name table');
      check(cmap!.length < 16 * 1024 * 1024 && name!.length < 1024 * 1024, 'table too large');
      const family = familyName(await readAt(handle, name!.offset, name!.length));
      if (!family) continue;
      const os2 = tables.get('OS/2');
      const weight = os2 && os2.length >= 6 ? (await readAt(handle, os2.offset + 4, 2)).readUInt16BE(0) : 400;
      faces.push({
        file,
        index,
        family,
        bold: weight >= 600,
        covers: coverage(cmapRanges(await readAt(handle, cmap!.offset, cmap!.length))),
      });
    }
    return faces;
  } finally {
    await handle.close();
  }
}

/** The code points of `text` that need a glyph (no spaces or controls). */
export function drawnCodePoints(text: string): number[] {
  const seen = new Set<number>();
  for (const char of text) {
    if (/[\s\p{Cc}\p{Cf}]/u.test(char)) continue;
    seen.add(char.codePointAt(0)!);
  }
  return [...seen];
}

let bundledFaces: Promise<FontFace[]> | null = null;
const systemFaces = new Map<string, Promise<FontFace[]>>();

function loadBundled(): Promise<FontFace[]> {
  if (!bundledFaces) {
    const { bold, regular } = bundledFonts();
    bundledFaces = Promise.all([readFontFile(regular), readFontFile(bold)]).then((lists) => lists.flat());
  }
  return bundledFaces;
}

/** Every font file below `dir` (at most 4 folders down, at most 4,000 files). */
function listFontFiles(dir: string, depth: number, out: string[]): void {
  if (out.length >= 4000) return;
  let entries: fsSync.Dirent[];
  try {
    entries = fsSync.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && depth > 0) listFontFiles(full, depth - 1, out);
    else if ((entry.isFile() || entry.isSymbolicLink()) && /\.(ttf|otf|ttc)$/i.test(entry.name)) out.push(full);
  }
}

/** The faces of the system's fonts (read once per folder list; unreadable files are skipped). */
export function loadSystemFaces(dirs: string[] = SYSTEM_FONT_DIRS): Promise<FontFace[]> {
  const key = dirs.join('\n');
  let known = systemFaces.get(key);
  if (!known) {
    known = (async () => {
      const files: string[] = [];
      for (const dir of dirs) listFontFiles(dir, 4, files);
      const faces: FontFace[] = [];
      for (const file of files) faces.push(...(await readFontFile(file).catch(() => [])));
      return faces;
    })();
    systemFaces.set(key, known);
  }
  return known;
}

/**
 * The fonts to draw `text` with: DejaVu Sans when it covers every character; otherwise the system
 * family that covers the most of them (its bold face for titles when it has one), and what nothing
 * covers in `missing`. `systemDirs` is for tests.
 */
export async function chooseFonts(text: string, systemDirs: string[] = SYSTEM_FONT_DIRS): Promise<FontChoice> {
  const bundled = bundledFonts();
  const needed = drawnCodePoints(text);
  const dejavu = await loadBundled();
  const uncovered = needed.filter((cp) => !dejavu.some((face) => face.covers(cp)));
  const onlyBundled = (missing: number[]): FontChoice => ({
    family: bundled.family,
    bold: bundled.bold,
    regular: bundled.regular,
    files: [bundled.regular, bundled.bold],
    source: 'bundled',
    missing: missing.slice(0, 20).map((cp) => String.fromCodePoint(cp)),
  });
  if (uncovered.length === 0) return onlyBundled([]);

  const faces = await loadSystemFaces(systemDirs);
  const byFamily = new Map<string, FontFace[]>();
  for (const face of faces) byFamily.set(face.family, [...(byFamily.get(face.family) ?? []), face]);
  let best: { family: string; faces: FontFace[]; score: number } | null = null;
  for (const [family, list] of byFamily) {
    const score = needed.filter((cp) => list.some((face) => face.covers(cp))).length;
    const gain = uncovered.filter((cp) => list.some((face) => face.covers(cp))).length;
    if (gain === 0) continue;
    if (!best || score > best.score) best = { family, faces: list, score };
  }
  if (!best) return onlyBundled(uncovered);
  // drawtext reads the first face of a file: prefer files whose first face is this family.
  const firstFaces = best.faces.filter((face) => face.index === 0);
  const pick = (bold: boolean) => (firstFaces.find((face) => face.bold === bold) ?? firstFaces[0] ?? best!.faces[0]!).file;
  const missing = needed.filter((cp) => !best!.faces.some((face) => face.covers(cp)));
  return {
    family: best.family,
    bold: pick(true),
    regular: pick(false),
    files: [...new Set(best.faces.map((face) => face.file))],
    source: 'system',
    missing: missing.slice(0, 20).map((cp) => String.fromCodePoint(cp)),
  };
}

/**
 * A folder named `name` inside `workDir` holding links to `files` (copies where links fail), so
 * ffmpeg is given a short relative path that needs no escaping in a filter graph.
 */
export async function fontFolder(files: string[], workDir: string, name = 'fonts'): Promise<string> {
  const folder = path.join(workDir, name);
  await fs.rm(folder, { recursive: true, force: true });
  await fs.mkdir(folder, { recursive: true });
  for (const [i, file] of files.entries()) {
    const link = path.join(folder, `${i}-${path.basename(file).replace(/[^A-Za-z0-9_.-]/g, '_')}`);
    await fs.symlink(path.resolve(file), link).catch(() => fs.copyFile(file, link));
  }
  return name;
}
