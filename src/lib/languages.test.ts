import { isLanguageCode, LANGUAGE_CODES, LANGUAGES_INFO, languageName, missingLanguages } from './languages';

describe('prompt languages (spec §3)', () => {
  it('has the 20 supported codes in the spec’s order, each with two names', () => {
    expect(LANGUAGE_CODES).toEqual([
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
    ]);
    for (const info of LANGUAGES_INFO) {
      expect(info.names.pt).not.toBe('');
      expect(info.names.en).not.toBe('');
    }
  });

  it('names a language in the interface language, and an unknown code as is', () => {
    expect(languageName('es', 'pt')).toBe('Espanhol');
    expect(languageName('es', 'en')).toBe('Spanish');
    expect(languageName('xx', 'en')).toBe('xx');
    expect(isLanguageCode('cs')).toBe(true);
    expect(isLanguageCode('pt-BR')).toBe(false);
  });

  it('lists the languages a prompt does not have yet', () => {
    const missing = missingLanguages(['pt', 'en']);
    expect(missing).toHaveLength(18);
    expect(missing[0]).toBe('es');
    expect(missingLanguages(LANGUAGE_CODES)).toEqual([]);
  });
});
