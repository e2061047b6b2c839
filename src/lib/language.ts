/** The interface languages and how the first visit picks one. */
export const LANGUAGES = ['pt', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Locale used for dates and money in each interface language. */
export const LOCALE_OF: Record<Language, string> = { pt: 'pt-BR', en: 'en-US' };

/** Portuguese when the browser language starts with "pt", English otherwise. */
export function detectLanguage(browserLanguage: string | undefined = globalThis.navigator?.language): Language {
  return browserLanguage?.toLowerCase().startsWith('pt') ? 'pt' : 'en';
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
