import type { i18n as I18n } from 'i18next';
import { useLayoutEffect } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { removePrerenderedStyles } from '../lib/prerendered';
import { AppProviders } from './AppProviders';
import { AppRoutes } from './router';
import type { AppStore } from './store';

/**
 * The web app: store, translations, theme, routes. Both are made by index.tsx, the store already
 * holding the persisted session and preferences, so the first render is the right screen.
 */
export function App({ store, i18n }: { store: AppStore; i18n: I18n }) {
  // The first commit has replaced a prerendered screen (/login), and the app's styles are in: the
  // rules that only served the prerendered card go before the browser paints again (lib/prerendered.ts).
  useLayoutEffect(removePrerenderedStyles, []);
  return (
    <AppProviders store={store} i18n={i18n}>
      {/* Plain (non-transition) navigations: a navigation and a store update made in the same
          handler (sign-out: go to /login, clear the token) render together. */}
      <BrowserRouter useTransitions={false}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
