/**
 * Yup schemas of the auth screens (the sign-in form's rules are in loginForm.ts). Messages are translation keys of common's `validation` group
 * (see components/fieldError.ts); the fields translate them in the active language.
 */
import { object, ref, string } from 'yup';
import type { ValidationKey } from '../../components';
import { BILLING_PERIODS, PASSWORD_MIN_LENGTH, type BillingPeriod } from '../../lib/constants';

const message = (key: ValidationKey) => key;

/** Required text; blanks count as missing. */
const requiredText = (key: ValidationKey) => string().trim().required(message(key));
const email = (requiredKey: ValidationKey) => requiredText(requiredKey).email(message('validation.invalidEmail'));
const newPassword = (requiredKey: ValidationKey) =>
  string().required(message(requiredKey)).min(PASSWORD_MIN_LENGTH, message('validation.passwordTooShort'));

export const signUpSchema = object({
  name: requiredText('validation.fillAllFields'),
  email: email('validation.fillAllFields'),
  password: newPassword('validation.fillAllFields'),
  plan: string<BillingPeriod>().oneOf(BILLING_PERIODS).required(message('validation.fillAllFields')),
});
export type SignUpValues = { name: string; email: string; password: string; plan: BillingPeriod };

export const forgotPasswordSchema = object({
  email: email('validation.emailRequired'),
});
export type ForgotPasswordValues = { email: string };

export const resetPasswordSchema = object({
  password: newPassword('validation.fillAllFields'),
  confirmPassword: string()
    .required(message('validation.fillAllFields'))
    .oneOf([ref('password')], message('validation.passwordsDoNotMatch')),
});
export type ResetPasswordValues = { password: string; confirmPassword: string };

/** The account's password that confirms an administrator address (/verify-email). */
export const adminConfirmSchema = object({
  password: string().required(message('validation.fillAllFields')),
});
export type AdminConfirmValues = { password: string };
