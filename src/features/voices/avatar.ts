/** A voice's avatar: initials of its name on a colour derived from its id (stable across renders). */

/** Saturated mid-tone colours that keep white initials readable in both themes. */
export const PALETTE = [
  '#6d4cc2',
  '#1a6db0',
  '#00796b',
  '#2e7d32',
  '#c2410c',
  '#c2185b',
  '#5563b5',
  '#7d5f55',
  '#0277bd',
  '#ad1457',
];

/** A stable palette colour for a key (the voice's id, else its name). */
export function avatarColor(key: string): string {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

/** "Ana Narradora" → "AN", "nova" → "NO", "" → "?". */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const letters = words.length === 1 ? [...words[0]].slice(0, 2) : [[...words[0]][0], [...words[words.length - 1]][0]];
  return letters.join('').toUpperCase();
}
