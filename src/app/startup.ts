/**
 * The first thing the entry chunk runs (index.tsx imports it before anything else): it reads what
 * was persisted (session, theme, language) and starts fetching the translations and the chunks of
 * the address being opened, so that they download while the rest of the entry chunk (React,
 * Material UI...) is still being evaluated, instead of after it.
 */
import { detectLanguage, type Language } from '../lib/language';
import { loadNamespace } from './locales';
import { pagesAt, preloadPages, type Page } from './pages';
import { readPersistedState } from './persisted';
import type { Resources } from './resources';
import type { PreloadedState } from './store';

export interface Startup {
  /** The persisted session and preferences: the store's first state. */
  persisted: PreloadedState;
  signedIn: boolean;
  /** The interface language of the first screen. */
  language: Language;
  /** The `common` translations in that language. */
  common: Promise<Resources['common']>;
  /** The screens the opened address shows (see pagesAt). */
  pages: Page[];
  /** Settles when their chunks and translations are in (or one of them failed). */
  ready: Promise<void>;
}

function start(): Startup {
  const persisted = readPersistedState();
  const signedIn = persisted.auth?.token !== undefined;
  const language = persisted.preferences?.language ?? detectLanguage();
  const common = loadNamespace(language, 'common') as Promise<Resources['common']>;
  const pages = pagesAt(window.location.pathname, signedIn);
  const ready = preloadPages(pages, language);
  // Whoever waits for these handles a failure (the app renders anyway, and tries again).
  common.catch(() => undefined);
  ready.catch(() => undefined);
  return { persisted, signedIn, language, common, pages, ready };
}

export const startup = start();
