/**
 * The sign-in form's rules. The sign-in screen is the first screen of most visits, so it is built
 * without react-hook-form and yup (25 KB gzip of the first load for two "required" checks); the
 * other auth screens use them (schemas.ts). The messages and the error shape are those the shared
 * form pieces read (components/FormErrorAlert.tsx, fieldError.ts).
 */
import type { FieldErrors } from 'react-hook-form';
import type { ValidationKey } from '../../components';

export type LoginValues = { email: string; password: string };
export type LoginErrors = FieldErrors<LoginValues>;

const FILL_ALL_FIELDS: ValidationKey = 'validation.fillAllFields';

/**
 * Both fields are required (a blank email counts as missing); what is sent is the email trimmed
 * and the password as typed. The server judges the credentials.
 */
export function validateLogin(values: LoginValues): { values?: LoginValues; errors: LoginErrors } {
  const email = values.email.trim();
  const errors: LoginErrors = {};
  if (email === '') errors.email = { type: 'required', message: FILL_ALL_FIELDS };
  if (values.password === '') errors.password = { type: 'required', message: FILL_ALL_FIELDS };
  if (Object.keys(errors).length > 0) return { errors };
  return { values: { email, password: values.password }, errors };
}

/** The error of a failed sign-in call, where FormErrorAlert shows it. */
export function serverError(message: string): LoginErrors {
  return { root: { server: { type: 'server', message } } } as LoginErrors;
}
