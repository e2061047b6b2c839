import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { detectLanguage, type Language } from '../lib/language';

export type ThemeMode = 'dark' | 'light';

/** Interface preferences, persisted (key "preferences"): theme and language. */
export interface PreferencesState {
  theme: ThemeMode;
  language: Language;
}

/** Dark by default; the language of a first visit follows the browser (pt or en). */
export function initialPreferences(): PreferencesState {
  return { theme: 'dark', language: detectLanguage() };
}

export const preferencesSlice = createSlice({
  name: 'preferences',
  initialState: initialPreferences,
  reducers: {
    themeToggled(state) {
      state.theme = state.theme === 'dark' ? 'light' : 'dark';
    },
    themeChanged(state, action: PayloadAction<ThemeMode>) {
      state.theme = action.payload;
    },
    languageToggled(state) {
      state.language = state.language === 'pt' ? 'en' : 'pt';
    },
    languageChanged(state, action: PayloadAction<Language>) {
      state.language = action.payload;
    },
  },
  selectors: {
    selectTheme: (state) => state.theme,
    selectLanguage: (state) => state.language,
  },
});

export const { themeToggled, themeChanged, languageToggled, languageChanged } = preferencesSlice.actions;
export const { selectTheme, selectLanguage } = preferencesSlice.selectors;
