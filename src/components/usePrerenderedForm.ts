import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { readPrerenderedForm, type PrerenderedForm } from '../lib/prerendered';

/** What a screen served already rendered needs to take its prerendered form over. */
export interface PrerenderedTakeOver {
  /**
   * Each field's value as the visitor left it when the screen first rendered (the form's initial
   * values), or null when the page had no prerendered form (any screen but the first, tests).
   */
  initial: Readonly<Record<string, string>> | null;
  /** Spread on the form element: its ref, and `data-taking-over` until a frame has been painted. */
  formProps: { ref: RefObject<HTMLFormElement | null>; 'data-taking-over': true | undefined };
}

/**
 * The form's style while it takes over: nothing in it animates (the labels and outlines that
 * React's fields bring to their focused and filled states are where the prerendered ones were).
 */
export const TAKING_OVER_SX = { '&[data-taking-over] *': { transition: 'none !important' } } as const;

/** The field named `name` in `form`: for radio buttons, the checked one. */
function fieldNamed(form: HTMLFormElement, name: string): HTMLInputElement | null {
  const fields = Array.from(form.querySelectorAll('input')).filter((input) => input.name === name);
  return fields.find((input) => input.checked) ?? fields[0] ?? null;
}

/**
 * Takes over the form of a screen served already rendered (app/prerender.tsx, docs/web.md "First
 * load") without a visible change: the visitor may have typed, moved the focus and submitted
 * before the app's JavaScript ran, and may go on typing while React renders in slices (index.tsx).
 *
 * - `initial` is what was typed when the screen first rendered: the form's initial values.
 * - At the commit that replaced the prerendered card, the card is read again and `apply` gets
 *   every field's value then (set them in the form's state: they differ from `initial` only if the
 *   visitor typed meanwhile); before the first paint, the field the visitor was in has the focus
 *   and the caret where it was.
 * - A submit held back before the app ran is sent through the form (`requestSubmit`: the form's
 *   own checks run, as for any submit).
 *
 * The screen renders `<form {...formProps}>` with `TAKING_OVER_SX`, and gives its first field
 * `autoFocus` only when `initial` is null (on a prerendered page the focus is the visitor's).
 */
export function usePrerenderedForm(apply: (values: Record<string, string>) => void): PrerenderedTakeOver {
  const [prerendered] = useState(readPrerenderedForm);
  const form = useRef<HTMLFormElement>(null);
  const [takenOver, setTakenOver] = useState<PrerenderedForm | null>(null);

  // At the commit that replaced the card (the card's fields keep their values once React has removed them).
  useLayoutEffect(() => {
    if (!prerendered) return;
    const now = prerendered.again();
    apply(now.values);
    setTakenOver(now);
    // Once, on mount: `prerendered` never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Before the first paint, the fields holding what was typed: the focus and caret stay where they were.
  useLayoutEffect(() => {
    const name = takenOver?.focused;
    const input = name && form.current ? fieldNamed(form.current, name) : null;
    if (!input) return;
    input.focus();
    const selection = takenOver?.selection;
    try {
      if (selection) input.setSelectionRange(selection.start, selection.end);
    } catch {
      // an email field has no selection to set
    }
  }, [takenOver]);

  // Until a frame has been painted, nothing in the form animates.
  const [takingOver, setTakingOver] = useState(prerendered !== null);
  useEffect(() => {
    if (!takingOver) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => setTakingOver(false));
    });
    return () => cancelAnimationFrame(frame);
  }, [takingOver]);

  // A submit made before the app ran is sent.
  const resumedSubmit = useRef(false);
  useEffect(() => {
    if (!takenOver?.submitRequested || resumedSubmit.current) return;
    resumedSubmit.current = true;
    form.current?.requestSubmit();
  }, [takenOver]);

  return {
    initial: prerendered?.values ?? null,
    formProps: { ref: form, 'data-taking-over': takingOver || undefined },
  };
}
