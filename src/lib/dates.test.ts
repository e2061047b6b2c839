import { addDays, daysAgo, formatDate, formatDateTime, formatDaysAgo } from './dates';

const when = '2025-03-07T17:05:00.000Z';

describe('dates', () => {
  it('formats in pt-BR by default', () => {
    expect(formatDate(when, { timeZone: 'UTC' })).toBe('07/03/2025');
    expect(formatDateTime(when, { timeZone: 'UTC' })).toBe('07/03/2025 17:05');
  });

  it('honours the time zone and the locale', () => {
    expect(formatDateTime(when, { timeZone: 'America/Sao_Paulo' })).toBe('07/03/2025 14:05');
    expect(formatDate(when, { locale: 'en-US', timeZone: 'UTC' })).toBe('03/07/2025');
  });

  it('gives an empty string for an invalid date', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime('')).toBe('');
  });

  it('counts whole days elapsed', () => {
    expect(daysAgo('2025-03-04T12:00:00Z', '2025-03-07T12:00:00Z')).toBe(3);
    expect(daysAgo('2025-03-07T11:00:00Z', '2025-03-07T12:00:00Z')).toBe(0);
    expect(daysAgo('2025-03-09T12:00:00Z', '2025-03-07T12:00:00Z')).toBe(0);
  });

  it('says how long ago in the interface language', () => {
    const now = '2025-03-07T12:00:00Z';
    expect(formatDaysAgo('2025-03-04T12:00:00Z', { now, locale: 'pt-BR' })).toBe('há 3 dias');
    expect(formatDaysAgo('2025-03-04T12:00:00Z', { now, locale: 'en-US' })).toBe('3 days ago');
    expect(formatDaysAgo(now, { now, locale: 'en-US' })).toBe('today');
  });

  it('adds days', () => {
    expect(addDays('2025-03-07T12:00:00Z', 3).toISOString()).toBe('2025-03-10T12:00:00.000Z');
  });
});
