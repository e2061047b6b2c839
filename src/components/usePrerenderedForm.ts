import { useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type RefObject } from 'react';
import { readPrerenderedForm, type PrerenderedForm } from '../lib/prerendered';

/** What a screen served already rendered needs to take its prerendered form over. */
export interface PrerenderedTakeOver {
  /**
   * Each field's value as the visitor left it when the screen first rendered (the form's initial
   * values), or null when the page had no prerendered form (any screen but the first, tests).
   */
  initial: Readonly<Record<string, string>> | null;
  /**
   * The name of the field that has the focus on the prerendered card, or null. The screen gives it
   * `startsFocused` (TextInput): Material UI draws it focused from the first render, so that giving
   * the focus back at the commit renders nothing.
   */
  focused: string | null;
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
 *   every field's value then: it sets in the form's state those that differ from what it shows
 *   (the visitor typed meanwhile) and answers whether there were any. Before the first paint,
 *   once the fields show them, the field the visitor was in has the focus and the caret where it was.
 * - A submit held back before the app ran is sent through the form (`requestSubmit`: the form's
 *   own checks run, as for any submit).
 *
 * None of it renders the screen again unless `apply` changed something: on a phone's CPU a
 * render of the whole form is a long task. The screen renders `<form {...formProps}>` with
 * `TAKING_OVER_SX`, and gives its first field `autoFocus` only when `initial` is null (on a
 * prerendered page the focus is the visitor's).
 */
export function usePrerenderedForm(apply: (values: Record<string, string>) => boolean): PrerenderedTakeOver {
  const [prerendered] = useState(readPrerenderedForm);
  const form = useRef<HTMLFormElement>(null);
  /** The card as read at the commit, when `apply` changed the form's state: taken over after that render. */
  const [changed, setChanged] = useState<PrerenderedForm | null>(null);
  const [focused, setFocused] = useState(prerendered?.focused ?? null);
  const submit = useRef(false);

  /**
   * Puts the focus and caret where the visitor left them (before the first paint, and before any
   * key can reach the page without a field to type in), and asks for a held-back submit.
   */
  const finish = (now: PrerenderedForm) => {
    const input = now.focused && form.current ? fieldNamed(form.current, now.focused) : null;
    if (input) {
      input.focus();
      try {
        if (now.selection) input.setSelectionRange(now.selection.start, now.selection.end);
      } catch {
        // an email field has no selection to set
      }
    }
    submit.current = now.submitRequested;
  };

  // At the commit that replaced the card (the card's fields keep their values once React has removed them).
  useLayoutEffect(() => {
    if (!prerendered) return;
    const now = prerendered.again();
    // The visitor moved to another field while React rendered: that one is drawn focused.
    const moved = now.focused !== focused;
    if (moved) setFocused(now.focused);
    if (apply(now.values) || moved) setChanged(now);
    else finish(now);
    // Once, on mount: `prerendered` never changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // After the render `apply` asked for (a layout effect's update is rendered at once, in the same task).
  useLayoutEffect(() => {
    if (changed) finish(changed);
  }, [changed]);

  // A submit made before the app ran is sent, once the form's handler has what was typed.
  useEffect(() => {
    if (!submit.current) return;
    submit.current = false;
    form.current?.requestSubmit();
  });

  // Until a frame has been painted, nothing in the form animates. The attribute is rendered once
  // and then removed from the page directly: a state change would render the whole form again.
  const [takingOver] = useState(prerendered !== null);
  useEffect(() => {
    if (!takingOver) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => form.current?.removeAttribute('data-taking-over'));
    });
    return () => cancelAnimationFrame(frame);
  }, [takingOver]);

  return {
    initial: prerendered?.values ?? null,
    focused,
    formProps: { ref: form, 'data-taking-over': takingOver || undefined },
  };
}

/**
 * For a field drawn focused from its first render (`startsFocused`: the prerendered card's field
 * that has the focus, `PrerenderedTakeOver.focused`): `focused` for its FormControl until the
 * field first loses the focus, and the `onBlur` that notices it. Without it, the focus given back
 * at the take-over's commit would render the field again, in the same long task.
 */
export function useStartsFocused(
  startsFocused: boolean | undefined,
  onBlur?: (event: FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => void,
) {
  const [blurred, setBlurred] = useState(false);
  const focused = startsFocused && !blurred ? true : undefined;
  return {
    focused,
    onBlur: (event: FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      if (focused) setBlurred(true);
      onBlur?.(event);
    },
  };
}
