import fc from 'fast-check';
import { NARRATION_PIECE_CHARS, narrationPieces } from '../src/pipeline/steps/generatingAudios';
import { storyTags } from '../src/pipeline/steps/publishingVideo';
import { splitSentences } from '../src/lib/text';
import { cleanProse, cleanTitle, fill, limitText, splitScenes, titleKey, titleRequest } from '../src/pipeline/story';
import { normalizeTitle, slotAfter, INTERVAL_MS } from '../src/services/executionRuns';

describe('story text helpers', () => {
  test('fill replaces known placeholders and leaves unknown ones', () => {
    expect(
      fill('Chapter {chapter_number} of {total_chapters}: {title} {other}', { chapter_number: 2, total_chapters: 5, title: 'X' }),
    ).toBe('Chapter 2 of 5: X {other}');
  });

  test('cleanTitle keeps the first line without quotes, labels or marks, within 100 characters', () => {
    expect(cleanTitle('"A Carta Esquecida"')).toBe('A Carta Esquecida');
    expect(cleanTitle('Título: **O Segredo**\n\nExplicação...')).toBe('O Segredo');
    expect(cleanTitle('Title: “The Letter.”')).toBe('The Letter');
    expect(cleanTitle('word '.repeat(40)).length).toBeLessThanOrEqual(100);
  });

  test('cleanProse drops headings and markdown, keeps paragraphs', () => {
    expect(cleanProse('# Capítulo 1\n\n**Ana** abriu a porta.\n\n\n\nEla sorriu.')).toBe('Ana abriu a porta.\n\nEla sorriu.');
  });

  test('splitScenes cuts at sentence boundaries into balanced parts, each with a sentence', () => {
    const text =
      'Durante o jantar, ninguém quis falar sobre o nome da carta. O silêncio da mãe dizia mais do que qualquer resposta.';
    expect(splitScenes(text, 2)).toEqual([
      'Durante o jantar, ninguém quis falar sobre o nome da carta.',
      'O silêncio da mãe dizia mais do que qualquer resposta.',
    ]);
    expect(splitScenes('Uma frase só.', 2)).toEqual(['Uma frase só.']);
    const many = 'A. B b. C c c. D d d d. E e e e e. F f f f f f.';
    const scenes = splitScenes(many, 3);
    expect(scenes).toHaveLength(3);
    expect(scenes.join(' ')).toBe(splitSentences(many).join(' '));
  });

  test('splitScenes keeps a number with a decimal point and CJK sentences whole', () => {
    expect(splitScenes('A casa custou 3.5 milhões de reais. Ninguém acreditou.', 2)).toEqual([
      'A casa custou 3.5 milhões de reais.',
      'Ninguém acreditou.',
    ]);
    expect(splitScenes('彼は手紙を読んだ。誰が書いたのか分からなかった。', 2)).toEqual([
      '彼は手紙を読んだ。',
      '誰が書いたのか分からなかった。',
    ]);
  });

  test('limitText cuts after the last sentence that fits, else at a space', () => {
    expect(limitText('Short enough.', 100)).toBe('Short enough.');
    expect(limitText('It cost 3.5 dollars. Then the rain came down hard.', 30)).toBe('It cost 3.5 dollars.');
    expect(limitText('今日は晴れでした。明日は雨が降るでしょう。', 12)).toBe('今日は晴れでした。');
    expect(limitText('One. And then a very long sentence without an end', 30)).toBe('One. And then a very long');
  });

  test('titles are compared without case, accents or punctuation', () => {
    expect(normalizeTitle('A Herança  Escondida!')).toBe(normalizeTitle('a heranca escondida'));
  });

  test('the slot after now keeps the 3-day rhythm and skips missed slots', () => {
    const due = new Date('2026-01-01T09:00:00Z');
    expect(slotAfter(due, new Date('2025-12-31T00:00:00Z'))).toEqual(due);
    expect(slotAfter(due, due).getTime()).toBe(due.getTime() + INTERVAL_MS);
    expect(slotAfter(due, new Date(due.getTime() + 10 * 24 * 3600 * 1000)).getTime()).toBe(due.getTime() + 4 * INTERVAL_MS);
  });
});

describe('the video’s tags', () => {
  test('the title, the prompt, the language, then the title’s longer words, each once', () => {
    expect(storyTags('O Segredo da Carta 12', 'Segredos de Família', 'pt')).toEqual([
      'O Segredo da Carta 12',
      'Segredos de Família',
      'português do Brasil',
      'segredo',
      'carta',
    ]);
    expect(storyTags('Carta', undefined, 'en')).toEqual(['Carta', 'English']);
  });
});

describe('titles that never repeat', () => {
  test.each([
    ['A Herança Escondida', 'a heranca escondida'],
    ['A Herança Escondida', 'Escondida, a Herança'],
    ['O Segredo da Carta 2', 'O Segredo da Carta 3'],
    ['O Segredo da Carta', 'O Segredo da Carta II'],
    ['Os Dois Irmãos', 'Os Três Irmãos'],
    ['The Lighthouse Keeper', 'the lighthouse KEEPER!'],
    ['The Last Letter', 'Letter, The Last'],
    ['Chapter 7: The Storm', 'Chapter Eight: The Storm'],
    ['The Second Door', 'The Third Door'],
  ])('"%s" and "%s" are the same title', (a, b) => {
    expect(titleKey(a)).toBe(titleKey(b));
  });

  test.each([
    ['A Herança Escondida', 'A Herança Perdida'],
    ['O Segredo da Carta', 'O Segredo do Farol'],
    ['The Lighthouse Keeper', 'The Lighthouse Keeper’s Daughter'],
    ['Vivid Dreams', 'Vivid Streams'],
  ])('"%s" and "%s" are different titles', (a, b) => {
    expect(titleKey(a)).not.toBe(titleKey(b));
  });

  test('the history reaches the model even when the prompt has no {previous_titles}', () => {
    const avoid = ['A Herança Escondida', 'O Farol'];
    const withPlaceholder = titleRequest('Crie um título. Não repita: {previous_titles}.', { language: 'pt', avoid, attempt: 0 });
    expect(withPlaceholder).toBe('Crie um título. Não repita: "A Herança Escondida", "O Farol".');
    const without = titleRequest('Crie um título curto em {language}.', { language: 'português', avoid, attempt: 0 });
    expect(without).toContain('Crie um título curto em português.');
    expect(without).toContain('"A Herança Escondida", "O Farol"');
    // Nothing to avoid: nothing added.
    expect(titleRequest('Crie um título curto.', { language: 'pt', avoid: [], attempt: 0 })).toBe('Crie um título curto.');
  });

  test('a retry changes the request, so a model that answers a request the same way can answer anew', () => {
    const values = { language: 'pt', avoid: ['A Herança Escondida'] };
    const first = titleRequest('Crie um título. Não repita: {previous_titles}.', { ...values, attempt: 0 });
    const second = titleRequest('Crie um título. Não repita: {previous_titles}.', {
      ...values,
      avoid: [...values.avoid, 'A Herança Escondida 2'],
      attempt: 1,
      taken: 'A Herança Escondida 2',
    });
    const third = titleRequest('Crie um título. Não repita: {previous_titles}.', {
      ...values,
      avoid: [...values.avoid, 'A Herança Escondida 2'],
      attempt: 2,
      taken: 'A Herança Escondida 2',
    });
    expect(new Set([first, second, third]).size).toBe(3);
    expect(second).toContain('"A Herança Escondida 2" is too close to a title already used');
  });
});

describe('narration pieces (cloud voices)', () => {
  test('whole sentences, each at least NARRATION_PIECE_CHARS but the last, nothing lost or added (property)', () => {
    const sentence = fc
      .tuple(fc.stringMatching(/^[A-Za-zÀ-ú][A-Za-zÀ-ú ,]{0,120}$/), fc.constantFrom('.', '!', '?', '…', '."', '?”'))
      .map(([body, end]) => `${body.trim() || 'Sim'}${end}`);
    fc.assert(
      fc.property(fc.array(sentence, { minLength: 1, maxLength: 30 }), fc.constantFrom(' ', '\n\n', '  '), (sentences, gap) => {
        const text = sentences.join(gap);
        const pieces = narrationPieces(text);
        expect(
          pieces
            .map((piece) => piece.text)
            .join('')
            .replace(/\s+/gu, ''),
        ).toBe(text.replace(/\s+/gu, ''));
        pieces.forEach((piece, i) => {
          expect(text.slice(piece.offset, piece.offset + piece.text.length)).toBe(piece.text);
          expect(piece.text).toBe(piece.text.trim());
          if (i < pieces.length - 1) {
            expect(piece.text.length).toBeGreaterThanOrEqual(NARRATION_PIECE_CHARS);
            expect(piece.text).toMatch(/[.!?…]["'”’»)\]]*$/u);
          }
        });
      }),
    );
    expect(narrationPieces('   ')).toEqual([]);
  });
});
