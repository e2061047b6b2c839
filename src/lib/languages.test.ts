import { isLanguageCode, LANGUAGE_CODES, LANGUAGES_INFO, languageName, missingLanguages } from './languages';

describe('prompt languages (spec §3)', () => {
  it('has the server’s 20 codes (apiEnums.gen.ts), Portuguese and English first, each with two names', () => {
    expect(LANGUAGE_CODES).toHaveLength(20);
    expect(LANGUAGE_CODES.slice(0, 2)).toEqual(['pt', 'en']);
    expect(LANGUAGES_INFO.map((info) => info.code)).toEqual([...LANGUAGE_CODES]);
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
