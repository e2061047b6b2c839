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

/**
 * Makes a first formatter soon, in a task of its own. The first number formatter a page makes
 * loads the browser's number-format data (~15 ms on this machine, a long task on a phone's CPU:
 * Lighthouse's total blocking time); made here, it costs the render that formats the first price
 * nothing. A screen's module calls it as it is evaluated (SignUpPage), before React renders its prices.
 */
export function prepareMoneyFormat(): void {
  setTimeout(() => formatUSD(0));
}
