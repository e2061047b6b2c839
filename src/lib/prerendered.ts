/**
 * The screens served already rendered (sign-in, sign-up: app/prerender.tsx), as the app finds
 * them when it starts: it takes over what the visitor did before its JavaScript ran
 * (components/usePrerenderedForm.ts).
 *
 * The attribute names are shared with public/preferences.js, which says whether the page's
 * variant is the visitor's, focuses its first field and holds back a submit until the app is there.
 */
import type { Language } from './language';

export const PRERENDER_VARIANT_ATTRIBUTE = 'data-prerender-variant';
export const PRERENDER_STYLE_ATTRIBUTE = 'data-prerender';
/** Set on a prerendered form that was submitted before the app could handle it. */
export const SUBMIT_REQUESTED_ATTRIBUTE = 'data-submit-requested';

/**
 * The cookie that tells the server which prerendered page to send (`en-dark`, `pt-light`...): the
 * language and theme the visitor chose, which otherwise only the browser's storage knows. Written
 * by public/preferences.js on every page and by the app when they change; nothing else is in it.
 */
export const VIEW_COOKIE = 'storyflow_view';
const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** Keeps the view cookie on `language` and `theme`. */
export function rememberView(language: Language, theme: 'dark' | 'light'): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${VIEW_COOKIE}=${language}-${theme}; path=/; max-age=${YEAR_SECONDS}; samesite=lax`;
}

export interface PrerenderedForm {
  /** Each named field's value, as typed (a radio group's: the checked one's). */
  values: Record<string, string>;
  /** The name of the field that has the focus, if one has (read again: the one the visitor moved to since). */
  focused: string | null;
  /** The caret or selection in that field. */
  selection: { start: number; end: number } | null;
  /** The visitor submitted it (Enter, or the button) before the app ran. */
  submitRequested: boolean;
  /**
   * The same form read again, now: what was typed while React rendered in slices (index.tsx) is
   * taken too. Its fields keep their values and caret once React has removed them from the page.
   */
  again(): PrerenderedForm;
}

/** The variant on screen: the one `<html lang>` and `<html data-theme>` name (as the CSS shows it). */
function visibleVariant(): Element | null {
  const root = document.documentElement;
  const language = root.lang.toLowerCase().startsWith('pt') ? 'pt' : 'en';
  const theme = root.dataset.theme === 'light' ? 'light' : 'dark';
  return document.querySelector(`[${PRERENDER_VARIANT_ATTRIBUTE}="${language}-${theme}"]`);
}

/**
 * The prerendered form on screen as the visitor left it, or null when the page has none (any
 * screen but the first, a page that was not prerendered, tests). Read while React renders the
 * screen that replaces it: the prerendered markup is still there until React commits.
 */
export function readPrerenderedForm(): PrerenderedForm | null {
  if (typeof document === 'undefined') return null;
  const form = visibleVariant()?.querySelector('form');
  if (!form) return null;
  const inputs = Array.from(form.querySelectorAll<HTMLInputElement>('input[name]'));
  const active = document.activeElement;
  let focused = active instanceof HTMLInputElement && active.name && form.contains(active) ? active : null;
  // The visitor may move on to another field, or leave the form, while React renders: the field
  // read again at the commit is the one they are in then. (Once React has removed the card, the
  // page's focus is gone with it, so it is followed here rather than read then.)
  form.addEventListener('focusin', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.name) focused = event.target;
  });
  form.addEventListener('focusout', (event) => {
    if (event.relatedTarget instanceof Element && !form.contains(event.relatedTarget)) focused = null;
  });
  const read = (): PrerenderedForm => {
    const values: Record<string, string> = {};
    for (const input of inputs) {
      // A group of radio buttons (or a checkbox) holds the value of the one checked.
      if ((input.type === 'radio' || input.type === 'checkbox') && !input.checked) continue;
      values[input.name] = input.value;
    }
    let selection: PrerenderedForm['selection'] = null;
    try {
      if (focused && focused.selectionStart !== null && focused.selectionEnd !== null) {
        selection = { start: focused.selectionStart, end: focused.selectionEnd };
      }
    } catch {
      // an input type without a selection (email, in some browsers)
    }
    const submitRequested = form.hasAttribute(SUBMIT_REQUESTED_ATTRIBUTE);
    return { values, focused: focused?.name ?? null, selection, submitRequested, again: read };
  };
  return read();
}

/**
 * Ends the prerendered page's styles (App, on its first commit): the rules that show the card and
 * its fields' states before the app runs are removed; the theme's rules, which the app's Emotion
 * cache took as its own when it started (app/prerender.tsx), stay as Emotion's.
 */
export function removePrerenderedStyles(): void {
  if (typeof document === 'undefined') return;
  for (const style of Array.from(document.querySelectorAll(`style[${PRERENDER_STYLE_ATTRIBUTE}]`))) {
    if (style.hasAttribute('data-emotion')) style.removeAttribute(PRERENDER_STYLE_ATTRIBUTE);
    else style.remove();
  }
}
