import type { TFunction, TypeOptions } from 'i18next';
import type { FieldError } from 'react-hook-form';

/**
 * Form schemas put keys of common's `validation` group in their messages (e.g.
 * "validation.passwordTooShort"); fields translate them when they render, so a message follows a
 * language switch.
 */
export type ValidationKey = `validation.${keyof TypeOptions['resources']['common']['validation'] & string}`;

export function translateFieldError(t: TFunction<'common'>, error: FieldError | undefined): string | undefined {
  const message = error?.message;
  if (!message) return undefined;
  return message.startsWith('validation.') ? t(message as ValidationKey) : message;
}

/**
 * One rule for every form (docs/decisions.md, "Form errors"): a missing field turns red without
 * text of its own, because the form's `FormErrorAlert` says "Please fill in all fields" once, at
 * the top; every other error sits under its field.
 */
export function visibleFieldError(t: TFunction<'common'>, error: FieldError | undefined): string | undefined {
  if (error?.type === 'required') return undefined;
  return translateFieldError(t, error);
}

/** The first missing field of a form, nested fields (arrays, objects) included. */
export function firstRequiredError(errors: unknown): FieldError | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  const error = errors as Partial<FieldError>;
  if (error.type === 'required') return error as FieldError;
  for (const [key, value] of Object.entries(errors)) {
    if (key === 'ref' || key === 'root' || key === 'types') continue;
    const found = firstRequiredError(value);
    if (found) return found;
  }
  return undefined;
}
