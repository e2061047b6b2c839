import { render, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, useLocation, type InitialEntry } from 'react-router-dom';
import { AppProviders } from '../app/AppProviders';
import { createI18n } from '../app/i18n';
import { resources } from '../app/resources';
import { makeStore, type AppStore, type PreloadedState } from '../app/store';
import type { Language } from '../lib/language';

export interface ProviderOptions extends Omit<RenderOptions, 'wrapper' | 'queries'> {
  /** Preloaded session and preferences; the language defaults to English. */
  preloadedState?: PreloadedState;
  store?: AppStore;
  /** MemoryRouter's entries; defaults to ['/']. */
  initialEntries?: InitialEntry[];
}

let currentLocation = { pathname: '/', search: '', hash: '', state: null as unknown };

/** Records where the router is, so tests can assert navigation. */
function LocationProbe() {
  const location = useLocation();
  currentLocation = location;
  return null;
}

/** The router's current location in the last render of renderWithProviders. */
export function testLocation() {
  return currentLocation;
}

/**
 * Renders `ui` inside the app's providers (store, i18n, theme) and a MemoryRouter.
 * Returns Testing Library's queries plus the store, a userEvent instance and the i18n instance.
 */
export function renderWithProviders(ui: ReactElement, options: ProviderOptions = {}) {
  const { preloadedState = {}, initialEntries = ['/'], ...renderOptions } = options;
  const preferences = { language: 'en' as Language, ...preloadedState.preferences };
  const store = options.store ?? makeStore({ ...preloadedState, preferences });
  // Every translation at once (the app loads them per screen: app/locales.ts).
  const i18n = createI18n(store.getState().preferences.language, resources);
  const user = userEvent.setup();

  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <AppProviders store={store} i18n={i18n}>
        <MemoryRouter initialEntries={initialEntries} useTransitions={false}>
          <LocationProbe />
          {children}
        </MemoryRouter>
      </AppProviders>
    );
  }

  return { store, user, i18n, ...render(ui, { wrapper: Wrapper, ...renderOptions }) };
}
