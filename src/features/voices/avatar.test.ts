import { PALETTE, avatarColor, initialsOf } from './avatar';

/** WCAG contrast ratio of white text on a #rrggbb colour. */
function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return 1.05 / (luminance + 0.05);
}

describe('voice avatar', () => {
  it('derives a stable colour from the key, varying between keys', () => {
    expect(avatarColor('vo-1')).toBe(avatarColor('vo-1'));
    const colours = new Set(['vo-1', 'vo-2', 'vo-3', 'vo-4', 'vo-5', 'vo-6'].map(avatarColor));
    expect(colours.size).toBeGreaterThan(1);
    expect(avatarColor('')).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('takes the initials of the first and last words', () => {
    expect(initialsOf('Ana Narradora')).toBe('AN');
    expect(initialsOf('  maria da silva ')).toBe('MS');
    expect(initialsOf('nova')).toBe('NO');
    expect(initialsOf('  ')).toBe('?');
  });

  it('keeps white initials readable (4.5:1) on every colour', () => {
    for (const colour of PALETTE) expect(contrastWithWhite(colour)).toBeGreaterThanOrEqual(4.5);
  });
});
