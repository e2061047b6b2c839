import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import Link from '@mui/material/Link';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { Link as RouterLink } from 'react-router-dom';
import { errorMessage, errorStatus, selectAccountDeleted, selectSessionEnded, useLoginMutation } from '../../api';
import { FormErrorAlert } from '../../components/FormErrorAlert';
import { TAKING_OVER_SX, usePrerenderedForm, useStartsFocused } from '../../components/usePrerenderedForm';
import { AuthCard } from './AuthCard';
import { serverError, validateLogin, type LoginErrors, type LoginValues } from './loginForm';

interface LoginFieldProps extends Omit<OutlinedInputProps, 'id' | 'label' | 'error' | 'onBlur'> {
  label: string;
  invalid: boolean;
  /** Drawn focused from the first render, until it loses the focus (`useStartsFocused`). */
  startsFocused: boolean;
}

/**
 * A field of the sign-in form: what components/TextInput.tsx renders, bound to the page's state
 * rather than to react-hook-form. Its only error is "required", which the alert above the form
 * states, so the field turns red without a text of its own.
 */
function LoginField({ label, invalid, startsFocused, ...input }: LoginFieldProps) {
  const id = useId();
  const focus = useStartsFocused(startsFocused);
  return (
    <FormControl fullWidth error={invalid} focused={focus.focused} variant="outlined">
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput {...input} id={id} label={label} aria-invalid={invalid} onBlur={focus.onBlur} />
    </FormControl>
  );
}

/**
 * Sign-in. On success the token lands in the store and the signed-out guard sends the visitor to
 * /dashboard (or to the page they first asked for). It behaves as the react-hook-form screens do:
 * checked on submit, then again on every change; the first missing field gets the focus; a
 * failed call's message stays until the next submit.
 */
export default function LoginPage() {
  const { t } = useTranslation(['auth', 'common']);
  const [login] = useLoginMutation();
  const sessionEnded = useSelector(selectSessionEnded);
  const accountDeleted = useSelector(selectAccountDeleted);
  // The card served already rendered, as the visitor left it before the app ran: what was typed
  // then, and again at the commit (React may have rendered this screen in slices, index.tsx).
  const { initial, focused, formProps } = usePrerenderedForm((typed) => {
    const now = { email: typed.email ?? '', password: typed.password ?? '' };
    if (now.email === values.email && now.password === values.password) return false;
    setValues(now);
    return true;
  });
  const [values, setValues] = useState<LoginValues>({ email: initial?.email ?? '', password: initial?.password ?? '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [passwordVisible, setPasswordVisible] = useState(false);
  const inputs = { email: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };

  const onChange = (name: keyof LoginValues) => (event: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [name]: event.target.value };
    setValues(next);
    if (submitted) setErrors((current) => ({ ...(current.root && { root: current.root }), ...validateLogin(next).errors }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const checked = validateLogin(values);
    // The request leaves before React renders the form's own change (the busy button).
    const request = checked.values ? login(checked.values) : undefined;
    setSubmitted(true);
    setErrors(checked.errors);
    if (!request) {
      inputs[checked.errors.email ? 'email' : 'password'].current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await request.unwrap();
    } catch (error) {
      const message =
        errorStatus(error) === 401 ? t('login.invalidCredentials') : errorMessage(error, t('common:errors.network'));
      setErrors(serverError(message));
    } finally {
      setSubmitting(false);
    }
  };

  const hasErrors = Object.keys(errors).length > 0;
  const toggleLabel = passwordVisible ? t('common:password.hide') : t('common:password.show');
  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      {accountDeleted && !hasErrors && (
        <Alert severity="success" sx={{ mb: 2 }}>
          {t('login.accountDeleted')}
        </Alert>
      )}
      {sessionEnded && !hasErrors && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('login.sessionEnded')}
        </Alert>
      )}
      <FormErrorAlert errors={errors} />
      <Box component="form" {...formProps} noValidate onSubmit={onSubmit} sx={TAKING_OVER_SX}>
        <Stack spacing={2.5}>
          <LoginField
            label={t('fields.email')}
            invalid={!!errors.email}
            name="email"
            type="email"
            autoComplete="email"
            autoFocus={!initial}
            startsFocused={focused === 'email'}
            value={values.email}
            onChange={onChange('email')}
            inputRef={inputs.email}
          />
          <LoginField
            label={t('fields.password')}
            invalid={!!errors.password}
            name="password"
            type={passwordVisible ? 'text' : 'password'}
            autoComplete="current-password"
            startsFocused={focused === 'password'}
            value={values.password}
            onChange={onChange('password')}
            inputRef={inputs.password}
            endAdornment={
              <InputAdornment position="end">
                <IconButton
                  aria-label={toggleLabel}
                  onClick={() => setPasswordVisible((visible) => !visible)}
                  onMouseDown={(event) => event.preventDefault()}
                  edge="end"
                >
                  {passwordVisible ? <VisibilityOff /> : <Visibility />}
                </IconButton>
              </InputAdornment>
            }
          />
          <Box sx={{ textAlign: 'right', mt: '8px !important' }}>
            <Link component={RouterLink} to="/forgot-password" variant="body2">
              {t('login.forgotPassword')}
            </Link>
          </Box>
          <Button type="submit" variant="contained" size="large" disabled={submitting} fullWidth>
            {submitting ? t('login.submitting') : t('login.submit')}
          </Button>
        </Stack>
      </Box>
      <Typography variant="body2" color="textSecondary" sx={{ mt: 3, textAlign: 'center' }}>
        {t('login.noAccount')}{' '}
        <Link component={RouterLink} to="/signup">
          {t('login.signUp')}
        </Link>
      </Typography>
    </AuthCard>
  );
}
