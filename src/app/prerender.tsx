/**
 * The signed-out screens a newcomer opens first (sign-in, sign-up: `PRERENDERED_SCREENS`) rendered
 * to HTML at build time (scripts/prerender.tsx, called by webpack.config.js), so that /login and
 * /signup paint before any of the app's JavaScript has run (docs/web.md, "First load").
 *
 * The build writes one page per screen, language and theme (login-en-dark.html,
 * signup-pt-light.html...), and the server sends /login and /signup the visitor's: the view cookie
 * says which (lib/prerendered.ts), else Accept-Language and the dark theme. public/preferences.js, which runs before anything paints, sets `<html lang>` and
 * `<html data-theme>` from what the visitor chose; CSS shows the card only if they name its
 * variant (else the boot spinner, then the app, as on any other address). When the app starts,
 * React replaces the card (what was typed, the focus and a pending submit are carried over:
 * components/usePrerenderedForm.ts), and App removes the rules that only served the card; the
 * theme's rules are handed to the app's Emotion cache (`emotionStyles`).
 *
 * It renders the real components (AuthShell and the screen) with the app's providers, so the
 * prerendered card is the card React draws, pixel for pixel.
 */
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import LoginPage from '../features/auth/LoginPage';
import SignUpPage from '../features/auth/SignUpPage';
import { LANGUAGES, type Language } from '../lib/language';
import { PRERENDER_VARIANT_ATTRIBUTE, PRERENDER_STYLE_ATTRIBUTE } from '../lib/prerendered';
import { AppProviders } from './AppProviders';
import { HTML_LANG, createI18n } from './i18n';
import { AuthShell } from './layout/AuthShell';
import type { ThemeMode } from './preferencesSlice';
import { resources } from './resources';
import { makeStore } from './store';
import { createAppTheme } from './theme';

export const THEMES: ThemeMode[] = ['dark', 'light'];
/** The key of the app's Emotion cache (@emotion/react's default): its class names are `css-<hash>`. */
const EMOTION_KEY = 'css';

/**
 * The screens served already rendered, by their address (`/login`): each gets a page per language
 * and theme, `<screen>-<variant>.html`, which the server sends for its address when the build made
 * it (server/src/lib/webPages.ts). A screen here takes over its prerendered form with
 * components/usePrerenderedForm.ts.
 */
export const PRERENDERED_SCREENS = { login: LoginPage, signup: SignUpPage } satisfies Record<string, ComponentType>;
export type PrerenderedScreen = keyof typeof PRERENDERED_SCREENS;

export interface PrerenderedVariant {
  language: Language;
  theme: ThemeMode;
  /** The screen's markup, as React renders it into #root. */
  html: string;
  /** Every style rule it uses by Emotion's name for it, globals (CssBaseline) first. */
  rules: Array<[string, string]>;
}

/** A screen in one language and theme, with the CSS its classes need. */
export function renderVariant(screen: PrerenderedScreen, language: Language, theme: ThemeMode): PrerenderedVariant {
  const Screen = PRERENDERED_SCREENS[screen];
  const store = makeStore({ preferences: { language, theme } });
  const i18n = createI18n(language, { [language]: resources[language] });
  // The app's own cache key ("css", Emotion's default): the class names are the ones the app makes.
  // In compat mode, Emotion keeps every rule in `inserted` instead of writing <style> tags inline.
  const cache = createCache({ key: EMOTION_KEY });
  cache.compat = true;
  const html = renderToString(
    <CacheProvider value={cache}>
      <AppProviders store={store} i18n={i18n}>
        <MemoryRouter initialEntries={[`/${screen}`]} useTransitions={false}>
          <Routes>
            <Route element={<AuthShell />}>
              <Route path={screen} element={<Screen />} />
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
 * text inputs is what `:placeholder-shown` reads. A radio button shows its dot and the primary
 * colour when its input is checked (Material UI marks the one checked when React rendered).
 */
function fieldStates(theme: ThemeMode): string {
  const { palette } = createAppTheme(theme);
  const variant = `[${PRERENDER_VARIANT_ATTRIBUTE}]`;
  const filled = ':is(:focus-within,:has(input:not(:placeholder-shown)))';
  return [
    `${variant} .MuiFormControl-root${filled} .MuiInputLabel-root{transform:translate(14px,-9px) scale(.75);max-width:calc(133% - 32px)}`,
    `${variant} .MuiFormControl-root${filled} legend{max-width:100%}`,
    `${variant} .MuiFormControl-root:focus-within .MuiInputLabel-root{color:var(--boot-primary)}`,
    `${variant} .MuiOutlinedInput-root:focus-within .MuiOutlinedInput-notchedOutline{border-color:var(--boot-primary);border-width:2px}`,
    `${variant} .MuiRadio-root:has(input:checked){color:${palette.primary.main}}`,
    `${variant} .MuiRadio-root:has(input:not(:checked)){color:${palette.text.secondary}}`,
    `${variant} .MuiRadio-root:has(input:checked) svg+svg{transform:scale(1)}`,
    `${variant} .MuiRadio-root:has(input:not(:checked)) svg+svg{transform:scale(0)}`,
  ].join('\n');
}

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
    fieldStates(theme),
  ].join('\n');
}

/**
 * The fields as they must be before the app runs: `placeholder=" "` on the text inputs for the
 * rules above, and no `autofocus` (public/preferences.js focuses the first field when the variant
 * is the one shown).
 */
function prepareForm(html: string): string {
  return html.replace(/<input (?![^>]*type="(?:radio|checkbox)")/g, '<input placeholder=" " ').replace(/ autofocus=""/g, '');
}

/**
 * The theme's rules as Emotion's server rendering writes them, so that the app's Emotion cache
 * takes them as already inserted when it starts (Emotion reads `data-emotion` on the page's
 * `<style>` elements): the take-over's commit then inserts only the rules the card did not use,
 * where it compiled and inserted every one (on a phone's CPU, a third of that commit). Each global
 * style (CssBaseline, the autofill keyframes) has an element of its own, as Emotion's `Global`
 * looks for it, then all the class rules are in one. A rule's name is a hash of its text, so a
 * name the app meets in another view means the same rule. `data-prerender` names the theme:
 * public/preferences.js removes them on a page of the other theme.
 */
function emotionStyles({ theme, rules }: PrerenderedVariant): string[] {
  const style = (names: string, css: string) =>
    `<style ${PRERENDER_STYLE_ATTRIBUTE}="${theme}" data-emotion="${names}">${css}</style>`;
  const isClassRule = ([name, css]: [string, string]) => css.startsWith(`.${EMOTION_KEY}-${name}`);
  const used = rules.filter(([, css]) => css !== '');
  const classes = used.filter(isClassRule);
  return [
    ...used.filter((rule) => !isClassRule(rule)).map(([name, css]) => style(`${EMOTION_KEY}-global ${name}`, css)),
    style([EMOTION_KEY, ...classes.map(([name]) => name)].join(' '), classes.map(([, css]) => css).join('')),
  ];
}

/** What one prerendered page needs: the head's styles and the body's #root content. */
export interface PrerenderedPage {
  head: string;
  root: string;
}

/** The element after the card, which the page's first frame waits for (`<link rel="expect">`). */
const CARD_END_ID = 'prerendered-end';

/** The name of a variant: `en-dark`, `pt-light`... */
export type VariantKey = `${Language}-${ThemeMode}`;

/**
 * A screen in one language and theme, as the head and #root content of its page
 * (`<screen>-<variant>.html`): the server sends the visitor's (lib/prerendered.ts `VIEW_COOKIE`).
 */
export function prerenderPage(screen: PrerenderedScreen, language: Language, theme: ThemeMode): PrerenderedPage {
  const variant = renderVariant(screen, language, theme);
  const head = [
    // No frame is painted before the whole card is parsed: a card painted half parsed (a phone's
    // parser yields now and then) is centred on its first fields, then moves up as the rest
    // arrives, a layout shift of a fifth of the screen.
    `<link rel="expect" href="#${CARD_END_ID}" blocking="render">`,
    `<style ${PRERENDER_STYLE_ATTRIBUTE}="all">${variantRules(variant)}</style>`,
    ...emotionStyles(variant),
  ].join('');
  const root = `<div ${PRERENDER_VARIANT_ATTRIBUTE}="${language}-${theme}">${prepareForm(variant.html)}</div>`;
  return { head, root: `<div class="boot" aria-hidden="true"></div>${root}<span id="${CARD_END_ID}"></span>` };
}

/** Every prerendered page, by its file name: `{ "login-en-dark.html": {...}, "signup-pt-light.html": {...}, ... }`. */
export function prerenderPages(): Record<string, PrerenderedPage> {
  const pages: Record<string, PrerenderedPage> = {};
  for (const screen of Object.keys(PRERENDERED_SCREENS) as PrerenderedScreen[])
    for (const language of LANGUAGES)
      for (const theme of THEMES) pages[`${screen}-${language}-${theme}.html`] = prerenderPage(screen, language, theme);
  return pages;
}
