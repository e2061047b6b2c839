/**
 * The 20 languages a prompt (and a voice) can be written in (spec §3), each with its name in both
 * interface languages. Not to be confused with ./language, the interface languages. Their flags
 * are pictures drawn by components/LanguageFlag, kept out of lib so that only the feature
 * chunks that show a language carry them, never the entry chunk (/login).
 */
import { LANGUAGE_CODES } from './apiEnums.gen';
import type { Language } from './language';

/** The codes, in display order: the server's (src/lib/apiEnums.gen.ts, from the API's document). */
export { LANGUAGE_CODES };
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export interface LanguageInfo {
  code: LanguageCode;
  /** The language's name in each interface language. */
  names: Record<Language, string>;
}

/** Every code's names: a code the server adds or drops fails the type check here. */
const TABLE: Record<LanguageCode, Omit<LanguageInfo, 'code'>> = {
  pt: { names: { pt: 'Português', en: 'Portuguese' } },
  en: { names: { pt: 'Inglês', en: 'English' } },
  es: { names: { pt: 'Espanhol', en: 'Spanish' } },
  fr: { names: { pt: 'Francês', en: 'French' } },
  de: { names: { pt: 'Alemão', en: 'German' } },
  it: { names: { pt: 'Italiano', en: 'Italian' } },
  ja: { names: { pt: 'Japonês', en: 'Japanese' } },
  ko: { names: { pt: 'Coreano', en: 'Korean' } },
  zh: { names: { pt: 'Chinês', en: 'Chinese' } },
  ru: { names: { pt: 'Russo', en: 'Russian' } },
  ar: { names: { pt: 'Árabe', en: 'Arabic' } },
  hi: { names: { pt: 'Hindi', en: 'Hindi' } },
  tr: { names: { pt: 'Turco', en: 'Turkish' } },
  nl: { names: { pt: 'Holandês', en: 'Dutch' } },
  sv: { names: { pt: 'Sueco', en: 'Swedish' } },
  no: { names: { pt: 'Norueguês', en: 'Norwegian' } },
  da: { names: { pt: 'Dinamarquês', en: 'Danish' } },
  fi: { names: { pt: 'Finlandês', en: 'Finnish' } },
  pl: { names: { pt: 'Polonês', en: 'Polish' } },
  cs: { names: { pt: 'Tcheco', en: 'Czech' } },
};

/** Every supported language, in display order. */
export const LANGUAGES_INFO: readonly LanguageInfo[] = LANGUAGE_CODES.map((code) => ({ code, ...TABLE[code] }));

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && (LANGUAGE_CODES as readonly string[]).includes(value);
}

/** The language's name in the interface language; an unknown code is shown as is. */
export function languageName(code: string, uiLanguage: Language): string {
  return isLanguageCode(code) ? TABLE[code].names[uiLanguage] : code;
}

/** The supported languages not in `present`, in display order (the "add language" menu). */
export function missingLanguages(present: readonly string[]): LanguageCode[] {
  return LANGUAGE_CODES.filter((code) => !present.includes(code));
}
