import { formatCount, UNKNOWN_FIGURE } from './numbers';

describe('numbers', () => {
  it('formats counts with the locale’s separators', () => {
    expect(formatCount(1234567, 'pt-BR')).toBe('1.234.567');
    expect(formatCount(1234567, 'en-US')).toBe('1,234,567');
    expect(formatCount(0, 'en-US')).toBe('0');
  });

  it('shows a dash for a figure not known yet', () => {
    expect(formatCount(null, 'en-US')).toBe(UNKNOWN_FIGURE);
    expect(formatCount(undefined, 'pt-BR')).toBe('—');
  });
});
