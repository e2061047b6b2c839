/**
 * Cutting a text at its sentence ends: the one splitter behind story scenes, subtitles and speech
 * requests. The sentence rules are Unicode's (UAX #29, as ICU implements them behind
 * `Intl.Segmenter`): `. ! ?` with closing quotes and brackets, the CJK `。！？`, the Devanagari
 * danda `।`, the Arabic `؟`, paragraph breaks; "3.5", "e.g. this" (a full stop before a small
 * letter) and "a.b" are not ends. Node's ICU has no abbreviation list, so "Mr. Smith" is cut after
 * "Mr." as before. Pure: no settings, no I/O.
 */

/** A run of a text: where it starts (UTF-16 offset into the text) and what it says, trimmed. */
export interface TextSpan {
  offset: number;
  text: string;
}

const segmenters = new Map<string, Intl.Segmenter>();

function sentenceSegmenter(locale: string | undefined): Intl.Segmenter {
  const key = locale ?? '';
  let segmenter = segmenters.get(key);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'sentence' });
    segmenters.set(key, segmenter);
  }
  return segmenter;
}

/**
 * The sentences of `text` in order, each trimmed, with where it starts; white space between them
 * (and around the text) belongs to none. Lazy: a caller that needs only the first ones stops early.
 * `locale` is a BCP 47 tag (the story's language); ICU's sentence rules are the same for all of
 * this product's languages, so it may be left out.
 */
export function* sentenceSpans(text: string, locale?: string): Generator<TextSpan> {
  // ICU does not count the ellipsis character as a stop (it reads it as trailing off inside a
  // sentence), but does count "...". The segmenter reads a copy with "…" as "." (one UTF-16 unit
  // for one, so every offset holds): "Then… Silence." is two sentences, "Then… silence." one.
  const shadow = text.replaceAll('…', '.');
  let pending: { start: number; end: number } | undefined;
  for (const { index, segment } of sentenceSegmenter(locale).segment(shadow)) {
    const body = segment.trim();
    if (!body) continue;
    let start = index + segment.length - segment.trimStart().length;
    if (pending) {
      // Opening brackets right after a stop start the next sentence ("。「誰？」"), though UAX #29
      // gives them to the one before (its Close class holds both kinds of bracket).
      const opening = /(?<=[\p{Po}\p{Pe}\p{Pf}])\p{Ps}+$/u.exec(text.slice(pending.start, pending.end));
      if (opening) {
        pending.end -= opening[0].length;
        start = pending.end;
      }
      yield { offset: pending.start, text: text.slice(pending.start, pending.end) };
    }
    pending = { start, end: index + segment.trimEnd().length };
  }
  if (pending) yield { offset: pending.start, text: text.slice(pending.start, pending.end) };
}

/** The sentences of `text`, trimmed (see sentenceSpans). */
export function splitSentences(text: string, locale?: string): string[] {
  return Array.from(sentenceSpans(text, locale), (span) => span.text);
}

export interface TextPieceOptions {
  /**
   * No piece is longer (UTF-16 units, what request limits count). A sentence longer than this is
   * cut at its last white space that fits, or where there is none, at the limit, never inside a
   * surrogate pair. At least 2.
   */
  maxChars: number;
  /**
   * A piece takes whole sentences until it is at least this long, then the next one starts a new
   * piece (so a long text is spoken in many small requests). Without it, a piece takes as many
   * whole sentences as fit within maxChars (the fewest requests).
   */
  minChars?: number;
  /** The text's language (see sentenceSpans). */
  locale?: string;
}

/** True for the first half of a surrogate pair. */
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** `span` (trimmed) in pieces of at most `maxChars`: at the last white space that fits, else at the limit. */
function cutToLimit(span: TextSpan, maxChars: number): TextSpan[] {
  const pieces: TextSpan[] = [];
  let { offset, text: left } = span;
  while (left.length > maxChars) {
    let end = left.slice(1, maxChars + 1).search(/\s\S*$/u) + 1;
    if (end <= 0) end = maxChars - (isHighSurrogate(left.charCodeAt(maxChars - 1)) ? 1 : 0);
    const next = end + (/^\s*/u.exec(left.slice(end))?.[0].length ?? 0);
    pieces.push({ offset, text: left.slice(0, end).trimEnd() });
    offset += next;
    left = left.slice(next);
  }
  if (left) pieces.push({ offset, text: left });
  return pieces;
}

/**
 * `text` in pieces of whole sentences for a service that takes a limited text per request (a
 * speech API), each with where it starts in `text`. Every character of `text` but the white space
 * between pieces is in exactly one piece, in order, so nothing more is billed than the text itself;
 * a piece keeps the white space (line breaks) inside it as it was.
 */
export function textPieces(text: string, options: TextPieceOptions): TextSpan[] {
  const { maxChars, minChars } = options;
  if (!(maxChars >= 2)) throw new RangeError('maxChars must be at least 2');
  const groups: Array<{ start: number; end: number }> = [];
  let current: { start: number; end: number } | undefined;
  for (const sentence of sentenceSpans(text, options.locale)) {
    const end = sentence.offset + sentence.text.length;
    if (current && (minChars === undefined ? end - current.start <= maxChars : current.end - current.start < minChars)) {
      current.end = end;
    } else {
      if (current) groups.push(current);
      current = { start: sentence.offset, end };
    }
  }
  if (current) groups.push(current);
  return groups.flatMap(({ start, end }) => cutToLimit({ offset: start, text: text.slice(start, end) }, maxChars));
}
