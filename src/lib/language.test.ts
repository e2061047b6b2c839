import { detectLanguage, isLanguage } from './language';

describe('language', () => {
  it('is Portuguese only when the browser language starts with pt', () => {
    expect(detectLanguage('pt-BR')).toBe('pt');
    expect(detectLanguage('PT-pt')).toBe('pt');
    expect(detectLanguage('en-GB')).toBe('en');
    expect(detectLanguage('fr')).toBe('en');
    expect(detectLanguage(undefined)).toBe('en');
  });

  it('recognises the interface languages', () => {
    expect(isLanguage('pt')).toBe(true);
    expect(isLanguage('es')).toBe(false);
  });
});
