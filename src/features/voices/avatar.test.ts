import { avatarColor, initialsOf } from './avatar';

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
});
