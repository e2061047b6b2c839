/**
 * Every screen of the route table (router.tsx) as a lazily loaded chunk, with the translation
 * namespaces it needs besides `common`, and which screens an address shows. Kept apart from the
 * route table and free of runtime imports so that app/startup.ts can start fetching the opened
 * address's chunks before anything else of the entry chunk runs.
 *
 * To add a screen: a `page(...)` in the right group below (the path is the key), its namespace
 * file in locales/{pt,en}/ (listed in resources.ts); router.tsx renders every group.
 */
import type { ComponentType } from 'react';
import type { Language } from '../lib/language';
import { loadNamespace } from './locales';
import type { Namespace } from './resources';
import type { AppDispatch } from './store';

/**
 * Starts the calls a screen makes when it opens (RTK Query's prefetch, with the arguments its own
 * hooks use), so that they run while the screen is still being rendered. A screen's module may
 * export one as `prefetch`.
 */
export type Prefetch = (dispatch: AppDispatch) => void;

interface ScreenModule {
  default: ComponentType;
  prefetch?: Prefetch;
}

export interface Page {
  /** Fetches the screen's chunk; once: later calls answer the same promise. */
  load(): Promise<ScreenModule>;
  /** The screen's component, once its chunk is in. */
  component?: ComponentType;
  /** The screen's prefetch, once its chunk is in (when it has one). */
  prefetch?: Prefetch;
  /** Translation namespaces the screen uses besides `common`. */
  namespaces: Namespace[];
}

function page(load: () => Promise<ScreenModule>, namespaces: Namespace[] = []): Page {
  let loading: Promise<ScreenModule> | undefined;
  const result: Page = {
    namespaces,
    load() {
      if (!loading) {
        loading = load().then((module) => {
          result.component = module.default;
          result.prefetch = module.prefetch;
          return module;
        });
        // A failed fetch (network) is tried again by the next visit of the screen.
        loading.catch(() => {
          loading = undefined;
        });
      }
      return loading;
    },
  };
  return result;
}

/** Signed-out screens, in the brand frame; a signed-in visitor is sent to the dashboard. */
export const SIGNED_OUT_PAGES = {
  login: page(() => import(/* webpackChunkName: "login" */ '../features/auth/LoginPage'), ['auth']),
  signup: page(() => import(/* webpackChunkName: "signup" */ '../features/auth/SignUpPage'), ['auth']),
  'forgot-password': page(
    () => import(/* webpackChunkName: "forgot-password" */ '../features/auth/ForgotPasswordPage'),
    ['auth'],
  ),
};

/** Screens for anybody, signed in or not (they are opened from emailed links), in the brand frame. */
export const OPEN_PAGES = {
  'reset-password': page(() => import(/* webpackChunkName: "reset-password" */ '../features/auth/ResetPasswordPage'), ['auth']),
  'verify-email': page(() => import(/* webpackChunkName: "verify-email" */ '../features/auth/VerifyEmailPage'), ['auth']),
};

/** The frame of every signed-in screen: sidebar, top bar. */
export const SIGNED_IN_LAYOUT = page(() => import(/* webpackChunkName: "layout" */ './layout/SignedInLayout'));

/** Signed-in screens, inside the signed-in layout, in the sidebar's order. */
export const SIGNED_IN_PAGES = {
  dashboard: page(() => import(/* webpackChunkName: "dashboard" */ '../features/dashboard/DashboardPage'), ['dashboard']),
  processes: page(() => import(/* webpackChunkName: "processes" */ '../features/processes/ProcessesPage'), ['processes']),
  channels: page(() => import(/* webpackChunkName: "channels" */ '../features/channels/ChannelsPage'), ['channels']),
  prompts: page(() => import(/* webpackChunkName: "prompts" */ '../features/prompts/PromptsPage'), ['prompts']),
  voices: page(() => import(/* webpackChunkName: "voices" */ '../features/voices/VoicesPage'), ['voices']),
  history: page(() => import(/* webpackChunkName: "history" */ '../features/history/HistoryPage'), ['history']),
  subscription: page(
    () => import(/* webpackChunkName: "subscription" */ '../features/subscription/SubscriptionPage'),
    ['subscription'],
  ),
  settings: page(() => import(/* webpackChunkName: "settings" */ '../features/settings/SettingsPage'), ['settings']),
};

/** Any other address of a signed-in visitor. */
export const NOT_FOUND_PAGE = page(() => import(/* webpackChunkName: "layout" */ './NotFoundPage'));

/** Where a signed-in visitor lands. */
export const HOME_PATH = '/dashboard';

function pageAt<T extends Record<string, Page>>(pages: T, path: string): Page | undefined {
  return Object.hasOwn(pages, path) ? pages[path as keyof T] : undefined;
}

/**
 * The screens `pathname` shows (what the guards of router.tsx decide): a signed-out visitor of a
 * signed-in address gets the login screen, a signed-in visitor of a signed-out one the dashboard.
 */
export function pagesAt(pathname: string, signedIn: boolean): Page[] {
  const path = pathname.replace(/^\/+|\/+$/g, '');
  const open = pageAt(OPEN_PAGES, path);
  if (open) return [open];
  const signedOut = pageAt(SIGNED_OUT_PAGES, path);
  if (!signedIn) return [signedOut ?? SIGNED_OUT_PAGES.login];
  if (signedOut || path === '') return [SIGNED_IN_LAYOUT, SIGNED_IN_PAGES.dashboard];
  return [SIGNED_IN_LAYOUT, pageAt(SIGNED_IN_PAGES, path) ?? NOT_FOUND_PAGE];
}

/**
 * Starts loading `pages` in `language`: their chunks and their namespaces, all at once (outside
 * React: the start-up, a sign-in under way). Settles when all are in or one failed.
 */
export function preloadPages(pages: Page[], language: Language): Promise<void> {
  const loads = pages.flatMap((page) => [page.load(), ...page.namespaces.map((namespace) => loadNamespace(language, namespace))]);
  return Promise.all(loads).then(() => undefined);
}
