import { ValidationError, type AnySchema } from 'yup';
import { validateLogin } from './loginForm';
import { forgotPasswordSchema, resetPasswordSchema, signUpSchema } from './schemas';

/** path → first message for that path (as the form resolver shows it), or {} when valid. */
async function failures(schema: AnySchema, value: unknown): Promise<Record<string, string>> {
  try {
    await schema.validate(value, { abortEarly: false });
    return {};
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const first: Record<string, string> = {};
    for (const inner of error.inner) first[inner.path ?? ''] ??= inner.message;
    return first;
  }
}

describe('validateLogin', () => {
  /** field → message, or {} when valid. */
  const messages = (email: string, password: string) =>
    Object.fromEntries(Object.entries(validateLogin({ email, password }).errors).map(([name, error]) => [name, error?.message]));

  it('asks for every field when any is missing', () => {
    expect(messages('', '')).toEqual({ email: 'validation.fillAllFields', password: 'validation.fillAllFields' });
    expect(messages('   ', 'x')).toEqual({ email: 'validation.fillAllFields' });
  });

  it('marks missing fields as "required" (the fields then stay quiet, the alert speaks)', () => {
    expect(validateLogin({ email: '', password: 'x' }).errors.email?.type).toBe('required');
  });

  it('accepts any filled-in pair (the server judges the credentials) and trims the email', () => {
    expect(validateLogin({ email: ' ana@example.com ', password: ' x ' })).toEqual({
      errors: {},
      values: { email: 'ana@example.com', password: ' x ' },
    });
  });
});

describe('signUpSchema', () => {
  const valid = { name: 'Ana', email: 'ana@example.com', password: 'secret', plan: 'monthly' };

  it('accepts a complete form with either plan', async () => {
    expect(await failures(signUpSchema, valid)).toEqual({});
    expect(await failures(signUpSchema, { ...valid, plan: 'annual' })).toEqual({});
  });

  it('asks for every field when any is missing', async () => {
    expect(await failures(signUpSchema, { ...valid, name: ' ', email: '' })).toEqual({
      name: 'validation.fillAllFields',
      email: 'validation.fillAllFields',
    });
  });

  it('needs a password of at least 6 characters', async () => {
    expect(await failures(signUpSchema, { ...valid, password: '12345' })).toEqual({ password: 'validation.passwordTooShort' });
    expect(await failures(signUpSchema, { ...valid, password: '123456' })).toEqual({});
  });

  it('needs a valid email and a known plan', async () => {
    expect(await failures(signUpSchema, { ...valid, email: 'ana' })).toEqual({ email: 'validation.invalidEmail' });
    expect(Object.keys(await failures(signUpSchema, { ...valid, plan: 'weekly' }))).toEqual(['plan']);
  });
});

describe('forgotPasswordSchema', () => {
  it('asks for the email address', async () => {
    expect(await failures(forgotPasswordSchema, { email: '' })).toEqual({ email: 'validation.emailRequired' });
    expect(await failures(forgotPasswordSchema, { email: 'nope' })).toEqual({ email: 'validation.invalidEmail' });
    expect(await failures(forgotPasswordSchema, { email: 'ana@example.com' })).toEqual({});
  });
});

describe('resetPasswordSchema', () => {
  it('needs both fields, 6 characters and a matching confirmation', async () => {
    expect(await failures(resetPasswordSchema, { password: '', confirmPassword: '' })).toEqual({
      password: 'validation.fillAllFields',
      confirmPassword: 'validation.fillAllFields',
    });
    expect(await failures(resetPasswordSchema, { password: 'abc', confirmPassword: 'abc' })).toEqual({
      password: 'validation.passwordTooShort',
    });
    expect(await failures(resetPasswordSchema, { password: 'secret1', confirmPassword: 'secret2' })).toEqual({
      confirmPassword: 'validation.passwordsDoNotMatch',
    });
    expect(await failures(resetPasswordSchema, { password: 'secret1', confirmPassword: 'secret1' })).toEqual({});
  });
});
