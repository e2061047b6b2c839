import { localParts, publishAtFor, zonedTimeToUtc } from '../lib/timeZones';

/** YouTube refuses a publishAt too close to now: a time that has (nearly) passed moves to the next day. */
export const MIN_LEAD_MS = 15 * 60 * 1000;

/**
 * When the video goes public: the day after the execution at the process's publication time, in
 * the owner's time zone. A retry after that moment takes the next such time still ahead.
 */
export function publishAtOf(executedAt: Date, time: string, timeZone: string, now: Date): Date {
  let publishAt = publishAtFor(executedAt, time, timeZone);
  while (publishAt.getTime() < now.getTime() + MIN_LEAD_MS) {
    const day = localParts(publishAt, timeZone);
    const next = new Date(Date.UTC(day.year, day.month - 1, day.day + 1));
    const [hour, minute] = time.split(':').map(Number);
    publishAt = zonedTimeToUtc(
      {
        year: next.getUTCFullYear(),
        month: next.getUTCMonth() + 1,
        day: next.getUTCDate(),
        hour: hour ?? 9,
        minute: minute ?? 0,
      },
      timeZone,
    );
  }
  return publishAt;
}
