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
  /**
   * Imports their chunks and translations; settles when they are in (or one of them failed). Called
   * at once, unless the page came with them preloaded (see `chunksPreloaded`): then boot calls it.
   */
  ready(): Promise<void>;
}

/**
 * Whether the page came with its screen's files already on their way (`<link rel="preload">`: the
 * prerendered /login and /signup, webpack.config.js). Importing them is then left to boot, after
 * the entry chunk's steps (index.tsx): imported now, the screen's module would be evaluated as
 * soon as its chunk arrived, together with every module of the entry chunk it uses that the steps
 * had not reached yet, in one long task (on a phone's CPU, half a second).
 */
function chunksPreloaded(): boolean {
  return document.querySelector('link[rel="preload"][as="script"]') !== null;
}

function start(): Startup {
  const persisted = readPersistedState();
  const signedIn = persisted.auth?.token !== undefined;
  const language = persisted.preferences?.language ?? detectLanguage();
  const common = loadNamespace(language, 'common') as Promise<Resources['common']>;
  const pages = pagesAt(window.location.pathname, signedIn);
  let loading: Promise<void> | undefined;
  const ready = () => {
    loading ??= preloadPages(pages, language);
    return loading;
  };
  // (Signed in, the page's preloaded screen is not the one shown.)
  if (signedIn || !chunksPreloaded()) void ready().catch(() => undefined);
  // Whoever waits for it handles a failure (the app renders anyway, and tries again).
  common.catch(() => undefined);
  return { persisted, signedIn, language, common, pages, ready };
}

export const startup = start();
