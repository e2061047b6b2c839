import fc from 'fast-check';
import { languageFrom, translate } from '../src/messages';

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
