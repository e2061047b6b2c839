import { object, string } from 'yup';
import type { User } from '../../../api';
import type { ValidationKey } from '../../../components';

const required: ValidationKey = 'validation.required';

/** Spec §5: name and email required; the time zone places publication times. */
export const profileSchema = object({
  name: string().trim().required(required).max(200),
  email: string()
    .trim()
    .required(required)
    .email('validation.invalidEmail' satisfies ValidationKey)
    .max(320),
  time_zone: string().trim().required(required),
});

export interface ProfileValues {
  name: string;
  email: string;
  time_zone: string;
}

export function profileValuesOf(user: User): ProfileValues {
  return { name: user.name, email: user.email, time_zone: user.time_zone };
}
