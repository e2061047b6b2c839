import { useTranslation } from 'react-i18next';
import { isLanguage, LOCALE_OF, type Language } from '../lib/language';

/** The interface language ("pt" or "en"), e.g. to name a prompt language in it. */
export function useInterfaceLanguage(): Language {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(language) ? language : 'en';
}

/** The locale of the interface language ("pt-BR" or "en-US"), for dates and numbers. */
export function useLocale(): string {
  return LOCALE_OF[useInterfaceLanguage()];
}
