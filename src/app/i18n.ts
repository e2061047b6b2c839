import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '../lib/constants';
import { LANGUAGES, type Language } from '../lib/language';
import type { Translations } from './locales';
import type { Namespace } from './resources';

/** Values every translation may use without the caller passing them. */
export const DEFAULT_VARIABLES = { passwordMin: PASSWORD_MIN_LENGTH };

/** Fetches one namespace of one language (app/locales.ts `loadNamespace`). */
export type NamespaceLoader = (language: Language, namespace: Namespace) => Promise<object>;

/** An i18next backend that asks `load` for what is not in the store yet. */
function backend(load: NamespaceLoader): BackendModule {
  return {
    type: 'backend',
    init: () => undefined,
    read(language, namespace, callback) {
      load(language as Language, namespace as Namespace).then(
        (data) => callback(null, data as Record<string, unknown>),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
      );
    },
  };
}

/**
 * An i18next instance in `language`, holding `translations`. With `load`, namespaces it lacks are
 * fetched when a screen asks for them (app/pages.ts) and, on a language switch, every namespace in
 * use is fetched in the new language before the switch shows. The app makes one at start-up
 * (index.tsx) with `common` and the loader; tests make one per render with every translation.
 * A missing key shows the key itself (i18next's default).
 */
export function createI18n(language: Language, translations: Translations, load?: NamespaceLoader): I18n {
  const instance = i18next.createInstance();
  if (load) instance.use(backend(load));
  void instance.use(initReactI18next).init({
    resources: translations,
    partialBundledLanguages: load !== undefined,
    lng: language,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: Object.keys(translations[language] ?? { common: true }),
    defaultNS: 'common',
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false, defaultVariables: DEFAULT_VARIABLES },
    react: { useSuspense: false },
  });
  return instance;
}

/** The value of `<html lang>` for each interface language. */
export const HTML_LANG: Record<Language, string> = { pt: 'pt-BR', en: 'en' };
