import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { languageFrom, translate } from '../src/messages';
import { MESSAGE_KEYS } from '../src/messageKeys.gen';
import { catalogueKeys, MESSAGE_KEYS_FILE, messageKeysSource } from '../tools/messageKeys';

describe('the caller’s language (Accept-Language with q-values)', () => {
  test.each([
    [undefined, 'en'],
    ['', 'en'],
    ['pt-BR,pt;q=0.9,en;q=0.8', 'pt'],
    ['en-US,en;q=0.9,pt;q=0.8', 'en'],
    // Preference is by q-value, not by position.
    ['en;q=0.5, pt', 'pt'],
    ['en;q=0.5, pt-PT;q=0.7', 'pt'],
    // q=0 means "not this one".
    ['pt;q=0, en', 'en'],
    ['pt;q=0', 'en'],
    // A language the console does not speak is passed over for the next one asked.
    ['fr-FR, de;q=0.9, pt;q=0.3', 'pt'],
    ['fr', 'en'],
    ['*', 'en'],
    ['PT-br', 'pt'],
    ['portuguese', 'en'],
    ['pt;q=abc', 'pt'],
    [';;;,,,q=1', 'en'],
  ])('%p → %s', (header, language) => {
    expect(languageFrom(header)).toBe(language);
  });

  test('any header answers pt or en and never throws (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (header) => {
        expect(['pt', 'en']).toContain(languageFrom(header));
      }),
      { numRuns: 500 },
    );
  });

  test('a failure’s reason key fills {reason} in the same language', () => {
    const params = { chapter: 2, reason_key: 'reason.serviceError', status: 503 };
    expect(translate('en', 'pipeline.storyFailed', params)).toBe(
      'Writing chapter 2 failed: the service answered with an error (HTTP 503); the server log has its message',
    );
    expect(translate('pt', 'pipeline.storyFailed', params)).toBe(
      'Falha ao escrever o capítulo 2: o serviço respondeu com um erro (HTTP 503); a mensagem está no log do servidor',
    );
    // A key this version does not know reads as the generic reason, never as a placeholder.
    expect(translate('en', 'pipeline.storyFailed', { chapter: 1, reason_key: 'nope' })).toBe(
      'Writing chapter 1 failed: an unexpected error; the server log has its message',
    );
  });
});

describe('the catalogue (locales/{en,pt}/server.json through i18next)', () => {
  test('the key type is generated from the catalogue as it is (npm run i18n:keys)', () => {
    const committed = fs.readFileSync(MESSAGE_KEYS_FILE, 'utf8');
    expect(committed === messageKeysSource() ? 'up to date' : 'out of date: run npm run i18n:keys').toBe('up to date');
  });

  test('Portuguese has every key English has, plural forms included', () => {
    const keys = (language: string) =>
      catalogueKeys(JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'locales', language, 'server.json'), 'utf8')));
    expect(keys('pt')).toEqual(keys('en'));
    for (const key of MESSAGE_KEYS) {
      for (const language of ['en', 'pt'] as const) expect(translate(language, key, { count: 2 })).not.toBe(key);
    }
  });

  test.each([
    ['en', 1, 'Too many requests. Try again in 1 minute.'],
    ['en', 5, 'Too many requests. Try again in 5 minutes.'],
    ['pt', 1, 'Muitas solicitações. Tente novamente em 1 minuto.'],
    ['pt', 5, 'Muitas solicitações. Tente novamente em 5 minutos.'],
  ] as const)('plurals follow the count (%s, %d)', (language, count, text) => {
    expect(translate(language, 'common.tooManyRequests', { count })).toBe(text);
  });

  test('a process or several: no "process(es)"', () => {
    expect(translate('en', 'voices.deletedWithProcesses', { count: 1 })).toContain('1 process that used it was switched off');
    expect(translate('en', 'voices.deletedWithProcesses', { count: 3 })).toContain('3 processes that used it were switched off');
    expect(translate('pt', 'prompts.deletedWithProcesses', { count: 2 })).toContain('2 processos que o usavam');
  });

  test('values are filled as text, never escaped or read as placeholders', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (reason) => {
        expect(translate('en', 'common.invalidRequest', { reason })).toBe(`Invalid request: ${reason}`);
      }),
    );
    expect(translate('en', 'common.invalidRequest', { reason: '<b>&"{{count}}"' })).toBe('Invalid request: <b>&"{{count}}"');
  });

  test('a placeholder without its value stays as written', () => {
    expect(translate('en', 'common.routeNotFound', { method: 'GET' })).toBe('Route GET {{url}} not found');
  });
});
