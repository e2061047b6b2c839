/**
 * Every message the API answers in `detail`, and the emails and alerts it sends, in English and
 * Portuguese. The catalogue is `locales/{en,pt}/server.json`, in the web app's i18next format
 * (`{{name}}` placeholders, `_one`/`_other` plural forms chosen by a `count` param), read here
 * with i18next. `MessageKey` comes from messageKeys.gen.ts (`npm run i18n:keys`).
 * The caller's Accept-Language picks the language (`languageFrom`).
 */
import fs from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { MESSAGE_KEYS, type MessageKey } from './messageKeys.gen';

export type { MessageKey };
export type MessageParams = Record<string, string | number>;

/** A message for the caller: a catalogue key and its parameters, translated where it is answered. */
export interface Message {
  key: MessageKey;
  params?: MessageParams;
}

/** locales/ at the repository's root: two levels up from server/src and from server/dist. */
const LOCALES_DIR = path.join(__dirname, '..', '..', 'locales');
const NAMESPACE = 'server';

function catalogue(language: Language): object {
  return JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, language, `${NAMESPACE}.json`), 'utf8')) as object;
}

const instance = i18next.createInstance();
void instance.init({
  resources: { en: { [NAMESPACE]: catalogue('en') }, pt: { [NAMESPACE]: catalogue('pt') } },
  lng: 'en',
  fallbackLng: 'en',
  ns: [NAMESPACE],
  defaultNS: NAMESPACE,
  initAsync: false,
  // Messages are plain text (JSON answers, emails), never HTML.
  interpolation: { escapeValue: false },
  // A placeholder without its param stays as written.
  missingInterpolationHandler: (_text: string, match: RegExpMatchArray) => match[0],
  returnNull: false,
  returnObjects: false,
});
/**
 * i18next's `t`, untyped: the web app's typed keys (src/app/i18next.d.ts) augment the same module
 * when the web project type-checks the scripts that import the server.
 */
const t = instance.t.bind(instance) as unknown as (key: string, options: Record<string, unknown>) => string;
const KNOWN = new Set<string>(MESSAGE_KEYS);

export type Language = 'pt' | 'en';

/**
 * The caller's language from Accept-Language (RFC 9110): the ranges by their q-values (1 when
 * absent; 0 means "not this"), the first that names Portuguese or English wins (`pt`, `pt-BR`,
 * `en-GB`...; `*` takes English); English when nothing matches or the header is missing or malformed.
 */
export function languageFrom(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'en';
  const ranges = acceptLanguage
    .slice(0, 1000)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.tag !== '' && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    const primary = tag.split('-')[0];
    if (primary === 'pt') return 'pt';
    if (primary === 'en' || tag === '*') return 'en';
  }
  return 'en';
}

/** Whether a stored string names a message of the catalogue. */
export function isMessageKey(key: string): key is MessageKey {
  return KNOWN.has(key);
}

/**
 * The message in the language, its `{{name}}` placeholders filled from params; a `count` param
 * picks the plural form. A `reason_key` param names another message (a failure's reason, see
 * providers/reasons.ts) that fills `{{reason}}`. A placeholder without its param stays as written.
 */
export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const { reason_key: reasonKey, ...rest } = params;
  if (typeof reasonKey === 'string') {
    // A key this version does not know (written by a newer one) reads as the generic reason.
    params = { ...rest, reason: translate(language, isMessageKey(reasonKey) ? reasonKey : 'reason.unexpected', rest) };
  }
  return t(key, { ...params, lng: language, ns: NAMESPACE });
}
