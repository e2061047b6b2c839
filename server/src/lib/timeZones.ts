/**
 * Wall-clock times in IANA time zones with nothing but Intl: the instant a local date and time
 * happen in a zone, across daylight-saving changes.
 */

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The local calendar date and time of an instant in a zone. */
export function localParts(instant: Date, timeZone: string): LocalParts & { second: number } {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** The zone's offset from UTC at an instant, in milliseconds (local minus UTC). */
export function offsetAt(instant: Date, timeZone: string): number {
  const p = localParts(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant at which the local date and time happen in the zone. A time skipped by a
 * daylight-saving jump (02:30 on a spring-forward night) is taken as the same wall time after the
 * jump (03:30); a time that happens twice (fall back) is its first occurrence.
 */
export function zonedTimeToUtc(local: LocalParts, timeZone: string): Date {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  // The offsets just before and after the wall time cover both sides of a change.
  const candidates = [offsetAt(new Date(wall - 12 * 3600_000), timeZone), offsetAt(new Date(wall + 12 * 3600_000), timeZone)];
  const exact = candidates
    .map((offset) => wall - offset)
    .filter((instant) => {
      const p = localParts(new Date(instant), timeZone);
      return (
        p.year === local.year &&
        p.month === local.month &&
        p.day === local.day &&
        p.hour === local.hour &&
        p.minute === local.minute
      );
    })
    .sort((a, b) => a - b);
  if (exact.length > 0) return new Date(exact[0]!);
  // Skipped by a jump forward: the offset before the jump puts it after the jump.
  return new Date(wall - candidates[0]!);
}

/**
 * When a video made at `executedAt` is published: the next calendar day in the user's zone, at
 * `time` (HH:MM) there.
 */
export function publishAtFor(executedAt: Date, time: string, timeZone: string): Date {
  const today = localParts(executedAt, timeZone);
  const next = new Date(Date.UTC(today.year, today.month - 1, today.day + 1));
  const [hour, minute] = time.split(':').map(Number);
  return zonedTimeToUtc(
    { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: hour ?? 9, minute: minute ?? 0 },
    timeZone,
  );
}
