/**
 * Cutting texts into pieces for services that take a limited text per request (speech APIs).
 * Pure: no settings, no I/O.
 */

/**
 * Splits a text into pieces of at most `maxChars` UTF-16 units, at sentence ends (. ! ? … and
 * their CJK forms, or line breaks) where possible, else at the last space, else anywhere outside a
 * surrogate pair. Pieces are trimmed; empty ones are dropped.
 */
export function splitText(text: string, maxChars: number): string[] {
  if (maxChars < 2) throw new RangeError('maxChars must be at least 2');
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars + 1);
    let cut = -1;
    // The last sentence end in the window: punctuation (and closing quotes) followed by a space.
    for (const match of window.matchAll(/[.!?…。！？]+["'”’»)\]]*(?=\s)|\n/g)) {
      const end = match.index + match[0].length;
      if (end <= maxChars) cut = end;
    }
    if (cut <= 0) cut = window.lastIndexOf(' ', maxChars);
    if (cut <= 0) {
      cut = maxChars;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    }
    const piece = rest.slice(0, cut).trim();
    if (piece) pieces.push(piece);
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}
