/**
 * The 20 languages a prompt (and a voice) can be written in (spec §3), each with a flag and its
 * name in both interface languages. Not to be confused with ./language, the interface languages.
 */
import type { Language } from './language';

export const LANGUAGE_CODES = [
  'pt',
  'en',
  'es',
  'fr',
  'de',
  'it',
  'ja',
  'ko',
  'zh',
  'ru',
  'ar',
  'hi',
  'tr',
  'nl',
  'sv',
  'no',
  'da',
  'fi',
  'pl',
  'cs',
] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export interface LanguageInfo {
  code: LanguageCode;
  /** A flag emoji; decorative (the name says which language it is). */
  flag: string;
  /** The language's name in each interface language. */
  names: Record<Language, string>;
}

const TABLE: Record<LanguageCode, Omit<LanguageInfo, 'code'>> = {
  pt: { flag: '🇧🇷', names: { pt: 'Português', en: 'Portuguese' } },
  en: { flag: '🇺🇸', names: { pt: 'Inglês', en: 'English' } },
  es: { flag: '🇪🇸', names: { pt: 'Espanhol', en: 'Spanish' } },
  fr: { flag: '🇫🇷', names: { pt: 'Francês', en: 'French' } },
  de: { flag: '🇩🇪', names: { pt: 'Alemão', en: 'German' } },
  it: { flag: '🇮🇹', names: { pt: 'Italiano', en: 'Italian' } },
  ja: { flag: '🇯🇵', names: { pt: 'Japonês', en: 'Japanese' } },
  ko: { flag: '🇰🇷', names: { pt: 'Coreano', en: 'Korean' } },
  zh: { flag: '🇨🇳', names: { pt: 'Chinês', en: 'Chinese' } },
  ru: { flag: '🇷🇺', names: { pt: 'Russo', en: 'Russian' } },
  ar: { flag: '🇸🇦', names: { pt: 'Árabe', en: 'Arabic' } },
  hi: { flag: '🇮🇳', names: { pt: 'Hindi', en: 'Hindi' } },
  tr: { flag: '🇹🇷', names: { pt: 'Turco', en: 'Turkish' } },
  nl: { flag: '🇳🇱', names: { pt: 'Holandês', en: 'Dutch' } },
  sv: { flag: '🇸🇪', names: { pt: 'Sueco', en: 'Swedish' } },
  no: { flag: '🇳🇴', names: { pt: 'Norueguês', en: 'Norwegian' } },
  da: { flag: '🇩🇰', names: { pt: 'Dinamarquês', en: 'Danish' } },
  fi: { flag: '🇫🇮', names: { pt: 'Finlandês', en: 'Finnish' } },
  pl: { flag: '🇵🇱', names: { pt: 'Polonês', en: 'Polish' } },
  cs: { flag: '🇨🇿', names: { pt: 'Tcheco', en: 'Czech' } },
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

/** The language's flag emoji; none for an unknown code. */
export function languageFlag(code: string): string {
  return isLanguageCode(code) ? TABLE[code].flag : '';
}

/** The supported languages not in `present`, in display order (the "add language" menu). */
export function missingLanguages(present: readonly string[]): LanguageCode[] {
  return LANGUAGE_CODES.filter((code) => !present.includes(code));
}
