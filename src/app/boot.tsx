/**
 * The app's start, after app/startup.ts (index.tsx runs it in a task of its own): makes the store
 * and i18next, and renders the first screen.
 */
import type { i18n as I18n } from 'i18next';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createI18n } from './i18n';
import { loadNamespace, type Translations } from './locales';
import { HOME_PATH, pagesAt, preloadPages } from './pages';
import type { Startup } from './startup';
import { makeStore, startPersisting } from './store';

export function boot(startup: Startup): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');

  const { persisted, language, signedIn } = startup;
  /** The app's i18next instance, once start() made it. */
  let appI18n: I18n | undefined;
  const store = makeStore(
    { ...persisted, preferences: { ...persisted.preferences, language } },
    {
      // While the server checks the password (most of a sign-in's time), fetch the signed-in layout
      // and the dashboard, and put their translations in i18next: only then, so that the login screen
      // itself downloads nothing it does not show. With the translations in, the dashboard's first
      // render does not suspend, so React does not hold it back behind its 300 ms fallback throttle.
      // (In the next task: the sign-in request leaves first.)
      onSignInStarted: () =>
        setTimeout(() => {
          const pages = pagesAt(HOME_PATH, true);
          void preloadPages(pages, store.getState().preferences.language).catch(() => undefined);
          void appI18n?.loadNamespaces(pages.flatMap((page) => page.namespaces)).catch(() => undefined);
        }),
      // Signed in: the home screen's calls start now, while React renders it, not after.
      onSignedIn: () => {
        for (const page of pagesAt(HOME_PATH, true)) {
          void page
            .load()
            .then((module) => module.prefetch?.(store.dispatch))
            .catch(() => undefined);
        }
      },
    },
  );
  // redux-persist writes the token, theme and language to localStorage whenever they change.
  startPersisting(store);

  function render(i18n: I18n) {
    const root = createRoot(container!);
    startTransition(() =>
      root.render(
        <StrictMode>
          <App store={store} i18n={i18n} />
        </StrictMode>,
      ),
    );
  }

  /**
   * The first render waits for the `common` translations, and when signed out for the screen's
   * chunk and translations too, so that it shows the whole screen at once: they have all been
   * downloading since the start (imported from here when the page preloads them: app/startup.ts).
   * Signed in, it does not wait for the screen: the session check
   * (GET /auth/me, behind a full-screen spinner) starts at once. If something failed, it renders
   * anyway, and the screen tries again.
   */
  async function start() {
    const common = await startup.common.catch(() => undefined);
    const translations: Translations = common ? { [language]: { common } } : {};
    const i18n = createI18n(language, translations, loadNamespace);
    appI18n = i18n;
    if (!signedIn) {
      await startup.ready().catch(() => undefined);
      await i18n.loadNamespaces(startup.pages.flatMap((page) => page.namespaces)).catch(() => undefined);
    }
    render(i18n);
  }

  return start();
}
