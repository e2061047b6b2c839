import { splitSentences } from '../lib/text';

/**
 * Subtitle cues from narrated text, and the files that carry them: ASS (what the renderer burns in,
 * because it fixes the style: white bold text, dark outline, bottom centre) and SRT (for upload as
 * a caption track). Everything here is pure: no files, no processes.
 */

/** Where a word of a part's text starts being spoken. */
export interface SpokenWord {
  /** Its place in the part's text, in UTF-16 units (JavaScript string offsets). */
  offset: number;
  /** Seconds from the start of the part. */
  start: number;
}

export interface NarratedPart {
  /** What is said. */
  text: string;
  /** Where the narration of this part starts in the audio, seconds. */
  start: number;
  /** How long it is spoken, seconds. */
  duration: number;
  /**
   * Where each word starts, when the voice tells (the local voice does: localVoice.alignWords).
   * Then every cue starts with its first word and ends where the next cue starts; without them a
   * part's time is shared among its cues by their length.
   */
  words?: SpokenWord[];
}

export interface Cue {
  start: number;
  end: number;
  /** One or two lines, separated by '\n'. */
  text: string;
}

/** Characters per subtitle line: the usual broadcast limit, readable at 1080p and on phones. */
export const SUBTITLE_LINE_CHARS = 42;
/** Characters per cue: two lines. */
export const SUBTITLE_CUE_CHARS = 2 * SUBTITLE_LINE_CHARS;
/** The shortest a word-timed cue lasts when the voice ran its first word into the previous one. */
const MIN_CUE_SECONDS = 0.04;
/** A sentence shorter than this shares its cue with a neighbour when both fit ("Yes. She knew."). */
const SHORT_SENTENCE_CHARS = 16;

/** Collapses runs of whitespace (newlines included) into single spaces. */
const normalize = (text: string): string => text.replace(/\s+/gu, ' ').trim();

/** Words of `text`; a word longer than `maxWordChars` (or a run of CJK text without spaces) is cut into pieces. */
function words(text: string, maxWordChars: number): string[] {
  const out: string[] = [];
  for (const word of normalize(text).split(' ')) {
    if (!word) continue;
    const chars = Array.from(word);
    for (let i = 0; i < chars.length; i += maxWordChars) out.push(chars.slice(i, i + maxWordChars).join(''));
  }
  return out;
}

const charCount = (text: string): number => Array.from(text).length;

/**
 * Splits `list` (words) into exactly `groups` consecutive groups, each at most `limit` characters
 * long when joined with spaces, as even as possible (least squared deviation from the mean).
 * Answers null when it cannot be done.
 */
export function balancedGroups(list: string[], groups: number, limit: number): string[] | null {
  const n = list.length;
  if (groups < 1 || groups > n) return null;
  const lengths = list.map(charCount);
  const prefix = [0];
  for (const length of lengths) prefix.push(prefix[prefix.length - 1] + length);
  const span = (from: number, to: number) => prefix[to] - prefix[from] + (to - from - 1);
  const target = span(0, n) / groups;
  // cost[g][i]: the best cost of putting the first i words into g groups; cut[g][i]: where the last group starts.
  const cost: number[][] = Array.from({ length: groups + 1 }, () => new Array<number>(n + 1).fill(Infinity));
  const cut: number[][] = Array.from({ length: groups + 1 }, () => new Array<number>(n + 1).fill(-1));
  cost[0][0] = 0;
  for (let g = 1; g <= groups; g += 1) {
    for (let i = g; i <= n; i += 1) {
      for (let j = i - 1; j >= g - 1; j -= 1) {
        const length = span(j, i);
        if (length > limit) break;
        const total = cost[g - 1][j] + (length - target) ** 2;
        if (total < cost[g][i]) {
          cost[g][i] = total;
          cut[g][i] = j;
        }
      }
    }
  }
  if (!Number.isFinite(cost[groups][n])) return null;
  const result: string[] = [];
  for (let g = groups, i = n; g > 0; g -= 1) {
    const j = cut[g][i];
    result.unshift(list.slice(j, i).join(' '));
    i = j;
  }
  return result;
}

/** `text` as one line, or two balanced lines of at most `lineChars`; null when two lines are not enough. */
function twoLines(text: string, lineChars: number): string[] | null {
  if (charCount(text) <= lineChars) return [text];
  return balancedGroups(words(text, lineChars), 2, lineChars);
}

/**
 * The cue texts of one sentence: as few cues as possible, each one or two balanced lines of at
 * most `lineChars` and at most `maxChars` in all; the cues about equally long.
 */
export function sentenceChunks(
  sentence: string,
  maxChars: number = SUBTITLE_CUE_CHARS,
  lineChars: number = SUBTITLE_LINE_CHARS,
): string[] {
  const list = words(sentence, lineChars);
  if (list.length === 0) return [];
  const total = charCount(list.join(' '));
  for (let count = Math.max(1, Math.ceil(total / maxChars)); count <= list.length; count += 1) {
    const groups = balancedGroups(list, count, maxChars);
    const wrapped = groups?.map((group) => twoLines(group, lineChars));
    if (wrapped && wrapped.every((lines) => lines !== null)) return wrapped.map((lines) => (lines ?? []).join('\n'));
  }
  return list;
}

/** Cues' worth of text a sentence is balanced over at most: longer ones are cut into pieces of this size first. */
const PIECE_CUES = 4;

/**
 * A very long "sentence" (a model that never stops a sentence, a text without punctuation) cut
 * into pieces of at most PIECE_CUES cues' worth, after a comma, semicolon or colon where one falls
 * in the second half of a piece, else between words. Keeps the balancing of sentenceChunks, which
 * is quadratic in a sentence's words, linear in the text's length.
 */
export function boundedPieces(sentence: string, maxChars: number, lineChars: number): string[] {
  const limit = PIECE_CUES * maxChars;
  if (charCount(sentence) <= limit) return [sentence];
  const pieces: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const word of words(sentence, lineChars)) {
    const added = charCount(word) + (current.length > 0 ? 1 : 0);
    if (length + added > limit && current.length > 0) {
      // Break after the last clause mark in the second half of the piece, if there is one.
      let cut = current.length;
      for (let i = current.length - 1, at = length; i > 0 && at > limit / 2; i -= 1) {
        if (/[,;:]$/u.test(current[i - 1]!)) {
          cut = i;
          break;
        }
        at -= charCount(current[i]!) + 1;
      }
      pieces.push(current.slice(0, cut).join(' '));
      current = current.slice(cut);
      length = charCount(current.join(' '));
    }
    current.push(word);
    length += charCount(word) + (current.length > 1 ? 1 : 0);
  }
  if (current.length > 0) pieces.push(current.join(' '));
  return pieces;
}

/** Sentences with very short ones joined to a neighbour, when the two fit in one cue. */
function joinShortSentences(sentences: string[], maxChars: number): string[] {
  const out: string[] = [];
  for (const sentence of sentences) {
    const previous = out[out.length - 1];
    const short =
      charCount(sentence) < SHORT_SENTENCE_CHARS || (previous !== undefined && charCount(previous) < SHORT_SENTENCE_CHARS);
    if (previous !== undefined && short && charCount(previous) + 1 + charCount(sentence) <= maxChars) {
      out[out.length - 1] = `${previous} ${sentence}`;
    } else {
      out.push(sentence);
    }
  }
  return out;
}

export interface CueOptions {
  /** Characters per cue (two lines); default 84. */
  maxChars?: number;
  /** Characters per line; default half of maxChars (42). */
  lineChars?: number;
}

/**
 * Where each cue text of `texts` (cut from `text` in order, as subtitleCues does: whitespace and
 * line breaks aside, they are consecutive runs of its characters) begins in `text`, as a UTF-16
 * offset; -1 for a cue whose characters cannot be found (never expected).
 */
function cueOffsets(text: string, texts: string[]): number[] {
  // Every character of text that is not whitespace, with its offset.
  const compact: Array<{ char: string; offset: number }> = [];
  for (let offset = 0; offset < text.length;) {
    const char = String.fromCodePoint(text.codePointAt(offset)!);
    if (!/\s/u.test(char)) compact.push({ char, offset });
    offset += char.length;
  }
  const offsets: number[] = [];
  let cursor = 0;
  for (const cue of texts) {
    const chars = Array.from(cue.replace(/\s+/gu, ''));
    const at = compact[cursor];
    const matches = at !== undefined && chars.every((char, i) => compact[cursor + i]?.char === char);
    offsets.push(matches ? at.offset : -1);
    if (matches) cursor += chars.length;
  }
  return offsets;
}

/**
 * When the character at `offset` is spoken, from the words' starts: the start of the word that
 * begins there; inside a word (a cue cut in the middle of a long word or of a run of CJK text),
 * that word's time plus its share, by characters, of the time until the next word.
 */
function spokenAt(offset: number, words: SpokenWord[], text: string, duration: number): number | undefined {
  let index = -1;
  for (let low = 0, high = words.length - 1; low <= high;) {
    const middle = (low + high) >> 1;
    if (words[middle]!.offset <= offset) {
      index = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  if (index < 0) return undefined;
  const word = words[index]!;
  if (word.offset === offset) return word.start;
  const next = words[index + 1];
  const nextOffset = next?.offset ?? text.length;
  const nextStart = next?.start ?? duration;
  return word.start + ((nextStart - word.start) * (offset - word.offset)) / Math.max(1, nextOffset - word.offset);
}

/**
 * Subtitle cues for narrated parts: each part's text is split into sentences (lib/text), each
 * sentence into cues of one or two lines. With the part's word timings each cue starts when its first word is
 * spoken and lasts until the next cue starts (the last one until the part's end); without them the
 * part's duration is shared among its cues in proportion to their length (characters). Cues never
 * overlap (a part starting before the previous one ended is pushed back) and parts without time
 * or text give none.
 */
export function subtitleCues(parts: NarratedPart[], opts: CueOptions = {}): Cue[] {
  const maxChars = Math.max(8, Math.floor(opts.maxChars ?? SUBTITLE_CUE_CHARS));
  const lineChars = Math.max(4, Math.floor(opts.lineChars ?? Math.ceil(maxChars / 2)));
  const cues: Cue[] = [];
  let previousEnd = 0;
  for (const part of parts) {
    const texts = joinShortSentences(splitSentences(part.text).map(normalize), maxChars)
      .flatMap((sentence) => boundedPieces(sentence, maxChars, lineChars))
      .flatMap((piece) => sentenceChunks(piece, maxChars, lineChars));
    const weights = texts.map((text) => charCount(text.replace(/\n/g, ' ')));
    const totalWeight = weights.reduce((a, b) => a + b, 0);
    const partEnd = part.start + part.duration;
    if (totalWeight === 0 || !(part.duration > 0)) continue;
    // Relative starts: from the words when every cue can be placed by them, else by length.
    let starts: number[] | undefined;
    if (part.words && part.words.length > 0) {
      const words = [...part.words].sort((a, b) => a.offset - b.offset);
      const spoken = cueOffsets(part.text, texts).map((offset) =>
        offset < 0 ? undefined : spokenAt(offset, words, part.text, part.duration),
      );
      if (spoken.every((time) => time !== undefined)) {
        // Two cues never start together (words the voice ran into one keep a sliver each).
        starts = [];
        for (const time of spoken) {
          const floor = starts.length > 0 ? starts[starts.length - 1]! + MIN_CUE_SECONDS : 0;
          starts.push(Math.min(Math.max(floor, time!), part.duration));
        }
      }
    }
    if (!starts) {
      let before = 0;
      starts = weights.map((weight) => {
        const start = (part.duration * before) / totalWeight;
        before += weight;
        return start;
      });
    }
    texts.forEach((text, i) => {
      const start = Math.max(part.start + starts[i]!, previousEnd);
      const end = i === texts.length - 1 ? partEnd : part.start + starts[i + 1]!;
      if (end - start < 0.001) return;
      cues.push({ start, end, text });
      previousEnd = end;
    });
  }
  return cues;
}

/**
 * Lines of at most `lineChars` (greedy), at most `maxLines` of them; text that does not fit ends
 * the last line with '…'. For titles and excerpts on images.
 */
export function wrapText(text: string, lineChars: number, maxLines: number = Infinity): string[] {
  const lines: string[] = [];
  let current = '';
  const list = words(text, lineChars);
  for (let i = 0; i < list.length; i += 1) {
    const word = list[i];
    const candidate = current ? `${current} ${word}` : word;
    if (charCount(candidate) <= lineChars) {
      current = candidate;
      continue;
    }
    lines.push(current);
    current = word;
    if (lines.length === maxLines) {
      const last = Array.from(lines[maxLines - 1]);
      lines[maxLines - 1] = `${last
        .slice(0, Math.max(0, lineChars - 1))
        .join('')
        .replace(/[\s.,;:!?…-]+$/u, '')}…`;
      return lines;
    }
  }
  if (current) lines.push(current);
  return lines;
}

/**
 * `text` in as few lines of at most `lineChars` as possible, the lines about equally long (for
 * titles); when `maxLines` are not enough, the greedy wrapText with its '…'.
 */
export function balancedLines(text: string, lineChars: number, maxLines: number): string[] {
  const list = words(text, lineChars);
  if (list.length === 0) return [];
  const minimum = Math.ceil(charCount(list.join(' ')) / lineChars);
  for (let count = Math.max(1, minimum); count <= Math.min(maxLines, list.length); count += 1) {
    const lines = balancedGroups(list, count, lineChars);
    if (lines) return lines;
  }
  return wrapText(text, lineChars, maxLines);
}

/** Seconds as an ASS time, H:MM:SS.cc (centiseconds, rounded, so neighbouring cues meet exactly). */
export function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360_000);
  const m = Math.floor(cs / 6000) % 60;
  const s = Math.floor(cs / 100) % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
}

/** Seconds as an SRT time, HH:MM:SS,mmm. */
export function srtTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')},${String(ms % 1000).padStart(3, '0')}`;
}

/**
 * Cue text made safe for an ASS Dialogue line: `{` and `}` become the escapes `\{` `\}` (so no
 * override block starts), a backslash is followed by a WORD JOINER (U+2060, invisible) so it never
 * forms an escape such as `\N`, line breaks become `\N`, and other control characters a space.
 */
export function escapeAssText(text: string): string {
  return text
    .replace(/\\/g, '\\\u2060')
    .replace(/[{}]/g, (brace) => `\\${brace}`)
    .replace(/\r\n|\r|\n/g, '\\N')
    .replace(/\p{Cc}/gu, ' ');
}

export interface AssOptions {
  width?: number;
  height?: number;
  /** Pixels at `height`; default 5.5 % of the height (59 at 1080p). */
  fontSize?: number;
  /** A fontconfig family name; default DejaVu Sans (libass falls back to any installed font). */
  fontName?: string;
  /** Distance of the bottom line from the bottom edge; default 6.5 % of the height. */
  marginV?: number;
  /** Left and right margins; default 5 % of the width. */
  marginH?: number;
}

/**
 * An ASS script for `cues`: white bold text with a dark outline, bottom centre, lines broken only
 * where the cue says (WrapStyle 2). Sized for `width`x`height` (PlayRes), so nothing is rescaled.
 */
export function toAss(cues: Cue[], opts: AssOptions = {}): string {
  const width = opts.width ?? 1920;
  const height = opts.height ?? 1080;
  const fontSize = Math.round(opts.fontSize ?? height * 0.055);
  const fontName = (opts.fontName ?? 'DejaVu Sans').replace(/[,\r\n]/g, ' ');
  const marginV = Math.round(opts.marginV ?? height * 0.065);
  const marginH = Math.round(opts.marginH ?? width * 0.05);
  const outline = Math.max(2, Math.round(fontSize / 20));
  const header = [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    // Colours are &HAABBGGRR: white text, an opaque near-black outline; alignment 2 = bottom centre.
    `Style: Default,${fontName},${fontSize},&H00FFFFFF,&H00FFFFFF,&H00101010,&H80000000,-1,0,0,0,100,100,0,0,1,${outline},0,2,${marginH},${marginH},${marginV},1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  ];
  const events = cues.map(
    (cue) => `Dialogue: 0,${assTime(cue.start)},${assTime(cue.end)},Default,,0,0,0,,${escapeAssText(cue.text)}`,
  );
  return `${[...header, ...events].join('\n')}\n`;
}

/** An SRT file for `cues` (for a caption track; the renderer burns the ASS one). */
export function toSrt(cues: Cue[]): string {
  return cues
    .map((cue, i) => `${i + 1}\n${srtTime(cue.start)} --> ${srtTime(cue.end)}\n${cue.text.replace(/\r\n|\r/g, '\n').trim()}\n`)
    .join('\n');
}
