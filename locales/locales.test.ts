/**
 * Keeps the Portuguese and English translations in step: same namespaces, same nested keys,
 * same interpolation variables, no empty strings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LANGUAGES = ['en', 'pt'] as const;
type Tree = { [key: string]: string | Tree };

const dir = (language: string) => join(__dirname, language);
const namespaces = (language: string) =>
  readdirSync(dir(language))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.replace(/\.json$/, ''))
    .sort();
const load = (language: string, namespace: string) =>
  JSON.parse(readFileSync(join(dir(language), `${namespace}.json`), 'utf8')) as Tree;

/** "a.b.c" → value, for every leaf. */
function leaves(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') for (const [k, v] of leaves(value, path)) out.set(k, v);
    else out.set(path, value);
  }
  return out;
}

const variables = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('locales', () => {
  it('has the same namespaces in every language', () => {
    expect(namespaces('pt')).toEqual(namespaces('en'));
    expect(namespaces('en')).toEqual(
      expect.arrayContaining([
        'common',
        'auth',
        'dashboard',
        'processes',
        'channels',
        'prompts',
        'voices',
        'history',
        'subscription',
        'settings',
      ]),
    );
  });

  describe.each(namespaces('en'))('namespace %s', (namespace) => {
    const [en, pt] = LANGUAGES.map((language) => leaves(load(language, namespace)));

    it('has the same keys in pt and en', () => {
      const missingInPt = [...en.keys()].filter((key) => !pt.has(key));
      const missingInEn = [...pt.keys()].filter((key) => !en.has(key));
      expect({ missingInPt, missingInEn }).toEqual({ missingInPt: [], missingInEn: [] });
    });

    it('uses the same interpolation variables in pt and en', () => {
      for (const [key, value] of en) {
        if (typeof value !== 'string' || typeof pt.get(key) !== 'string') continue;
        expect({ key, variables: variables(pt.get(key) as string) }).toEqual({ key, variables: variables(value) });
      }
    });

    it('says zero in the plural in Portuguese: every count with a singular form has a `_zero` form', () => {
      // CLDR puts 0 in Portuguese's "one" category (i = 0..1), so without `_zero` i18next would
      // write "0 processo conectado"; Brazilian Portuguese says "0 processos conectados".
      const singular = [...pt.keys()].filter((key) => key.endsWith('_one'));
      const withoutZero = singular.filter((key) => !pt.has(key.replace(/_one$/, '_zero')));
      expect(withoutZero).toEqual([]);
    });

    it('has only non-empty strings', () => {
      for (const map of [en, pt]) {
        for (const [key, value] of map) {
          expect({ key, ok: typeof value === 'string' && value.trim().length > 0 }).toEqual({ key, ok: true });
        }
      }
    });
  });
});
