/**
 * Date helpers. The prompts and voices pages format in pt-BR whatever the interface language
 * (spec §9); everything else uses the interface language's locale. A time zone can be passed
 * (the user's `time_zone`); without one the browser's applies.
 */

export type DateInput = Date | string | number;

export const PT_BR = 'pt-BR';
const DAY_MS = 24 * 60 * 60 * 1000;

export interface FormatOptions {
  locale?: string;
  timeZone?: string;
}

export function toDate(value: DateInput): Date {
  return value instanceof Date ? value : new Date(value);
}

function isValid(date: Date): boolean {
  return !Number.isNaN(date.getTime());
}

/** "21/11/2025" in pt-BR, "11/21/2025" in en-US. An invalid date gives an empty string. */
export function formatDate(value: DateInput, { locale = PT_BR, timeZone }: FormatOptions = {}): string {
  const date = toDate(value);
  if (!isValid(date)) return '';
  return new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone }).format(date);
}

/** "21/11/2025 14:30" in pt-BR. An invalid date gives an empty string. */
export function formatDateTime(value: DateInput, { locale = PT_BR, timeZone }: FormatOptions = {}): string {
  const date = toDate(value);
  if (!isValid(date)) return '';
  const day = formatDate(date, { locale, timeZone });
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(date);
  return `${day} ${time}`;
}

/** Whole days elapsed from `value` to `now` (0 on the same day or in the future). */
export function daysAgo(value: DateInput, now: DateInput = new Date()): number {
  const elapsed = toDate(now).getTime() - toDate(value).getTime();
  return elapsed > 0 ? Math.floor(elapsed / DAY_MS) : 0;
}

/** "3 days ago" / "há 3 dias"; "today" / "hoje" for the same day. */
export function formatDaysAgo(
  value: DateInput,
  { locale = PT_BR, now = new Date() }: { locale?: string; now?: DateInput } = {},
): string {
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-daysAgo(value, now), 'day');
}

export function addDays(value: DateInput, days: number): Date {
  return new Date(toDate(value).getTime() + days * DAY_MS);
}

/** The browser's IANA time zone (sent on sign-up), UTC when the browser does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
