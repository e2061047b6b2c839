import { yupResolver } from '@hookform/resolvers/yup';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { errorDetail, errorStatus, selectIsSignedIn, useVerifyEmailMutation, type ApiError } from '../../api';
import { FormErrorAlert, PasswordField, SERVER_ERROR } from '../../components';
import { AuthCard } from './AuthCard';
import { adminConfirmSchema, type AdminConfirmValues } from './schemas';

/** What the server answered for one attempt (`key`: the token and the attempt's number). */
interface Outcome {
  key: string;
  ok: boolean;
  /** The server's `detail` of a refusal (a used, expired or unknown link). */
  detail?: string;
  /** No answer, or a 5xx: the same link may work on another try. */
  retryable?: boolean;
  /** The link is for an administrator address: the account's password must come with it. */
  passwordRequired?: boolean;
}

/** Whether the server refused because the account's password must come with the link. */
function needsPassword(error: unknown): boolean {
  const data = (error as Partial<ApiError> | undefined)?.data;
  return errorStatus(error) === 422 && typeof data === 'object' && data !== null && 'password_required' in data;
}

/**
 * The password step of an administrator address: the server refused the link alone (the token
 * never confirms an admin address by itself), so the account's password is asked for and sent
 * with the same link. A wrong one is said at the top of the form; the link stays valid.
 */
function AdminPasswordForm({ token, reason, onConfirmed }: { token: string; reason?: string; onConfirmed: () => void }) {
  const { t } = useTranslation(['auth', 'common']);
  const [verifyEmail] = useVerifyEmailMutation();
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AdminConfirmValues>({ resolver: yupResolver(adminConfirmSchema), defaultValues: { password: '' } });

  const onSubmit = async ({ password }: AdminConfirmValues) => {
    try {
      await verifyEmail({ token, password }).unwrap();
      onConfirmed();
    } catch (error) {
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('verify.failed') });
    }
  };

  return (
    <Stack spacing={2}>
      {reason && (
        <Alert severity="info" role="note">
          {reason}
        </Alert>
      )}
      <FormErrorAlert errors={errors} />
      <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <Stack spacing={2.5}>
          <PasswordField<AdminConfirmValues>
            name="password"
            control={control}
            label={t('verify.password')}
            autoComplete="current-password"
            autoFocus
          />
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting} fullWidth>
            {isSubmitting ? t('verify.confirming') : t('verify.confirm')}
          </Button>
        </Stack>
      </Box>
    </Stack>
  );
}

/**
 * /verify-email?token=…: the page the confirmation email links to. Open whether signed in or not
 * (the link may be opened on another device). It sends the token once on opening (a ref keeps
 * React's StrictMode double effects from sending it twice), then says whether the address is
 * confirmed. A link without a token says so without asking the server. For an administrator
 * address the server asks for the account's password (422, `password_required`): the page asks
 * for it and sends it with the link.
 */
export default function VerifyEmailPage() {
  const { t } = useTranslation(['auth', 'common']);
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const signedIn = useSelector(selectIsSignedIn);
  const [verifyEmail] = useVerifyEmailMutation();
  const [attempt, setAttempt] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const sent = useRef<string | null>(null);
  const key = `${attempt}:${token}`;

  useEffect(() => {
    if (!token || sent.current === key) return;
    sent.current = key;
    verifyEmail({ token })
      .unwrap()
      .then(
        () => setOutcome({ key, ok: true }),
        (error: unknown) => {
          const status = errorStatus(error);
          setOutcome({
            key,
            ok: false,
            detail: errorDetail(error),
            retryable: status === undefined || status >= 500,
            passwordRequired: needsPassword(error),
          });
        },
      );
  }, [token, key, verifyEmail]);

  const current = outcome?.key === key ? outcome : null;
  const next = signedIn ? { to: '/dashboard', label: t('verify.goToDashboard') } : { to: '/login', label: t('verify.goToLogin') };

  let content;
  if (!token) {
    content = (
      <Stack spacing={2}>
        <Alert severity="error">{t('verify.missingToken')}</Alert>
        <Button component={RouterLink} to={next.to} variant="outlined">
          {next.label}
        </Button>
      </Stack>
    );
  } else if (!current) {
    content = (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, py: 1 }}>
        <CircularProgress size={28} aria-label={t('verify.verifying')} />
        <Typography color="textSecondary">{t('verify.verifying')}</Typography>
      </Box>
    );
  } else if (current.ok) {
    content = (
      <Stack spacing={2}>
        <Alert severity="success" role="status">
          {t('verify.success')}
        </Alert>
        <Button component={RouterLink} to={next.to} variant="contained" size="large">
          {next.label}
        </Button>
      </Stack>
    );
  } else if (current.passwordRequired) {
    content = <AdminPasswordForm token={token} reason={current.detail} onConfirmed={() => setOutcome({ key, ok: true })} />;
  } else {
    content = (
      <Stack spacing={2}>
        <Alert
          severity="error"
          role="alert"
          action={
            current.retryable ? (
              <Button color="inherit" size="small" onClick={() => setAttempt((n) => n + 1)}>
                {t('common:actions.retry')}
              </Button>
            ) : undefined
          }
        >
          {current.detail ?? t('verify.failed')}
        </Alert>
        <Button component={RouterLink} to={next.to} variant="outlined">
          {next.label}
        </Button>
      </Stack>
    );
  }

  return (
    <AuthCard title={t('verify.title')} subtitle={current?.ok ? undefined : t('verify.subtitle')}>
      {content}
    </AuthCard>
  );
}
