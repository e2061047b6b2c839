import fc from 'fast-check';
import { sentenceSpans, splitSentences, textPieces, type TextSpan } from '../src/lib/text';
import { LANGUAGE_CODES, type LanguageCode } from '../src/contracts/prompts';

/**
 * Three sentences in each story language, as a reader cuts them: a number with a decimal point,
 * an abbreviation before a small letter (where the language has one), the language's own stops.
 */
const SENTENCES: Record<LanguageCode, string[]> = {
  pt: ['A carta chegou na versão 3.5 do arquivo, p. ex. a que a mãe guardou.', 'Quem a escreveu?', 'Ninguém sabia…', 'Nem ela!'],
  en: ['The rent rose by 3.5 percent, i.e. more than last year.', 'Who told you?', 'Nobody did!'],
  es: ['El alquiler subió un 3.5 por ciento, p. ej. más que el año pasado.', '¿Quién te lo dijo?', '¡Nadie!'],
  fr: ['Le loyer a augmenté de 3.5 pour cent, p. ex. plus que l’an dernier.', 'Qui te l’a dit ?', 'Personne !'],
  de: ['Die Miete stieg um 3.5 Prozent, d.h. mehr als im Vorjahr.', '„Wer hat dir das gesagt?“', 'Niemand!'],
  it: ['L’affitto è salito del 3.5 per cento, ad es. più dell’anno scorso.', 'Chi te l’ha detto?', 'Nessuno!'],
  ja: ['家賃は3.5パーセント上がった。', '「誰が言ったの？」', '誰も言っていない！'],
  ko: ['집세가 3.5퍼센트 올랐다.', '누가 말했어?', '아무도 안 했어!'],
  zh: ['房租涨了3.5个百分点。', '谁告诉你的？', '没有人！'],
  ru: ['Аренда выросла на 3.5 процента, т. е. больше, чем в прошлом году.', 'Кто тебе сказал?', 'Никто!'],
  ar: ['ارتفع الإيجار بنسبة 3.5 بالمئة هذا العام.', 'من أخبرك؟', 'لا أحد!'],
  hi: ['किराया इस साल 3.5 प्रतिशत बढ़ गया।', 'तुम्हें किसने बताया?', 'किसी ने नहीं!'],
  tr: ['Kira bu yıl yüzde 3.5 arttı, vb. şeyler de pahalandı.', 'Sana kim söyledi?', 'Hiç kimse!'],
  nl: ['De huur steeg met 3.5 procent, o.a. door de inflatie.', 'Wie heeft je dat verteld?', 'Niemand!'],
  sv: ['Hyran steg med 3.5 procent i år, bl.a. på grund av räntan.', 'Vem sa det till dig?', 'Ingen!'],
  no: ['Husleien steg med 3.5 prosent i år, bl.a. på grunn av renten.', 'Hvem sa det til deg?', 'Ingen!'],
  da: ['Huslejen steg med 3.5 procent i år, bl.a. på grund af renten.', 'Hvem sagde det til dig?', 'Ingen!'],
  fi: ['Vuokra nousi 3.5 prosenttia tänä vuonna, mm. korkojen takia.', 'Kuka sen sinulle kertoi?', 'Ei kukaan!'],
  pl: ['Czynsz wzrósł o 3.5 procent w tym roku, m.in. przez inflację.', 'Kto ci to powiedział?', 'Nikt!'],
  cs: ['Nájem letos vzrostl o 3.5 procenta, tj. více než loni.', 'Kdo ti to řekl?', 'Nikdo!'],
};
/** Languages written without a space between sentences. */
const UNSPACED = new Set<LanguageCode>(['ja', 'zh']);

/** The spans are in order, apart, trimmed and read from `text`; what lies between them is white space. */
function expectWhole(text: string, spans: TextSpan[]): void {
  let cursor = 0;
  for (const span of spans) {
    expect(span.text).not.toBe('');
    expect(span.text).toBe(span.text.trim());
    expect(span.offset).toBeGreaterThanOrEqual(cursor);
    expect(text.slice(cursor, span.offset).trim()).toBe('');
    expect(text.slice(span.offset, span.offset + span.text.length)).toBe(span.text);
    cursor = span.offset + span.text.length;
  }
  expect(text.slice(cursor).trim()).toBe('');
}

describe('sentences in the 20 story languages', () => {
  test('the table holds every story language', () => {
    expect(Object.keys(SENTENCES).sort()).toEqual([...LANGUAGE_CODES].sort());
  });

  describe.each(LANGUAGE_CODES.map((code) => [code]))('%s', (code) => {
    const sentences = SENTENCES[code];
    const text = sentences.join(UNSPACED.has(code) ? '' : ' ');

    test('cut where a reader would, nothing lost', () => {
      expect(splitSentences(text, code)).toEqual(sentences);
      expect(splitSentences(text)).toEqual(sentences);
      expectWhole(text, [...sentenceSpans(text, code)]);
    });

    test('a paragraph break ends a sentence, and is no sentence itself', () => {
      const paragraphs = `\n${sentences[0]}\n\n${sentences.slice(1).join('\n')}\n`;
      expect(splitSentences(paragraphs, code)).toEqual(sentences);
    });

    test('pieces of one sentence each, or of all of them', () => {
      expect(textPieces(text, { minChars: 1, maxChars: 500, locale: code }).map((piece) => piece.text)).toEqual(sentences);
      expect(textPieces(` ${text} `, { maxChars: text.length, locale: code })).toEqual([{ offset: 1, text }]);
    });
  });
});

describe('splitSentences', () => {
  test('cuts after . ! ? and closing quotes, keeping numbers and abbreviations before a small letter whole', () => {
    expect(splitSentences('It cost 3.5 dollars. Really? Yes! "Go." She left, e.g. at 10.30 or so.')).toEqual([
      'It cost 3.5 dollars.',
      'Really?',
      'Yes!',
      '"Go."',
      'She left, e.g. at 10.30 or so.',
    ]);
    expect(splitSentences('She said “Go.” Then she left.')).toEqual(['She said “Go.”', 'Then she left.']);
    expect(splitSentences('Wait... what? No!!! Yes?!')).toEqual(['Wait... what?', 'No!!!', 'Yes?!']);
  });

  test('an ellipsis ends a sentence as a full stop does: before a capital, not before a small letter', () => {
    expect(splitSentences('Then… Silence. Then… silence.')).toEqual(['Then…', 'Silence.', 'Then… silence.']);
    expect(splitSentences('E então… Nada.')).toEqual(['E então…', 'Nada.']);
  });

  test('CJK stops need no space; an opening bracket after one starts the next sentence', () => {
    expect(splitSentences('今日は晴れ。明日は雨！本当？')).toEqual(['今日は晴れ。', '明日は雨！', '本当？']);
    expect(splitSentences('彼は言った。「行こう。」そして去った。')).toEqual(['彼は言った。', '「行こう。」', 'そして去った。']);
    expect(splitSentences('他走了。（没有人知道。）')).toEqual(['他走了。', '（没有人知道。）']);
  });

  test('a line break ends a sentence; white space alone is none', () => {
    expect(splitSentences('  one\n\ntwo   three ')).toEqual(['one', 'two   three']);
    expect(splitSentences('Title\nThe story begins.')).toEqual(['Title', 'The story begins.']);
    expect(splitSentences(' \n\t ')).toEqual([]);
    expect(splitSentences('')).toEqual([]);
  });

  test('without an abbreviation list, a title before a name is cut, as it always was', () => {
    expect(splitSentences('Mr. Smith left.', 'en')).toEqual(['Mr.', 'Smith left.']);
  });
});

describe('textPieces', () => {
  test('without minChars, fills each piece with the whole sentences that fit', () => {
    expect(textPieces('  One. Two.  ', { maxChars: 100 })).toEqual([{ offset: 2, text: 'One. Two.' }]);
    expect(textPieces('', { maxChars: 100 })).toEqual([]);
    const sentences = Array.from({ length: 30 }, (_, i) => `Sentence ${i} ends here!`);
    const pieces = textPieces(sentences.join(' '), { maxChars: 100 }).map((piece) => piece.text);
    expect(pieces.length).toBeGreaterThan(1);
    pieces.forEach((piece, i) => {
      expect(piece.length).toBeLessThanOrEqual(100);
      // Full: the next sentence would not have fitted.
      if (i < pieces.length - 1) expect(piece.length + 1 + pieces[i + 1]!.split('!')[0]!.length + 1).toBeGreaterThan(100);
      expect(piece).toMatch(/!$/);
    });
    expect(pieces.join(' ')).toBe(sentences.join(' '));
  });

  test('with minChars, closes a piece as soon as it is that long', () => {
    const text = 'One. Two. Three. Four. Five.';
    expect(textPieces(text, { minChars: 8, maxChars: 100 })).toEqual([
      { offset: 0, text: 'One. Two.' },
      { offset: 10, text: 'Three. Four.' },
      { offset: 23, text: 'Five.' },
    ]);
  });

  test('a piece keeps the line breaks inside it', () => {
    expect(textPieces('Title.\n\nIt began.', { maxChars: 100 })).toEqual([{ offset: 0, text: 'Title.\n\nIt began.' }]);
  });

  test('a sentence longer than the limit is cut at spaces, then anywhere but inside a surrogate pair', () => {
    const cut = (text: string, maxChars: number) => textPieces(text, { maxChars }).map((piece) => piece.text);
    expect(cut('aaaa bbbb cccc', 9)).toEqual(['aaaa bbbb', 'cccc']);
    expect(cut('aaaa bbbb cccc', 8)).toEqual(['aaaa', 'bbbb', 'cccc']);
    const emoji = '😀'.repeat(10);
    const pieces = cut(emoji, 5);
    expect(pieces.join('')).toBe(emoji);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(5);
    expect(pieces.every((p) => p.length % 2 === 0)).toBe(true);
    expect(() => textPieces('x', { maxChars: 1 })).toThrow(RangeError);
  });

  test('a text in a language without spaces is cut at its stops, not at the limit', () => {
    const text = '家賃は上がった。'.repeat(30);
    const pieces = textPieces(text, { maxChars: 100 });
    expect(pieces.every((piece) => piece.text.endsWith('。') && piece.text.length <= 100)).toBe(true);
    expect(pieces.map((piece) => piece.text).join('')).toBe(text);
  });
});

describe('no text is lost or reordered (property)', () => {
  const tokens = fc.constantFrom(
    'word',
    'Word',
    ' ',
    '  ',
    '\n',
    '\n\n',
    '\t',
    '.',
    '!',
    '?',
    '…',
    '...',
    '3.5',
    '"',
    '”',
    '»',
    ')',
    '(',
    '「',
    '」',
    '。',
    '！',
    '？',
    '।',
    '؟',
    'e.g.',
    '😀',
    'ñ',
    '家',
    'ب',
  );
  const texts = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.array(tokens, { maxLength: 80 }).map((list) => list.join('')),
  );
  const locales = fc.constantFrom<LanguageCode | undefined>(undefined, ...LANGUAGE_CODES);

  test('sentences', () => {
    fc.assert(
      fc.property(texts, locales, (text, locale) => {
        expectWhole(text, [...sentenceSpans(text, locale)]);
      }),
    );
  });

  test('pieces, with or without minChars, within maxChars, never splitting a surrogate pair', () => {
    fc.assert(
      fc.property(
        texts,
        locales,
        fc.integer({ min: 2, max: 60 }),
        fc.option(fc.integer({ min: 1, max: 80 }), { nil: undefined }),
        (text, locale, maxChars, minChars) => {
          const pieces = textPieces(text, { maxChars, ...(minChars === undefined ? {} : { minChars }), locale });
          expectWhole(text, pieces);
          for (const piece of pieces) {
            expect(piece.text.length).toBeLessThanOrEqual(maxChars);
            const before = text.charCodeAt(piece.offset - 1);
            const first = text.charCodeAt(piece.offset);
            const pair = before >= 0xd800 && before <= 0xdbff && first >= 0xdc00 && first <= 0xdfff;
            expect(pair).toBe(false);
          }
        },
      ),
    );
  });
});
