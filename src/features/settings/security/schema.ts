import { object, ref, string } from 'yup';
import type { ValidationKey } from '../../../components';
import { PASSWORD_MIN_LENGTH } from '../../../lib/constants';

const fill: ValidationKey = 'validation.fillAllFields';

/** Spec §5 and §8: every field required, the new password at least 6 characters, the two equal. */
export const passwordChangeSchema = object({
  current_password: string().required(fill),
  new_password: string()
    .required(fill)
    .min(PASSWORD_MIN_LENGTH, 'validation.passwordTooShort' satisfies ValidationKey),
  confirm_password: string()
    .required(fill)
    .oneOf([ref('new_password')], 'validation.passwordsDoNotMatch' satisfies ValidationKey),
});

export interface PasswordChangeValues {
  current_password: string;
  new_password: string;
  confirm_password: string;
}

export const EMPTY_PASSWORD_CHANGE: PasswordChangeValues = { current_password: '', new_password: '', confirm_password: '' };
