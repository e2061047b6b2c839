import type { FakeChatRequest, FakeResponder } from './openai';

/**
 * A chat responder for clicking through the engine offline (`npm run fakes`, the browser suite,
 * `npm run bench:pipeline`): it recognises what the engine asks for — a title, a premise, a
 * chapter, a summary — and answers a plausible short text in the request's language, with a new
 * title every time so the title history never refuses one. "New" is as the engine's `titleKey`
 * counts it (numbers, word order, accents and case do not make a title new): each title is a word
 * of three vocabularies that share no word, so the first 768 titles of a responder differ in words.
 *
 * `brief` answers chapters of two short sentences (about 4 s of narration instead of 10): the
 * tests and the browser suite take it, since every second of narration is 25 frames that ffmpeg
 * encodes at 1080p, and a run's render is most of a test's time. bench:pipeline and
 * `npm run fakes` (unless FAKE_STORY=brief) keep the full chapters, as a person would read them.
 */

const PT_HINT = /\b(escreva|crie|capítulo|história|premissa|resumo|português)\b/i;

const CHAPTERS = {
  pt: [
    'Naquela manhã de outono, Helena encontrou uma carta amarelada escondida no fundo da gaveta da avó. O envelope trazia um nome que ela nunca tinha ouvido em casa.',
    'Durante o jantar, ninguém quis falar sobre o nome da carta. O silêncio da mãe dizia mais do que qualquer resposta, e Helena decidiu procurar a verdade sozinha.',
    'No cartório da cidade, um funcionário antigo reconheceu o sobrenome. Ele contou que, quarenta anos antes, uma criança tinha sido entregue a outra família.',
    'Quando a verdade finalmente veio à tona, a família se reuniu na varanda. Houve lágrimas, perdão e uma promessa: nenhum segredo voltaria a separá-los.',
  ],
  en: [
    "That autumn morning, Helen found a yellowed letter hidden at the back of her grandmother's drawer. The envelope bore a name nobody had ever spoken at home.",
    "At dinner, nobody wanted to talk about the name on the letter. Her mother's silence said more than any answer, and Helen decided to look for the truth alone.",
    'At the town registry, an old clerk recognised the surname. He told her that, forty years earlier, a child had been given to another family.',
    'When the truth finally came out, the family gathered on the porch. There were tears, forgiveness and a promise: no secret would ever divide them again.',
  ],
} as const;

/** Two short sentences a chapter, opening as CHAPTERS' do. */
const BRIEF_CHAPTERS = {
  pt: [
    'Naquela manhã, Helena achou uma carta da avó. Trazia um nome estranho.',
    'Durante o jantar, ninguém falou do nome. Helena decidiu procurar a verdade.',
    'No cartório, um funcionário reconheceu o nome. Uma criança fora entregue.',
    'Quando a verdade veio, a família se reuniu. Houve lágrimas e perdão.',
  ],
  en: [
    "That autumn morning, Helen found her grandmother's letter. It bore a strange name.",
    'At dinner, nobody spoke of the name. Helen decided to find the truth.',
    'At the town registry, a clerk knew the name. A child had been given away.',
    'When the truth came out, the family gathered. There were tears and forgiveness.',
  ],
} as const;

const TITLE_WORDS = {
  pt: ['A Carta', 'O Segredo', 'A Herança', 'O Retrato', 'A Promessa', 'O Silêncio', 'A Gaveta', 'O Nome'],
  en: ['The Letter', 'The Secret', 'The Inheritance', 'The Portrait', 'The Promise', 'The Silence', 'The Drawer', 'The Name'],
} as const;
const TITLE_PLACES = ['Lisboa', 'Olinda', 'Manaus', 'Recife', 'Belém', 'Natal', 'Santos', 'Cuiabá'] as const;
const TITLE_MONTHS = {
  pt: [
    'janeiro',
    'fevereiro',
    'março',
    'abril',
    'maio',
    'junho',
    'julho',
    'agosto',
    'setembro',
    'outubro',
    'novembro',
    'dezembro',
  ],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
} as const;

/** The `n`th title (from 0): a word, a place and a month, as the digits of `n` in mixed radix 8, 8, 12. */
export function fakeTitle(language: 'pt' | 'en', n: number): string {
  const words = TITLE_WORDS[language];
  const months = TITLE_MONTHS[language];
  const word = words[n % words.length]!;
  const place = TITLE_PLACES[Math.floor(n / words.length) % TITLE_PLACES.length]!;
  const month = months[Math.floor(n / (words.length * TITLE_PLACES.length)) % months.length]!;
  return language === 'pt' ? `${word} de ${place} em ${month}` : `${word} of ${place} in ${month}`;
}

function lastUserText(request: FakeChatRequest): string {
  const message = [...request.messages].reverse().find((m) => m.role === 'user');
  return typeof message?.content === 'string' ? message.content : '';
}

export function createStoryResponder(options: { brief?: boolean } = {}): FakeResponder {
  const texts = options.brief ? BRIEF_CHAPTERS : CHAPTERS;
  let titles = 0;
  return (request) => {
    const text = lastUserText(request);
    const language = PT_HINT.test(text) ? 'pt' : 'en';
    const head = text.slice(0, 80).toLowerCase();
    if (/summar|resum/.test(head)) return texts[language][1]!;
    if (!/cap[íi]tulo|chapter/.test(head)) {
      if (/t[íi]tulo|title/.test(head)) {
        titles += 1;
        return fakeTitle(language, titles - 1);
      }
      if (/premissa|premise/.test(head)) return texts[language][0]!;
    }
    const number = Number(/(\d+)/.exec(head)?.[1] ?? '1');
    const chapters = texts[language];
    return chapters[Math.min(chapters.length - 1, Math.max(0, number - 1))]!;
  };
}
