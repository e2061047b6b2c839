import { object, string } from 'yup';
import type { User } from '../../../api';
import type { ValidationKey } from '../../../components';

const required: ValidationKey = 'validation.fillAllFields';

/** How the server compares addresses: a change of case or of spaces around it is no change. */
export function emailChanged(email: string | undefined, currentEmail: string | undefined): boolean {
  const normalize = (value: string | undefined) => (value ?? '').trim().toLowerCase();
  return normalize(email) !== normalize(currentEmail);
}

/**
 * Spec §5: name and email required; the time zone places publication times. A new email also
 * needs the current password (the server answers 422 without it); the context value
 * `currentEmail` is the address the account has now.
 */
export const profileSchema = object({
  name: string().trim().required(required).max(200),
  email: string()
    .trim()
    .required(required)
    .email('validation.invalidEmail' satisfies ValidationKey)
    .max(320),
  time_zone: string().trim().required(required),
  current_password: string()
    .default('')
    .when(['email', '$currentEmail'], ([email, currentEmail]: (string | undefined)[], schema) =>
      emailChanged(email, currentEmail) ? schema.required('validation.currentPasswordRequired' satisfies ValidationKey) : schema,
    ),
});

export interface ProfileValues {
  name: string;
  email: string;
  time_zone: string;
  /** Asked for only while the email differs from the account's. */
  current_password: string;
}

export function profileValuesOf(user: User): ProfileValues {
  return { name: user.name, email: user.email, time_zone: user.time_zone, current_password: '' };
}
