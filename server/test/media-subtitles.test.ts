import fc from 'fast-check';
import {
  assTime,
  balancedGroups,
  balancedLines,
  escapeAssText,
  sentenceChunks,
  srtTime,
  subtitleCues,
  toAss,
  toSrt,
  wrapText,
  type Cue,
  type SpokenWord,
} from '../src/media/subtitles';

const STORY =
  'Maria climbed the hundred steps of the old lighthouse. The storm had broken every window on the way up, and the wind ' +
  'howled through the iron stairs like an animal. At the top she found her father’s lantern, still warm. "Who lit it?" ' +
  'she whispered.';

/** Every cue is one or two lines of at most 42 characters, 84 in all. */
function expectReadable(cues: Cue[]): void {
  for (const cue of cues) {
    const lines = cue.text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(2);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(42);
    expect(Array.from(cue.text.replace('\n', ' ')).length).toBeLessThanOrEqual(84);
  }
}

describe('balanced splitting', () => {
  it('splits words into even groups within the limit', () => {
    expect(balancedGroups(['aaaa', 'bb', 'cc', 'dddd'], 2, 10)).toEqual(['aaaa bb', 'cc dddd']);
    expect(balancedGroups(['aaaaaaaaaaaa'], 1, 10)).toBeNull();
    expect(balancedGroups(['a', 'b'], 3, 10)).toBeNull();
  });

  it('makes sentence chunks of at most two balanced lines', () => {
    const chunks = sentenceChunks(
      'The storm had broken every window on the way up, and the wind howled through the iron stairs like an animal in the night.',
    );
    expect(chunks.length).toBe(2);
    for (const chunk of chunks) {
      const lines = chunk.split('\n');
      expect(lines.length).toBe(2);
      expect(Math.abs(lines[0].length - lines[1].length)).toBeLessThan(12);
    }
  });

  it('cuts words longer than a line (URLs, CJK without spaces)', () => {
    const url = `https://example.com/${'x'.repeat(90)}`;
    const cues = subtitleCues([{ text: url, start: 0, duration: 3 }]);
    expectReadable(cues);
    expect(cues.map((cue) => cue.text.replace(/\n/g, '')).join('')).toBe(url);
    expectReadable(subtitleCues([{ text: '雨'.repeat(200), start: 0, duration: 5 }]));
  });

  it('wraps titles into balanced lines and excerpts with an ellipsis', () => {
    expect(balancedLines("The Lighthouse Keeper's Daughter", 24, 3)).toEqual(['The Lighthouse', "Keeper's Daughter"]);
    const lines = wrapText('one two three four five six seven eight nine ten', 10, 2);
    expect(lines).toEqual(['one two', 'three fou…']);
    expect(wrapText('short', 10, 2)).toEqual(['short']);
  });
});

describe('subtitleCues', () => {
  it('covers each part exactly, in order, without overlaps, timed by length', () => {
    const parts = [
      { text: STORY, start: 0, duration: 12 },
      { text: 'Nobody answered. Only the sea.', start: 12.4, duration: 2.5 },
    ];
    const cues = subtitleCues(parts);
    expectReadable(cues);
    expect(cues[0].start).toBe(0);
    expect(cues[cues.length - 1].end).toBeCloseTo(14.9, 9);
    for (let i = 1; i < cues.length; i += 1) {
      expect(cues[i].start).toBeGreaterThanOrEqual(cues[i - 1].end);
      expect(cues[i].end).toBeGreaterThan(cues[i].start);
    }
    // Inside the first part the cues meet, and their durations follow their lengths.
    const first = cues.filter((cue) => cue.end <= 12 + 1e-9);
    const chars = first.map((cue) => cue.text.replace('\n', ' ').length);
    const total = chars.reduce((a, b) => a + b, 0);
    first.forEach((cue, i) => expect(cue.end - cue.start).toBeCloseTo((12 * chars[i]) / total, 9));
    expect(first[first.length - 1].end).toBe(12);
    // The second part starts at its own start (the gap is kept), short sentences share a cue.
    const second = cues.filter((cue) => cue.start >= 12.4);
    expect(second).toEqual([{ start: 12.4, end: 14.9, text: 'Nobody answered. Only the sea.' }]);
  });

  it('cuts cues at sentence ends (lib/text) with white space collapsed, keeping numbers whole', () => {
    const texts = (text: string) => subtitleCues([{ text, start: 0, duration: 10 }]).map((cue) => cue.text.replace('\n', ' '));
    expect(
      texts('The lighthouse keeper counted 3.5 million waves   in his\nlong life. Then he stopped counting them all.'),
    ).toEqual(['The lighthouse keeper counted 3.5 million waves in his long life.', 'Then he stopped counting them all.']);
    expect(texts('  one\n\ntwo   three ')).toEqual(['one two three']);
    expect(texts('灯台守は三百五十万の波を数えた。それから数えるのをやめてしまった。')).toEqual([
      '灯台守は三百五十万の波を数えた。',
      'それから数えるのをやめてしまった。',
    ]);
  });

  it('never overlaps parts that overlap, and skips empty or timeless parts', () => {
    const cues = subtitleCues([
      { text: 'First part is here.', start: 0, duration: 3 },
      { text: 'Second starts too early.', start: 2, duration: 3 },
      { text: '   ', start: 5, duration: 2 },
      { text: 'No time at all.', start: 7, duration: 0 },
    ]);
    expect(cues.map((cue) => [cue.start, cue.end])).toEqual([
      [0, 3],
      [3, 5],
    ]);
  });

  it('stays linear in the text: a 20,000-word sentence with no full stop is cut into readable cues quickly', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 97}${i % 31 === 30 ? ',' : ''}`).join(' ');
    /** The fastest of three runs, milliseconds. */
    const time = (text: string) =>
      Math.min(
        ...[0, 1, 2].map(() => {
          const started = performance.now();
          subtitleCues([{ text, start: 0, duration: 1000 }]);
          return performance.now() - started;
        }),
      );
    const small = time(words(2_000));
    const large = time(words(20_000));
    // Ten times the words: about ten times the work (the balancing over one sentence was quadratic: 300x).
    expect(large / Math.max(small, 1)).toBeLessThan(40);
    const cues = subtitleCues([{ text: words(20_000), start: 0, duration: 8000 }]);
    expectReadable(cues);
    expect(cues.map((cue) => cue.text.replace('\n', ' ')).join(' ')).toBe(words(20_000));
  }, 60_000);

  it('honours maxChars', () => {
    const cues = subtitleCues([{ text: STORY, start: 0, duration: 10 }], { maxChars: 40 });
    for (const cue of cues) {
      expect(cue.text.replace('\n', ' ').length).toBeLessThanOrEqual(40);
      for (const line of cue.text.split('\n')) expect(line.length).toBeLessThanOrEqual(20);
    }
  });
});

/** Every word of `text` (runs without spaces), starting `perChar` seconds a character after `lead`, plus a pause at each sentence end. */
function wordTimes(text: string, perChar = 0.06, pause = 0.7): SpokenWord[] {
  const words: SpokenWord[] = [];
  let time = 0.3;
  for (const match of text.matchAll(/\S+/gu)) {
    words.push({ offset: match.index, start: time });
    time += (match[0].length + 1) * perChar + (/[.!?"]$/u.test(match[0]) ? pause : 0);
  }
  return words;
}

describe('subtitleCues on the spoken word', () => {
  it('starts every cue when its first word is spoken and ends it when the next begins', () => {
    const words = wordTimes(STORY);
    const duration = words[words.length - 1]!.start + 1;
    const cues = subtitleCues([{ text: STORY, start: 10, duration, words }]);
    expect(cues.length).toBeGreaterThan(3);
    expectReadable(cues);
    let searchFrom = 0;
    cues.forEach((cue, i) => {
      const cueWords = cue.text.split(/\s+/u);
      const offset = STORY.indexOf(cueWords[0]!, searchFrom);
      for (const word of cueWords) searchFrom = STORY.indexOf(word, searchFrom) + word.length;
      const word = words.find((w) => w.offset === offset)!;
      expect(cue.start).toBeCloseTo(10 + word.start, 6);
      expect(cue.end).toBeCloseTo(i === cues.length - 1 ? 10 + duration : cues[i + 1]!.start, 6);
    });
    // A long pause before a sentence is not spread over the cues around it, as timing by length would.
    const byLength = subtitleCues([{ text: STORY, start: 10, duration }]);
    const drift = cues.map((cue, i) => Math.abs(cue.start - byLength[i]!.start));
    expect(Math.max(...drift)).toBeGreaterThan(0.3);
  });

  it('places cues cut inside a word (CJK text without spaces) between that word and the next', () => {
    const text = '月'.repeat(100) + '。' + '星'.repeat(60) + '。';
    const words: SpokenWord[] = [{ offset: 0, start: 0.2 }];
    const cues = subtitleCues([{ text, start: 0, duration: 20, words }]);
    expect(cues.length).toBeGreaterThan(2);
    expect(cues[0]!.start).toBeCloseTo(0.2, 6);
    for (let i = 1; i < cues.length; i += 1) expect(cues[i]!.start).toBeGreaterThan(cues[i - 1]!.start);
  });

  it('keeps every word of the text, in order, whatever the timings (property)', () => {
    const sentence = fc
      .array(fc.stringMatching(/^[A-Za-zÀ-ú]{1,12}$/), { minLength: 1, maxLength: 25 })
      .map((list) => `${list.join(' ')}.`);
    fc.assert(
      fc.property(
        fc.array(sentence, { minLength: 1, maxLength: 8 }),
        fc.array(fc.float({ min: 0, max: 2, noNaN: true }), { minLength: 1, maxLength: 300 }),
        (sentences, gaps) => {
          const text = sentences.join(' ');
          const words: SpokenWord[] = [];
          let time = 0;
          [...text.matchAll(/\S+/gu)].forEach((match, i) => {
            time += gaps[i % gaps.length]!;
            words.push({ offset: match.index, start: time });
          });
          const duration = time + 1;
          const cues = subtitleCues([{ text, start: 5, duration, words }]);
          expect(cues.map((cue) => cue.text.replace(/\s+/gu, ' ')).join(' ')).toBe(text);
          for (let i = 0; i < cues.length; i += 1) {
            expect(cues[i]!.end).toBeGreaterThan(cues[i]!.start);
            expect(cues[i]!.start).toBeGreaterThanOrEqual(5);
            expect(cues[i]!.end).toBeLessThanOrEqual(5 + duration + 1e-9);
            if (i > 0) expect(cues[i]!.start).toBeGreaterThanOrEqual(cues[i - 1]!.end - 1e-9);
          }
        },
      ),
    );
  });
});

describe('ASS and SRT', () => {
  it('escapes braces, backslashes and line breaks', () => {
    expect(escapeAssText('a {\\b1} c\\N d\nnext\r\nlast\tend')).toBe('a \\{\\\u2060b1\\} c\\\u2060N d\\Nnext\\Nlast end');
  });

  it('formats times with centiseconds, rounding neighbours to the same instant', () => {
    expect(assTime(0)).toBe('0:00:00.00');
    expect(assTime(61.005)).toBe('0:01:01.01');
    expect(assTime(3723.456)).toBe('1:02:03.46');
    expect(srtTime(3723.4567)).toBe('01:02:03,457');
  });

  it('writes a 1080p script: style at the bottom centre, one Dialogue per cue', () => {
    const ass = toAss(
      [
        { start: 0, end: 1.5, text: 'Hello {world}' },
        { start: 1.5, end: 3, text: 'two\nlines' },
      ],
      { width: 1920, height: 1080, fontSize: 60 },
    );
    expect(ass).toContain('PlayResX: 1920\nPlayResY: 1080');
    expect(ass).toMatch(
      /^Style: Default,DejaVu Sans,60,&H00FFFFFF,&H00FFFFFF,&H00101010,&H80000000,-1,0,0,0,100,100,0,0,1,3,0,2,/m,
    );
    const events = ass.split('\n').filter((line) => line.startsWith('Dialogue:'));
    expect(events).toEqual([
      'Dialogue: 0,0:00:00.00,0:00:01.50,Default,,0,0,0,,Hello \\{world\\}',
      'Dialogue: 0,0:00:01.50,0:00:03.00,Default,,0,0,0,,two\\Nlines',
    ]);
  });

  it('writes SRT blocks', () => {
    expect(
      toSrt([
        { start: 0, end: 1.25, text: 'a\nb' },
        { start: 2, end: 3, text: 'c' },
      ]),
    ).toBe('1\n00:00:00,000 --> 00:00:01,250\na\nb\n\n2\n00:00:02,000 --> 00:00:03,000\nc\n');
  });
});
