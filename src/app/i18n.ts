import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '../lib/constants';
import { detectLanguage, LANGUAGES, type Language } from '../lib/language';
import { NAMESPACES, resources } from './resources';

/** Values every translation may use without the caller passing them. */
export const DEFAULT_VARIABLES = { passwordMin: PASSWORD_MIN_LENGTH };

/**
 * Builds an i18next instance with every bundled translation. The app makes one at start-up
 * (`i18n` below) and the store's `preferences.language` drives it afterwards (see LanguageSync);
 * tests make one per render. A missing key shows the key itself (i18next's default).
 */
export function createI18n(language: Language = detectLanguage()): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: NAMESPACES,
    defaultNS: 'common',
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false, defaultVariables: DEFAULT_VARIABLES },
    react: { useSuspense: false },
  });
  return instance;
}

export const i18n = createI18n();

/** The value of `<html lang>` for each interface language. */
export const HTML_LANG: Record<Language, string> = { pt: 'pt-BR', en: 'en' };
