import { api, tokenReceived } from '../api';
import { waitFor } from '@testing-library/react';
import { authResult, processFixture, testUser } from '../testing/fixtures';
import { mockApi, reply } from '../testing/mockApi';
import { readPersistedState } from './persisted';
import { languageChanged, themeToggled } from './preferencesSlice';
import { makeStore, startPersisting } from './store';

type Persistor = ReturnType<typeof startPersisting>;
const persistors: Persistor[] = [];

/** Starts redux-persist on `store` and waits until it has read the storage (it only writes after that). */
async function persisting(store: Parameters<typeof startPersisting>[0]): Promise<Persistor> {
  const persistor = startPersisting(store);
  persistors.push(persistor);
  await new Promise<void>((resolve) => {
    if (persistor.getState().bootstrapped) return resolve();
    const stop = persistor.subscribe(() => {
      if (persistor.getState().bootstrapped) {
        stop();
        resolve();
      }
    });
  });
  return persistor;
}

/** Lets redux-persist write what changed. */
const flushed = async (persistor: Persistor) => {
  await persistor.flush();
  await new Promise((resolve) => setTimeout(resolve, 0));
};

afterEach(() => {
  // A persistor left running would write into the next test's storage.
  for (const persistor of persistors.splice(0)) persistor.pause();
});

function stored(key: string): Record<string, unknown> | null {
  const raw = window.localStorage.getItem(`persist:${key}`);
  if (raw === null) return null;
  const outer = JSON.parse(raw) as Record<string, string>;
  // Each field is stored JSON-encoded inside the outer object (redux-persist's format).
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
    const persistor = await persisting(store);

    store.dispatch(tokenReceived('secret-token'));
    store.dispatch(themeToggled());
    store.dispatch(languageChanged('pt'));
    await store.dispatch(api.endpoints.me.initiate());
    await flushed(persistor);

    expect(stored('auth')).toEqual({ token: 'secret-token', _persist: expect.any(Object) });
    expect(stored('preferences')).toEqual({ theme: 'light', language: 'pt', _persist: expect.any(Object) });
    const keys = Object.keys(window.localStorage);
    expect(keys.sort()).toEqual(['persist:auth', 'persist:preferences']);
    expect(JSON.stringify(window.localStorage)).not.toContain(testUser.email);
  });

  it('restores the persisted token and preferences on start-up', async () => {
    const first = makeStore();
    const persistor = await persisting(first);
    first.dispatch(tokenReceived('kept'));
    first.dispatch(themeToggled());
    await flushed(persistor);

    const second = makeStore(readPersistedState());

    expect(second.getState().auth.token).toBe('kept');
    expect(second.getState().preferences.theme).toBe('light');
  });

  it('forgets the token on sign-out', async () => {
    const store = makeStore({ auth: { token: 'old' } });
    const persistor = await persisting(store);
    store.dispatch({ type: 'auth/loggedOut', payload: { accountDeleted: false } });
    await flushed(persistor);

    expect(stored('auth')).toEqual({ token: null, _persist: expect.any(Object) });
    expect(readPersistedState().auth).toBeUndefined();
  });
});

describe('onSignInStarted', () => {
  it('is called as a sign-in or a sign-up is sent, not for other calls', async () => {
    mockApi({
      'POST /auth/login': reply(401, { detail: 'Invalid credentials' }),
      'POST /auth/register': reply(409, { detail: 'taken' }),
      'GET /auth/me': reply(200, testUser),
    });
    const onSignInStarted = jest.fn();
    const store = makeStore({ auth: { token: 't' } }, { onSignInStarted });

    await store.dispatch(api.endpoints.me.initiate());
    expect(onSignInStarted).not.toHaveBeenCalled();

    await store.dispatch(api.endpoints.login.initiate({ email: 'ana@example.com', password: 'x' }));
    await store.dispatch(
      api.endpoints.register.initiate({
        name: 'Ana',
        email: 'ana@example.com',
        password: 'secret',
        plan: 'monthly',
        time_zone: 'UTC',
      }),
    );
    expect(onSignInStarted).toHaveBeenCalledTimes(2);
  });
});

describe('onSignedIn', () => {
  it('is called once the session is in the store, and not for a failed sign-in or a later token', async () => {
    let tokenWhenCalled: string | null = 'not called';
    mockApi({
      'POST /auth/login': (request) =>
        (request.body as { password?: string }).password === 'right'
          ? reply(200, authResult(testUser, 'session-1'))
          : reply(401, { detail: 'Invalid credentials' }),
    });
    const onSignedIn = jest.fn(() => {
      tokenWhenCalled = store.getState().auth.token;
    });
    const store = makeStore({}, { onSignedIn });

    await store.dispatch(api.endpoints.login.initiate({ email: 'ana@example.com', password: 'wrong' }));
    expect(onSignedIn).not.toHaveBeenCalled();

    await store.dispatch(api.endpoints.login.initiate({ email: 'ana@example.com', password: 'right' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1));
    expect(tokenWhenCalled).toBe('session-1');

    await store.dispatch(api.endpoints.login.initiate({ email: 'ana@example.com', password: 'right' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onSignedIn).toHaveBeenCalledTimes(1);
  });
});

describe('a language switch', () => {
  const errorIn = (language: string | null) => (language === 'pt' ? 'A chave da API foi recusada' : 'The API key was refused');

  it('asks again, in the new language, for every answer on screen and drops the others', async () => {
    const server = mockApi({
      'GET /processes/': (request) =>
        reply(200, {
          processes: [processFixture({ status: 'error', last_error: errorIn(request.headers.get('accept-language')) })],
          total: 1,
        }),
      'GET /channels/': (request) => reply(503, { detail: errorIn(request.headers.get('accept-language')) }),
      'GET /auth/me': reply(200, testUser),
    });
    const store = makeStore({ auth: { token: 't' }, preferences: { language: 'en' } });
    const processes = store.dispatch(api.endpoints.getProcesses.initiate());
    const channels = store.dispatch(api.endpoints.listChannels.initiate());
    await processes;
    await channels;
    // Read once and no longer on screen: dropped by the switch, not fetched again.
    await store.dispatch(api.endpoints.me.initiate(undefined, { subscribe: false }));
    expect(api.endpoints.getProcesses.select()(store.getState()).data?.processes[0].last_error).toBe('The API key was refused');

    store.dispatch(languageChanged('pt'));
    await waitForCalls(() => server.calls('GET /processes/').length === 2 && server.calls('GET /channels/').length === 2);

    expect(server.calls('GET /processes/')[1].headers.get('accept-language')).toBe('pt');
    expect(api.endpoints.getProcesses.select()(store.getState()).data?.processes[0].last_error).toBe(
      'A chave da API foi recusada',
    );
    expect(api.endpoints.listChannels.select()(store.getState()).error).toMatchObject({
      message: 'A chave da API foi recusada',
    });
    expect(server.calls('GET /auth/me')).toHaveLength(1);
    expect(api.endpoints.me.select()(store.getState()).status).toBe('uninitialized');
    processes.unsubscribe();
    channels.unsubscribe();
  });

  it('asks for nothing when the language stays the same', async () => {
    const server = mockApi({ 'GET /processes/': reply(200, { processes: [], total: 0 }) });
    const store = makeStore({ auth: { token: 't' }, preferences: { language: 'pt' } });
    const processes = store.dispatch(api.endpoints.getProcesses.initiate());
    await processes;
    store.dispatch(languageChanged('pt'));
    store.dispatch(themeToggled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.calls('GET /processes/')).toHaveLength(1);
    processes.unsubscribe();
  });
});

async function waitForCalls(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  // Let the answers reach the store.
  await new Promise((resolve) => setTimeout(resolve, 20));
}
