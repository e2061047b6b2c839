import { BrowserRouter } from 'react-router-dom';
import { persistStore } from 'redux-persist';
import { PersistGate } from 'redux-persist/integration/react';
import { AppProviders } from './AppProviders';
import { i18n } from './i18n';
import { AppRoutes } from './router';
import { makeStore } from './store';

const store = makeStore();
const persistor = persistStore(store);

/** The web app: store (rehydrated from localStorage before the first screen), i18n, theme, routes. */
export function App() {
  return (
    <PersistGate
      persistor={persistor}
      loading={null}
      // The first screen already speaks the persisted language.
      onBeforeLift={() => i18n.changeLanguage(store.getState().preferences.language).then(() => undefined)}
    >
      <AppProviders store={store} i18n={i18n}>
        {/* Plain (non-transition) navigations: a navigation and a store update made in the same
            handler (sign-out: go to /login, clear the token) render together. */}
        <BrowserRouter useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </PersistGate>
  );
}
