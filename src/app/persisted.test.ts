import { readPersistedState } from './persisted';

/** What redux-persist wrote (the format this module keeps), as a browser may still hold it. */
function storeAsReduxPersist(key: string, fields: Record<string, unknown>) {
  const outer = Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, JSON.stringify(value)]));
  window.localStorage.setItem(
    `persist:${key}`,
    JSON.stringify({ ...outer, _persist: JSON.stringify({ version: -1, rehydrated: true }) }),
  );
}

describe('readPersistedState', () => {
  it('is empty on a first visit', () => {
    expect(readPersistedState()).toEqual({});
  });

  it('reads a session and preferences stored by earlier versions (redux-persist)', () => {
    storeAsReduxPersist('auth', { token: 'abc' });
    storeAsReduxPersist('preferences', { theme: 'light', language: 'pt' });
    expect(readPersistedState()).toEqual({ auth: { token: 'abc' }, preferences: { theme: 'light', language: 'pt' } });
  });

  it('keeps only well-formed values', () => {
    storeAsReduxPersist('auth', { token: null });
    storeAsReduxPersist('preferences', { theme: 'sepia', language: 'pt' });
    expect(readPersistedState()).toEqual({ preferences: { language: 'pt' } });

    window.localStorage.setItem('persist:preferences', '{not json');
    window.localStorage.setItem('persist:auth', JSON.stringify({ token: '{not json' }));
    expect(readPersistedState()).toEqual({});
  });

  it('reads nothing when storage is blocked', () => {
    storeAsReduxPersist('auth', { token: 'abc' });
    const blocked = {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
    } as unknown as Storage;
    expect(readPersistedState(blocked)).toEqual({});
  });
});
