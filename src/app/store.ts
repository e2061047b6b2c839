import { combineReducers, configureStore, type Middleware } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import {
  FLUSH,
  PAUSE,
  PERSIST,
  persistReducer,
  persistStore,
  PURGE,
  REGISTER,
  REHYDRATE,
  type PersistConfig,
} from 'redux-persist';
import storage from 'redux-persist/lib/storage';
import { api, authSlice, initialAuthState, loggedOut, logQueryFailures, sessionEnded, TAG_TYPES, type AuthState } from '../api';
import {
  initialPreferences,
  languageChanged,
  languageToggled,
  preferencesSlice,
  type PreferencesState,
} from './preferencesSlice';

/**
 * The session (the token) and the interface preferences, plus the api slice's cache. redux-persist
 * keeps the token, the theme and the language in localStorage ("persist:auth",
 * "persist:preferences"); nothing else, never the api cache (server state). There is no
 * PersistGate: app/persisted.ts reads the same keys synchronously at start, so the store is made
 * with them already in and the first render is the right screen (no blank frame while
 * redux-persist rehydrates, which then only confirms the same values).
 */
export const authPersistConfig: PersistConfig<AuthState> = { key: 'auth', storage, whitelist: ['token'] };
export const preferencesPersistConfig: PersistConfig<PreferencesState> = {
  key: 'preferences',
  storage,
  whitelist: ['theme', 'language'],
};

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  [authSlice.name]: persistReducer(authPersistConfig, authSlice.reducer),
  [preferencesSlice.name]: persistReducer(preferencesPersistConfig, preferencesSlice.reducer),
});

export type RootState = ReturnType<typeof rootReducer>;

/** What the store starts with: what was persisted at start-up, and anything in tests. */
export interface PreloadedState {
  auth?: Partial<AuthState>;
  preferences?: Partial<PreferencesState>;
}

export interface StoreOptions {
  /** Called when a sign-in or a sign-up is sent (index.tsx fetches the signed-in screens then). */
  onSignInStarted?: () => void;
  /** Called when the store gets a session it did not have (index.tsx starts the home screen's calls). */
  onSignedIn?: () => void;
}

/**
 * Signing out or losing the session drops every cached answer of the previous user. A language
 * switch asks again for every answer on screen (and drops the others): the server writes some
 * text in the caller's language (a run's error, a publication's failure, a warning, an error
 * answer), and it must follow the switch. (A plain middleware: RTK's listener middleware would add
 * 4 KB to the first load for these rules.)
 */
function storeEvents({ onSignInStarted, onSignedIn }: StoreOptions): Middleware {
  return (store) => (next) => (action) => {
    if (onSignInStarted && (api.endpoints.login.matchPending(action) || api.endpoints.register.matchPending(action))) {
      onSignInStarted();
    }
    const before = store.getState() as RootState;
    const languageBefore = before.preferences.language;
    const result = next(action);
    if (onSignedIn && !before.auth.token && (store.getState() as RootState).auth.token) onSignedIn();
    if (loggedOut.match(action) || sessionEnded.match(action)) store.dispatch(api.util.resetApiState());
    if (
      (languageToggled.match(action) || languageChanged.match(action)) &&
      (store.getState() as RootState).preferences.language !== languageBefore
    ) {
      store.dispatch(api.util.invalidateTags([...TAG_TYPES]));
    }
    return result;
  };
}

export function makeStore(preloaded?: PreloadedState, options: StoreOptions = {}) {
  const preloadedState = preloaded
    ? ({
        auth: { ...initialAuthState, ...preloaded.auth },
        preferences: { ...initialPreferences(), ...preloaded.preferences },
      } as Partial<RootState>)
    : undefined;
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    devTools: process.env.NODE_ENV !== 'production',
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        // redux-persist's own actions carry functions (register, rehydrate callbacks).
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      })
        .prepend(storeEvents(options))
        // Failed queries are logged here, once each, not by every screen that shows them.
        .concat(api.middleware, logQueryFailures),
  });
  // refetchOnFocus / refetchOnReconnect support.
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;

/** Starts redux-persist: the persisted keys are written whenever the token, theme or language change. */
export function startPersisting(store: AppStore) {
  return persistStore(store);
}
export type AppDispatch = AppStore['dispatch'];
