/**
 * How the app gets its translations: each namespace of each language is a small chunk of its own,
 * fetched when needed. `common` (navigation, spinners, validation messages) comes with the first
 * screen (app/startup.ts), every other namespace with the screen that uses it (app/pages.ts), and
 * a language switch fetches the namespaces in use in the new language (i18next's backend,
 * app/i18n.ts) before it shows.
 *
 * Tests use every translation at once: app/resources.ts.
 */
import type { Language } from '../lib/language';
import type { Namespace, Resources } from './resources';

export type Translations = { [L in Language]?: Partial<Resources> };

const loading = new Map<string, Promise<object>>();

/** One namespace in one language, fetched once (a failed fetch is tried again on the next call). */
export function loadNamespace(language: Language, namespace: Namespace): Promise<object> {
  const key = `${language}/${namespace}`;
  let promise = loading.get(key);
  if (!promise) {
    promise = import(
      /* webpackChunkName: "locale-[request]" */ /* webpackExclude: /server\.json$/ */ `../../locales/${language}/${namespace}.json`
    ).then((module: { default: object }) => module.default);
    loading.set(key, promise);
    promise.catch(() => loading.delete(key));
  }
  return promise;
}
