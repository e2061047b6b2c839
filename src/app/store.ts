import { combineReducers, configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { FLUSH, PAUSE, PERSIST, persistReducer, PURGE, REGISTER, REHYDRATE, type PersistConfig } from 'redux-persist';
import storage from 'redux-persist/lib/storage';
import { api, authSlice, initialAuthState, loggedOut, sessionEnded, type AuthState } from '../api';
import { initialPreferences, preferencesSlice, type PreferencesState } from './preferencesSlice';

/**
 * Only the token, the theme and the language are persisted (localStorage keys "persist:auth" and
 * "persist:preferences"). The api slice is server state and is never persisted.
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

/** What tests (and nothing else) preload: any part of the session and the preferences. */
export interface PreloadedState {
  auth?: Partial<AuthState>;
  preferences?: Partial<PreferencesState>;
}

/** Signing out or losing the session drops every cached answer of the previous user. */
function sessionListener() {
  const listener = createListenerMiddleware();
  listener.startListening({
    matcher: isAnyOf(loggedOut, sessionEnded),
    effect: (_action, { dispatch }) => {
      dispatch(api.util.resetApiState());
    },
  });
  return listener;
}

export function makeStore(preloaded?: PreloadedState) {
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
        .prepend(sessionListener().middleware)
        .concat(api.middleware),
  });
  // refetchOnFocus / refetchOnReconnect support.
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
