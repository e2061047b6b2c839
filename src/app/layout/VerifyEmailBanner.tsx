import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, useMeQuery, useResendVerificationMutation } from '../../api';

interface Sent {
  ok: boolean;
  message: string;
}

/**
 * Above every signed-in page while the user's address is not confirmed (docs/security.md): where
 * the link went, why it matters to an administrator address, and "Send it again" (the server's
 * answer, a 202 or a 429 "try again later", shows below it). Gone once /auth/me says confirmed.
 */
export function VerifyEmailBanner() {
  const { t } = useTranslation();
  const { data: user } = useMeQuery();
  const [resend, { isLoading: sending }] = useResendVerificationMutation();
  const [sent, setSent] = useState<Sent | null>(null);

  if (!user || user.email_verified) return null;

  const sendAgain = async () => {
    setSent(null);
    try {
      const { detail } = await resend().unwrap();
      setSent({ ok: true, message: detail });
    } catch (error) {
      console.error('Failed to send the confirmation link again', error);
      setSent({ ok: false, message: errorDetail(error) ?? t('verifyEmail.resendFailed') });
    }
  };

  return (
    <Alert
      severity="warning"
      role="region"
      aria-label={t('verifyEmail.label')}
      // A long address breaks anywhere rather than overflow: at 375 px it would make the message a
      // scrolling box that a keyboard cannot reach (axe's scrollable-region-focusable).
      sx={{ mb: 3, alignItems: 'flex-start', '& .MuiAlert-message': { minWidth: 0, overflowWrap: 'anywhere' } }}
      action={
        <Button color="inherit" size="small" onClick={sendAgain} disabled={sending} sx={{ whiteSpace: 'nowrap' }}>
          {sending ? t('verifyEmail.sending') : t('verifyEmail.resend')}
        </Button>
      }
    >
      <Typography variant="body2">{t('verifyEmail.message', { email: user.email })}</Typography>
      {user.is_admin_pending && (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {t('verifyEmail.adminPending')}
        </Typography>
      )}
      {sent && (
        // The alert's own text colour: a second colour on the warning background would lose contrast.
        <Typography variant="body2" role={sent.ok ? 'status' : 'alert'} sx={{ mt: 1, fontWeight: 600 }}>
          {sent.message}
        </Typography>
      )}
    </Alert>
  );
}
