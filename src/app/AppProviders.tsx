import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import type { i18n as I18n } from 'i18next';
import { useEffect, useLayoutEffect, useMemo, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { useAppSelector } from './hooks';
import { rememberView } from '../lib/prerendered';
import { HTML_LANG } from './i18n';
import { selectLanguage, selectTheme } from './preferencesSlice';
import type { AppStore } from './store';
import { createAppTheme } from './theme';

/** Keeps i18next and `<html lang>` on the store's language. */
function LanguageSync({ i18n }: { i18n: I18n }) {
  const language = useAppSelector(selectLanguage);
  // A layout effect: the new language is in place before the browser paints.
  useLayoutEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
    document.documentElement.lang = HTML_LANG[language];
  }, [i18n, language]);
  return null;
}

/** The theme of the store's choice; `<html data-theme>` follows (public/index.html reads it). */
function Themed({ children }: { children: ReactNode }) {
  const mode = useAppSelector(selectTheme);
  const theme = useMemo(() => createAppTheme(mode), [mode]);
  useLayoutEffect(() => {
    document.documentElement.dataset.theme = mode;
  }, [mode]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
    </ThemeProvider>
  );
}

/** Keeps the view cookie (which prerendered page the server sends: lib/prerendered.ts) on the store's choice. */
function ViewCookie() {
  const language = useAppSelector(selectLanguage);
  const mode = useAppSelector(selectTheme);
  useEffect(() => rememberView(language, mode), [language, mode]);
  return null;
}

/** Store, translations and theme: what every screen needs (the app and the tests share it). */
export function AppProviders({ store, i18n, children }: { store: AppStore; i18n: I18n; children: ReactNode }) {
  return (
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <LanguageSync i18n={i18n} />
        <ViewCookie />
        <Themed>{children}</Themed>
      </I18nextProvider>
    </Provider>
  );
}
