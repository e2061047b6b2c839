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
 * A form that sums up missing fields in one message (e.g. "Please fill in all fields") passes
 * `hideRequiredText` to its fields: they turn red without repeating that message.
 */
export function visibleFieldError(
  t: TFunction<'common'>,
  error: FieldError | undefined,
  hideRequiredText: boolean | undefined,
): string | undefined {
  if (hideRequiredText && error?.type === 'required') return undefined;
  return translateFieldError(t, error);
}
