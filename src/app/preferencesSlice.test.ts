import { initialPreferences, languageToggled, preferencesSlice, themeToggled } from './preferencesSlice';

const reducer = preferencesSlice.reducer;

function withBrowserLanguage(language: string, run: () => void) {
  const spy = jest.spyOn(window.navigator, 'language', 'get').mockReturnValue(language);
  try {
    run();
  } finally {
    spy.mockRestore();
  }
}

describe('preferences', () => {
  it('defaults to the dark theme', () => {
    expect(initialPreferences().theme).toBe('dark');
  });

  it('picks Portuguese on a first visit from a pt browser, English otherwise', () => {
    withBrowserLanguage('pt-BR', () => expect(initialPreferences().language).toBe('pt'));
    withBrowserLanguage('pt', () => expect(initialPreferences().language).toBe('pt'));
    withBrowserLanguage('en-US', () => expect(initialPreferences().language).toBe('en'));
    withBrowserLanguage('es-ES', () => expect(initialPreferences().language).toBe('en'));
  });

  it('toggles the theme and the language', () => {
    let state = reducer({ theme: 'dark', language: 'pt' }, themeToggled());
    expect(state.theme).toBe('light');
    state = reducer(state, themeToggled());
    expect(state.theme).toBe('dark');
    state = reducer(state, languageToggled());
    expect(state.language).toBe('en');
    state = reducer(state, languageToggled());
    expect(state.language).toBe('pt');
  });
});
