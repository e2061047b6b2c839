/** What a figure not known yet shows (e.g. channel statistics before the first fetch). */
export const UNKNOWN_FIGURE = '—';

/** "1.234.567" in pt-BR, "1,234,567" in en-US; "—" when the figure is not known. */
export function formatCount(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return UNKNOWN_FIGURE;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}
