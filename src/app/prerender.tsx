/**
 * The sign-in screen rendered to HTML at build time (scripts/prerender.tsx, called by
 * webpack.config.js), so that /login paints before any of the app's JavaScript has run
 * (docs/web.md, "First load").
 *
 * The build writes one page per language and theme (login-en-dark.html...), and the server sends
 * /login the visitor's: the view cookie says which (lib/prerendered.ts), else Accept-Language and
 * the dark theme. public/preferences.js, which runs before anything paints, sets `<html lang>` and
 * `<html data-theme>` from what the visitor chose; CSS shows the card only if they name its
 * variant (else the boot spinner, then the app, as on any other address). When the app starts,
 * React replaces the card (what was typed, the focus and a pending submit are carried over:
 * lib/prerendered.ts), and App removes the page's styles.
 *
 * It renders the real components (AuthShell, LoginPage) with the app's providers, so the
 * prerendered card is the card React draws, pixel for pixel.
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import LoginPage from '../features/auth/LoginPage';
import { LANGUAGES, type Language } from '../lib/language';
import { PRERENDER_VARIANT_ATTRIBUTE, PRERENDER_STYLE_ATTRIBUTE } from '../lib/prerendered';
import { AppProviders } from './AppProviders';
import { HTML_LANG, createI18n } from './i18n';
import { AuthShell } from './layout/AuthShell';
import type { ThemeMode } from './preferencesSlice';
import { resources } from './resources';
import { makeStore } from './store';

export const THEMES: ThemeMode[] = ['dark', 'light'];

export interface PrerenderedVariant {
  language: Language;
  theme: ThemeMode;
  /** The screen's markup, as React renders it into #root. */
  html: string;
  /** Every style rule it uses by Emotion's name for it, globals (CssBaseline) first. */
  rules: Array<[string, string]>;
}

/** The login screen in one language and theme, with the CSS its classes need. */
export function renderLoginVariant(language: Language, theme: ThemeMode): PrerenderedVariant {
  const store = makeStore({ preferences: { language, theme } });
  const i18n = createI18n(language, { [language]: { common: resources[language].common, auth: resources[language].auth } });
  // The app's own cache key ("css", Emotion's default): the class names are the ones the app makes.
  // In compat mode, Emotion keeps every rule in `inserted` instead of writing <style> tags inline.
  const cache = createCache({ key: 'css' });
  cache.compat = true;
  const html = renderToString(
    <CacheProvider value={cache}>
      <AppProviders store={store} i18n={i18n}>
        <MemoryRouter initialEntries={['/login']} useTransitions={false}>
          <Routes>
            <Route element={<AuthShell />}>
              <Route path="login" element={<LoginPage />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </AppProviders>
    </CacheProvider>,
    // Ids of their own (labels, fields): never one the app's first render makes.
    { identifierPrefix: `${language}-${theme}-` },
  );
  const rules = Object.entries(cache.inserted).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return { language, theme, html, rules };
}

/**
 * Rules that let the prerendered fields behave like Material UI's before the app runs: the label
 * moves up into the outline when the field is focused or filled, and the outline takes the
 * primary colour on focus (Material UI does both from React state). `placeholder=" "` on the
 * inputs is what `:placeholder-shown` reads.
 */
const FIELD_STATES = `
[${PRERENDER_VARIANT_ATTRIBUTE}] .MuiFormControl-root:is(:focus-within,:has(input:not(:placeholder-shown))) .MuiInputLabel-root{transform:translate(14px,-9px) scale(.75);max-width:calc(133% - 32px)}
[${PRERENDER_VARIANT_ATTRIBUTE}] .MuiFormControl-root:is(:focus-within,:has(input:not(:placeholder-shown))) legend{max-width:100%}
[${PRERENDER_VARIANT_ATTRIBUTE}] .MuiFormControl-root:focus-within .MuiInputLabel-root{color:var(--boot-primary)}
[${PRERENDER_VARIANT_ATTRIBUTE}] .MuiOutlinedInput-root:focus-within .MuiOutlinedInput-notchedOutline{border-color:var(--boot-primary);border-width:2px}
`;

/**
 * Shows the variant only when `<html lang>` and `<html data-theme>` name it, and never to a
 * signed-in visitor: a page whose variant is not the visitor's (the server guessed without the
 * view cookie) shows the boot spinner, then the app, as any other address does.
 */
function variantRules({ language, theme }: PrerenderedVariant): string {
  const themeSelector = theme === 'dark' ? ':not([data-theme=light])' : '[data-theme=light]';
  return [
    `[${PRERENDER_VARIANT_ATTRIBUTE}]{display:none}`,
    `html[lang=${HTML_LANG[language]}]${themeSelector}:not([data-signed-in]) [${PRERENDER_VARIANT_ATTRIBUTE}=${language}-${theme}]{display:block}`,
    `html[lang=${HTML_LANG[language]}]${themeSelector}:not([data-signed-in]) #root>.boot{display:none}`,
    FIELD_STATES.trim(),
  ].join('\n');
}

/**
 * The fields as they must be before the app runs: `placeholder=" "` for the rules above, and no
 * `autofocus` (public/preferences.js focuses the field when the variant is the one shown).
 */
function prepareForm(html: string): string {
  return html.replace(/<input /g, '<input placeholder=" " ').replace(/ autofocus=""/g, '');
}

/** What one page for /login needs: the head's styles and the body's #root content. */
export interface PrerenderedPage {
  head: string;
  root: string;
}

/** The name of a variant, and of the page that holds it: `en-dark`, `pt-light`... */
export type VariantKey = `${Language}-${ThemeMode}`;

/**
 * The login screen in one language and theme, as the head and #root content of its page
 * (login-<variant>.html): the server sends the visitor's (lib/prerendered.ts `VIEW_COOKIE`).
 */
export function prerenderLoginPage(language: Language, theme: ThemeMode): PrerenderedPage {
  const variant = renderLoginVariant(language, theme);
  const head = [
    `<style ${PRERENDER_STYLE_ATTRIBUTE}="all">${variantRules(variant)}</style>`,
    `<style ${PRERENDER_STYLE_ATTRIBUTE}="${theme}">${variant.rules.map(([, rules]) => rules).join('')}</style>`,
  ].join('');
  const root = `<div ${PRERENDER_VARIANT_ATTRIBUTE}="${language}-${theme}">${prepareForm(variant.html)}</div>`;
  return { head, root: `<div class="boot" aria-hidden="true"></div>${root}` };
}

/** Every variant's page. */
export function prerenderLoginPages(): Record<VariantKey, PrerenderedPage> {
  const pages = {} as Record<VariantKey, PrerenderedPage>;
  for (const language of LANGUAGES)
    for (const theme of THEMES) pages[`${language}-${theme}`] = prerenderLoginPage(language, theme);
  return pages;
}
