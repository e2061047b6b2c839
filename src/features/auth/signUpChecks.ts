/**
 * The sign-up form's checks (yup's `signUpSchema` through react-hook-form's resolver): a chunk of
 * their own, which SignUpPage loads when the visitor first types or sends the form, not with the
 * screen (docs/web.md, "First load").
 */
import { yupResolver } from '@hookform/resolvers/yup';
import type { Resolver } from 'react-hook-form';
import { signUpSchema, type SignUpValues } from './schemas';

export const signUpResolver: Resolver<SignUpValues> = yupResolver(signUpSchema);
