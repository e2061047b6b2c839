/** Money formatting with the locale's separators ("R$ 49,90" in pt-BR, "$29" in en-US). */

/**
 * Formatters by locale, currency and digits, made once: making one takes milliseconds (a render's
 * worth on a slow phone), using one takes microseconds, and a screen formats its prices on every
 * render (the sign-up screen's plans re-render as the form changes).
 */
const formatters = new Map<string, Intl.NumberFormat>();

export function formatMoney(amount: number, currency: string, locale: string, fractionDigits?: number): string {
  const key = `${locale} ${currency} ${fractionDigits ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    formatters.set(key, formatter);
  }
  return formatter.format(amount);
}

/** Plan prices: BRL with two decimals, e.g. "R$ 49,90". */
export function formatBRL(amount: number, locale = 'pt-BR'): string {
  return formatMoney(amount, 'BRL', locale, 2);
}

/** Whole-dollar prices of the sign-up screen, e.g. "$29" (en) or "US$ 29" (pt-BR). */
export function formatUSD(amount: number, locale = 'en-US'): string {
  return formatMoney(amount, 'USD', locale, Number.isInteger(amount) ? 0 : 2);
}
