import { sentenceSpans, splitSentences } from '../lib/text';

/**
 * The words of a story: filling the prompt's placeholders, cleaning what the chat model answers,
 * and the instructions used when a prompt leaves one of its texts blank.
 */

export type Placeholders = Partial<
  Record<'title' | 'premise' | 'summary' | 'chapter_number' | 'total_chapters' | 'language' | 'previous_titles', string | number>
>;

/** Replaces `{name}` placeholders; unknown ones stay as written. */
export function fill(template: string, values: Placeholders): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name as keyof Placeholders];
    return value === undefined ? whole : String(value);
  });
}

/** The language's name in English, as instructions to the model say it. */
export const LANGUAGE_NAMES: Record<string, { en: string; native: string }> = {
  pt: { en: 'Brazilian Portuguese', native: 'português do Brasil' },
  en: { en: 'English', native: 'English' },
};

export function languageName(code: string): string {
  return LANGUAGE_NAMES[code]?.native ?? code;
}

/** Instructions for texts a prompt leaves blank (in English; each asks for the story's language). */
export const FALLBACK_TEXTS = {
  title:
    'Create an original, short title (8 words at most) in {language} for this story. Do not repeat these titles: {previous_titles}. Answer with the title only.',
  premise: 'Write, in {language}, the premise of the story "{title}" in 2 to 3 sentences. Answer with the premise only.',
  narrative:
    'You write stories narrated aloud on YouTube. Always write in {language}, in flowing prose for a narrator, with no headings, lists or stage directions.',
  chapter1:
    'Write chapter {chapter_number} of {total_chapters} of the story "{title}". Premise: {premise}\nOpen the story with a scene that catches attention. About 250 words, narrated text only.',
  next: 'Write chapter {chapter_number} of {total_chapters} of the story "{title}". Premise: {premise}\nSo far: {summary}\nContinue from where the story stopped. About 250 words, narrated text only.',
  final:
    'Write the final chapter ({chapter_number} of {total_chapters}) of the story "{title}". Premise: {premise}\nSo far: {summary}\nResolve the story. About 250 words, narrated text only.',
  summary:
    'Summarise, in {language} and in at most 150 words, everything that has happened in the story so far: names, facts, places and open threads, so the next chapter stays consistent. Answer with the summary only.',
} as const;

/** Number words from one to twenty, in English and Portuguese: a changed one still makes a repeat. */
const NUMBER_WORDS = new Set(
  (
    'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen ' +
    'eighteen nineteen twenty first second third fourth fifth sixth seventh eighth ninth tenth ' +
    'um uma dois duas tres quatro cinco seis sete oito nove dez onze doze treze catorze quatorze quinze dezesseis ' +
    'dezessete dezoito dezenove vinte primeiro primeira segundo segunda terceiro terceira quarto quarta quinto quinta'
  ).split(' '),
);
const ROMAN = /^(?=[ivxlc]+$)c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$/;

/**
 * What two titles share when one is a repeat of the other: accents, case and punctuation dropped,
 * numbers (digits, roman numerals, number words up to twenty) left out, the words in alphabetical
 * order. "A Casa 2", "a casa" and "Casa, a (II)" give the same key.
 */
export function titleKey(title: string): string {
  return title
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word && !/^\p{N}+(st|nd|rd|th|º|ª|o|a)?$/u.test(word) && !ROMAN.test(word) && !NUMBER_WORDS.has(word))
    .sort()
    .join(' ');
}

/**
 * The title request: the prompt's title text, filled; when it has no `{previous_titles}`, the
 * titles to avoid follow as an instruction of their own, so the history always reaches the model.
 * A retry (attempt > 0) says the last answer was taken and asks for another idea by number, so the
 * request itself changes: a model that answers the same request the same way answers differently.
 */
export function titleRequest(
  template: string,
  values: { language: string; avoid: string[]; attempt: number; taken?: string },
): string {
  const list = values.avoid.length > 0 ? values.avoid.map((title) => `"${title}"`).join(', ') : '—';
  const base = fill(template.trim() || FALLBACK_TEXTS.title, { language: values.language, previous_titles: list });
  const parts = [base];
  if (!/\{previous_titles\}/.test(template) && template.trim() && values.avoid.length > 0) {
    parts.push(
      `Do not repeat or rephrase any of these titles (the same words in another order or with another number count as a repeat): ${list}.`,
    );
  }
  if (values.attempt > 0 && values.taken) {
    parts.push(
      `"${values.taken}" is too close to a title already used. Give idea number ${values.attempt + 1}: a title about a different image, with different main words.`,
    );
  }
  return parts.join('\n\n');
}

/** YouTube's title limit. */
export const TITLE_MAX = 100;

/**
 * The first non-empty line, without quotes, a "Title:" label or markdown marks, at most TITLE_MAX
 * characters. The line is cut to a few titles' length before the expressions below run: on a long
 * run of spaces their trailing parts take quadratic time, and the answer is a server's.
 */
export function cleanTitle(answer: string): string {
  const line = (
    answer
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? ''
  )
    .slice(0, 4 * TITLE_MAX)
    .trim();
  const cleaned = line
    .replace(/^(t[ií]tulo|title)\s*:\s*/i, '')
    .replace(/^[#*_\s]+|[*_\s]+$/g, '')
    .replace(/^["'“”«»‘’]+|["'“”«»‘’.]+$/g, '')
    .trim();
  if (cleaned.length <= TITLE_MAX) return cleaned;
  const cut = cleaned.slice(0, TITLE_MAX);
  const space = cut.lastIndexOf(' ');
  return (space > 40 ? cut.slice(0, space) : cut).trim();
}

/** Narration text: markdown marks, headings like "Chapter 2" and stray labels removed, paragraphs kept. */
export function cleanProse(answer: string): string {
  return answer
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => !/^(#+\s|cap[ií]tulo\s+\d+\s*[:.-]?$|chapter\s+\d+\s*[:.-]?$)/i.test(line))
    .map((line) => line.replace(/[*_#`]+/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * How long each text of a story may be, in characters, and how many tokens the model may answer
 * for it. A model's answer is never trusted to be sane: it is cut to these before it reaches the
 * voice, the subtitles or the database.
 */
export const STORY_LIMITS = {
  premise: { chars: 2_000, tokens: 700 },
  chapter: { chars: 12_000, tokens: 4_000 },
  summary: { chars: 3_000, tokens: 1_000 },
  title: { chars: TITLE_MAX, tokens: 100 },
} as const;

/** `text` within `max` characters: cut after the last sentence that fits (or at a space), never mid-word when it can help it. */
export function limitText(text: string, max: number): string {
  if (text.length <= max) return text;
  let sentenceEnd = 0;
  for (const sentence of sentenceSpans(text)) {
    const end = sentence.offset + sentence.text.length;
    if (end > max) break;
    sentenceEnd = end;
  }
  if (sentenceEnd > max / 2) return text.slice(0, sentenceEnd).trim();
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).trim();
}

/**
 * Splits a chapter into `parts` scenes of similar length, cutting at the sentence boundaries
 * closest to equal shares; every scene gets at least one sentence (fewer scenes when the chapter
 * has fewer sentences).
 */
export function splitScenes(text: string, parts: number): string[] {
  const all = splitSentences(text);
  const count = Math.min(parts, all.length);
  if (count <= 1) return [text.trim()];
  const cumulative: number[] = [0];
  for (const sentence of all) cumulative.push(cumulative[cumulative.length - 1]! + sentence.length);
  const total = cumulative[all.length]!;
  const cuts: number[] = [0];
  for (let k = 1; k < count; k += 1) {
    const target = (total * k) / count;
    let best = cuts[k - 1]! + 1;
    for (let i = best; i <= all.length - (count - k); i += 1) {
      if (Math.abs(cumulative[i]! - target) < Math.abs(cumulative[best]! - target)) best = i;
    }
    cuts.push(best);
  }
  cuts.push(all.length);
  return cuts.slice(0, -1).map((start, k) => all.slice(start, cuts[k + 1]).join(' '));
}
