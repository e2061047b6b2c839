/**
 * What Settings › Security shows of a session: the browser and system read from its User-Agent
 * (product names, not translated), and how long ago it was last used, in the interface language.
 */

export interface DeviceName {
  /** "Firefox", "Chrome", "Safari"...; for a non-browser client its first product token ("curl"). */
  browser: string | null;
  /** "Windows", "macOS", "iOS", "Android", "Linux"...; null when the User-Agent does not say. */
  system: string | null;
}

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\biPhone\b/, 'iOS'],
  [/\biPad\b/, 'iPadOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** The browser and system a User-Agent names; nulls when it names none. */
export function deviceName(userAgent: string): DeviceName {
  const ua = userAgent.trim();
  if (!ua) return { browser: null, system: null };
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  let browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  if (!browser && !/^Mozilla\//.test(ua)) {
    // curl/8.5.0, python-requests/2.31, okhttp/4.12...: the client's own name.
    browser = /^([A-Za-z][\w.-]{0,30})/.exec(ua)?.[1] ?? null;
  }
  return { browser, system };
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "5 minutes ago", "há 2 horas", "yesterday"; null under a minute (the caller says "now"). */
export function timeAgo(value: string, locale: string, now: number = Date.now()): string | null {
  const elapsed = now - new Date(value).getTime();
  if (!Number.isFinite(elapsed) || elapsed < 60_000) return null;
  const [unit, size] = UNITS.find(([, ms]) => elapsed >= ms)!;
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-Math.floor(elapsed / size), unit);
}
