import { persistStore, type Persistor } from 'redux-persist';
import { api, tokenReceived } from '../api';
import { testUser } from '../testing/fixtures';
import { mockApi, reply } from '../testing/mockApi';
import { languageChanged, themeToggled } from './preferencesSlice';
import { makeStore } from './store';

/** Resolves once redux-persist has rehydrated the store. */
function rehydrated(persistor: Persistor): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (persistor.getState().bootstrapped) {
        unsubscribe();
        resolve();
      }
    };
    const unsubscribe = persistor.subscribe(check);
    check();
  });
}

function stored(key: string): Record<string, unknown> | null {
  const raw = window.localStorage.getItem(`persist:${key}`);
  if (raw === null) return null;
  const outer = JSON.parse(raw) as Record<string, string>;
  // redux-persist stores each key JSON-encoded inside the outer object.
  return Object.fromEntries(Object.entries(outer).map(([k, v]) => [k, JSON.parse(v)]));
}

describe('makeStore', () => {
  it('starts signed out, in the dark theme', () => {
    const store = makeStore();
    expect(store.getState().auth.token).toBeNull();
    expect(store.getState().preferences.theme).toBe('dark');
  });

  it('accepts a partial preloaded state', () => {
    const store = makeStore({ auth: { token: 't' }, preferences: { language: 'pt' } });
    expect(store.getState().auth).toMatchObject({ token: 't', ended: false });
    expect(store.getState().preferences).toMatchObject({ theme: 'dark', language: 'pt' });
  });

  it('persists only the token, the theme and the language, never the api cache', async () => {
    mockApi({ 'GET /auth/me': reply(200, testUser) });
    const store = makeStore({ preferences: { language: 'en' } });
    const persistor = persistStore(store);
    await rehydrated(persistor);

    store.dispatch(tokenReceived('secret-token'));
    store.dispatch(themeToggled());
    store.dispatch(languageChanged('pt'));
    await store.dispatch(api.endpoints.me.initiate());
    await persistor.flush();

    expect(stored('auth')).toEqual({ token: 'secret-token', _persist: expect.any(Object) });
    expect(stored('preferences')).toEqual({ theme: 'light', language: 'pt', _persist: expect.any(Object) });
    const keys = Object.keys(window.localStorage);
    expect(keys.sort()).toEqual(['persist:auth', 'persist:preferences']);
    expect(JSON.stringify(window.localStorage)).not.toContain(testUser.email);
  });

  it('restores the persisted token and preferences on start-up', async () => {
    const first = makeStore();
    const firstPersistor = persistStore(first);
    await rehydrated(firstPersistor);
    first.dispatch(tokenReceived('kept'));
    first.dispatch(themeToggled());
    await firstPersistor.flush();

    const second = makeStore();
    await rehydrated(persistStore(second));

    expect(second.getState().auth.token).toBe('kept');
    expect(second.getState().preferences.theme).toBe('light');
  });
});
