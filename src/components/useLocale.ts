import { useTranslation } from 'react-i18next';
import { isLanguage, LOCALE_OF } from '../lib/language';

/** The locale of the interface language ("pt-BR" or "en-US"), for dates and numbers. */
export function useLocale(): string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return LOCALE_OF[isLanguage(language) ? language : 'en'];
}
