import * as flags from 'country-flag-icons/string/3x2';
import { LANGUAGE_CODES, type LanguageCode } from '../lib/languages';
import { renderWithProviders } from '../testing/renderWithProviders';
import { LanguageFlag, LanguageLabel } from './LanguageFlag';

// MUI's styles and the providers are slow to render on a loaded 2-core machine.
jest.setTimeout(60_000);

/** A flag emoji is two regional indicator symbols (U+1F1E6 to U+1F1FF). */
const REGIONAL_INDICATOR = /[\u{1F1E6}-\u{1F1FF}]/u;

/** The flag each language showed as an emoji before, kept: Portuguese is Brazil's, English the US'. */
const COUNTRY: Record<LanguageCode, keyof typeof flags> = {
  pt: 'BR',
  en: 'US',
  es: 'ES',
  fr: 'FR',
  de: 'DE',
  it: 'IT',
  ja: 'JP',
  ko: 'KR',
  zh: 'CN',
  ru: 'RU',
  ar: 'SA',
  hi: 'IN',
  tr: 'TR',
  nl: 'NL',
  sv: 'SE',
  no: 'NO',
  da: 'DK',
  fi: 'FI',
  pl: 'PL',
  cs: 'CZ',
};

/** The SVG document an <img> shows, from its data: URL. */
function pictureOf(img: Element | null): string {
  const src = img?.getAttribute('src') ?? '';
  expect(src).toMatch(/^data:image\/svg\+xml,/);
  return decodeURIComponent(src.slice('data:image/svg+xml,'.length));
}

describe('LanguageLabel', () => {
  it('draws the flag as a decorative image beside the name, not as text', () => {
    const { container } = renderWithProviders(<LanguageLabel code="pt" />);

    const flag = container.querySelector('img');
    expect(flag).not.toBeNull();
    expect(flag).toHaveAttribute('alt', '');
    expect(pictureOf(flag)).toMatch(/^<svg[\s>]/);
    // The flag adds no text: what reads is the language's name alone, and no emoji anywhere.
    expect(container.textContent).toBe('Portuguese');
    expect(container.innerHTML).not.toMatch(REGIONAL_INDICATOR);
  });

  it('names the language in the interface language', () => {
    const { container } = renderWithProviders(<LanguageLabel code="es" />, {
      preloadedState: { preferences: { language: 'pt' } },
    });

    expect(container.textContent).toBe('Espanhol');
    expect(container.querySelector('img[alt=""]')).not.toBeNull();
  });

  it('shows an unknown code as is, without a flag', () => {
    const { container } = renderWithProviders(<LanguageLabel code="xx" />);

    expect(container.textContent).toBe('xx');
    expect(container.querySelector('img')).toBeNull();
  });
});

describe('LanguageFlag', () => {
  it.each(LANGUAGE_CODES)('draws %s with its country’s flag, as a picture', (code) => {
    const { container } = renderWithProviders(<LanguageFlag code={code} />);

    const img = container.querySelector('img');
    expect(img).toHaveAttribute('alt', '');
    expect(pictureOf(img)).toBe(flags[COUNTRY[code]]);
    expect(container.textContent).toBe('');
    expect(container.innerHTML).not.toMatch(REGIONAL_INDICATOR);
  });

  it('gives every language a flag of its own', () => {
    const pictures = LANGUAGE_CODES.map((code) =>
      pictureOf(renderWithProviders(<LanguageFlag code={code} />).container.querySelector('img')),
    );
    expect(new Set(pictures).size).toBe(LANGUAGE_CODES.length);
  });
});
