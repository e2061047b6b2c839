import { publishAtFor, zonedTimeToUtc } from '../src/lib/timeZones';

describe('publication times in the user time zone', () => {
  test('the day after the execution, at the chosen time, in the zone', () => {
    // 22:30 in São Paulo (UTC-3) on 10 March is 01:30 UTC on 11 March: the next local day is 11 March.
    expect(publishAtFor(new Date('2026-03-11T01:30:00Z'), '09:00', 'America/Sao_Paulo').toISOString()).toBe(
      '2026-03-11T12:00:00.000Z',
    );
    expect(publishAtFor(new Date('2026-03-11T01:30:00Z'), '09:00', 'UTC').toISOString()).toBe('2026-03-12T09:00:00.000Z');
    expect(publishAtFor(new Date('2026-06-01T10:00:00Z'), '18:45', 'Asia/Tokyo').toISOString()).toBe('2026-06-02T09:45:00.000Z');
  });

  test('across daylight saving: the offset of the publication day counts, not of the execution day', () => {
    // New York springs forward on 8 March 2026: executed on the 7th (EST, UTC-5), published on the 8th (EDT, UTC-4).
    expect(publishAtFor(new Date('2026-03-07T15:00:00Z'), '09:00', 'America/New_York').toISOString()).toBe(
      '2026-03-08T13:00:00.000Z',
    );
    // Falls back on 1 November 2026: executed on 31 October (EDT), published on 1 November (EST) at 09:00.
    expect(publishAtFor(new Date('2026-10-31T15:00:00Z'), '09:00', 'America/New_York').toISOString()).toBe(
      '2026-11-01T14:00:00.000Z',
    );
    // Europe: 29 March 2026, Lisbon goes from UTC+0 to UTC+1.
    expect(publishAtFor(new Date('2026-03-28T12:00:00Z'), '10:00', 'Europe/Lisbon').toISOString()).toBe(
      '2026-03-29T09:00:00.000Z',
    );
  });

  test('a time skipped by a jump forward moves after it; a repeated time is its first occurrence', () => {
    expect(zonedTimeToUtc({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, 'America/New_York').toISOString()).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    expect(zonedTimeToUtc({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York').toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
  });
});
