/**
 * What survives a reload: the token, the theme and the language, which redux-persist keeps in
 * localStorage (app/store.ts). This reads them back synchronously at start, so that the very first
 * render is already the right screen, in the right language and theme (no empty frame while the
 * store rehydrates). redux-persist's format:
 *   persist:auth         {"token":"\"<token>\"","_persist":"{...}"}
 *   persist:preferences  {"theme":"\"dark\"","language":"\"pt\"","_persist":"{...}"}
 * public/preferences.js reads the theme and language from there too, before anything paints.
 *
 * This module is evaluated first of all (app/startup.ts), so it imports nothing heavy.
 */
import { isLanguage } from '../lib/language';
import type { PreloadedState } from './store';

export const AUTH_KEY = 'persist:auth';
export const PREFERENCES_KEY = 'persist:preferences';

function localStorageIfAny(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    // Storage blocked by the browser's settings: nothing persisted.
    return undefined;
  }
}

/** One stored key's fields (each JSON-encoded inside the JSON object); unreadable means none. */
function readKey(storage: Storage | undefined, key: string): Record<string, unknown> {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return {};
    const outer = JSON.parse(raw) as unknown;
    if (outer === null || typeof outer !== 'object') return {};
    const fields: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(outer)) {
      if (field !== '_persist' && typeof value === 'string') fields[field] = JSON.parse(value);
    }
    return fields;
  } catch {
    return {};
  }
}

/** The persisted session and preferences, keeping only well-formed values. */
export function readPersistedState(storage: Storage | undefined = localStorageIfAny()): PreloadedState {
  const auth = readKey(storage, AUTH_KEY);
  const preferences = readKey(storage, PREFERENCES_KEY);
  const state: PreloadedState = {};
  if (typeof auth.token === 'string' && auth.token !== '') state.auth = { token: auth.token };
  const theme = preferences.theme === 'light' || preferences.theme === 'dark' ? preferences.theme : undefined;
  const language = isLanguage(preferences.language) ? preferences.language : undefined;
  if (theme || language) state.preferences = { ...(theme && { theme }), ...(language && { language }) };
  return state;
}
