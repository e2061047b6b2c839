import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { FullScreenSpinner, PageSpinner } from '../components';
import { PublicOnly, RequireAuth } from './guards';
import { AuthShell } from './layout/AuthShell';
import {
  HOME_PATH,
  NOT_FOUND_PAGE,
  OPEN_PAGES,
  pagesAt,
  SIGNED_IN_LAYOUT,
  SIGNED_IN_PAGES,
  SIGNED_OUT_PAGES,
  type Page,
} from './pages';

/**
 * One screen: rendered at once when its chunk and translations are in (the start-up fetched those
 * of the first screen, app/startup.ts); otherwise it fetches both in parallel and suspends, and the
 * nearest Suspense shows a spinner meanwhile.
 */
function Screen({ page }: { page: Page }) {
  if (!page.component) void page.load(); // the chunk starts before the translations suspend
  useTranslation(page.namespaces, { useSuspense: true });
  const Component = page.component ?? lazyScreen(page);
  return <Component />;
}

const lazyScreens = new WeakMap<Page, ComponentType>();

/** React.lazy over the page's own loader (the same promise, so one fetch). */
function lazyScreen(page: Page): ComponentType {
  let screen = lazyScreens.get(page);
  if (!screen) {
    screen = lazy(() => page.load());
    lazyScreens.set(page, screen);
  }
  return screen;
}

/** A signed-out screen: a spinner in place of the card while it loads. */
function CardScreen({ page }: { page: Page }) {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Screen page={page} />
    </Suspense>
  );
}

/**
 * The signed-in layout, a full-screen spinner while it loads. The screen inside it starts loading
 * at the same time (its own Suspense, in the layout, covers the rest of its wait).
 */
function SignedInFrame() {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  // Idempotent: each chunk and namespace is fetched once.
  for (const page of pagesAt(pathname, true)) {
    void page.load();
    if (page.namespaces.length > 0) void i18n.loadNamespaces(page.namespaces);
  }
  return (
    <Suspense fallback={<FullScreenSpinner label={t('loading')} />}>
      <Screen page={SIGNED_IN_LAYOUT} />
    </Suspense>
  );
}

function routesOf(pages: Record<string, Page>, wrap: (page: Page) => ReactNode = (page) => <Screen page={page} />) {
  return Object.entries(pages).map(([path, page]) => <Route key={path} path={path} element={wrap(page)} />);
}

/**
 * The route table of spec §2 (the screens themselves are listed in pages.ts):
 *   - in the brand frame (AuthShell): the signed-out screens (PublicOnly sends a signed-in visitor
 *     home) and the screens for anybody (reset-password, verify-email);
 *   - behind RequireAuth (a signed-out visitor goes to /login), in the signed-in layout: the index
 *     (to /dashboard), the sidebar's screens and a not-found screen for any other address.
 */
export function AppRoutes() {
  const card = (page: Page) => <CardScreen page={page} />;
  return (
    <Routes>
      <Route element={<AuthShell />}>
        <Route element={<PublicOnly />}>{routesOf(SIGNED_OUT_PAGES, card)}</Route>
        {routesOf(OPEN_PAGES, card)}
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<SignedInFrame />}>
          <Route index element={<Navigate to={HOME_PATH} replace />} />
          {routesOf(SIGNED_IN_PAGES)}
          <Route path="*" element={<Screen page={NOT_FOUND_PAGE} />} />
        </Route>
      </Route>
    </Routes>
  );
}
