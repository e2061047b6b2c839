import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { errorDetail, errorStatus, selectIsSignedIn, useVerifyEmailMutation } from '../../api';
import { AuthCard } from './AuthCard';

/** What the server answered for one attempt (`key`: the token and the attempt's number). */
interface Outcome {
  key: string;
  ok: boolean;
  /** The server's `detail` of a refusal (a used, expired or unknown link). */
  detail?: string;
  /** No answer, or a 5xx: the same link may work on another try. */
  retryable?: boolean;
}

/**
 * /verify-email?token=…: the page the confirmation email links to. Open whether signed in or not
 * (the link may be opened on another device). It sends the token once on opening (a ref keeps
 * React's StrictMode double effects from sending it twice), then says whether the address is
 * confirmed. A link without a token says so without asking the server.
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
