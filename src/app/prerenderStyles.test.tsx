/**
 * The prerendered page's styles as the app's Emotion cache finds them when it starts
 * (app/prerender.tsx `emotionStyles`): it takes every rule as already inserted, so the take-over's
 * commit compiles and inserts none of them again.
 */
import createCache from '@emotion/cache';
import { CacheProvider, Global } from '@emotion/react';
import { render } from '@testing-library/react';
import { removePrerenderedStyles } from '../lib/prerendered';

/** A page's head as the build writes it: the rules that show the card, a global style, the class rules. */
const HEAD = [
  '<style data-prerender="all">[data-prerender-variant]{display:none}</style>',
  '<style data-prerender="dark" data-emotion="css-global 1a2b3c">html{color:red;}</style>',
  '<style data-prerender="dark" data-emotion="css 4d5e6f 7g8h9i">.css-4d5e6f{margin:0;}.css-7g8h9i{padding:0;}</style>',
].join('');

describe("the prerendered page's styles, handed to Emotion", () => {
  beforeEach(() => {
    document.head.innerHTML = HEAD;
  });
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('are taken as already inserted by the cache the app starts with', () => {
    const cache = createCache({ key: 'css' });

    expect(cache.inserted).toMatchObject({ '4d5e6f': true, '7g8h9i': true });
    // Its later rules go after them: the class rules keep their order.
    expect(cache.sheet.tags.map((tag) => tag.getAttribute('data-emotion'))).toEqual(['css 4d5e6f 7g8h9i']);
  });

  it('keep a global style that is already on the page where it is, not inserted twice', () => {
    const cache = createCache({ key: 'css' });
    const styles = { name: '1a2b3c', styles: 'html{color:red;}', next: undefined, toString: () => '' };

    render(
      <CacheProvider value={cache}>
        <Global styles={styles} />
      </CacheProvider>,
    );

    const globals = Array.from(document.querySelectorAll('style')).filter((style) => style.textContent?.includes('color:red'));
    expect(globals).toHaveLength(1);
  });

  it('lose only the rules that showed the card when the app has taken over; the theme stays as Emotion’s', () => {
    createCache({ key: 'css' });

    removePrerenderedStyles();

    expect(document.querySelectorAll('style[data-prerender]')).toHaveLength(0);
    expect(Array.from(document.querySelectorAll('style')).map((style) => style.getAttribute('data-emotion'))).toEqual([
      'css-global 1a2b3c',
      'css 4d5e6f 7g8h9i',
    ]);
  });
});
