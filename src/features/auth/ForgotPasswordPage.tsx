import { yupResolver } from '@hookform/resolvers/yup';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { errorDetail, useRequestPasswordResetMutation } from '../../api';
import { FormErrorAlert, SERVER_ERROR, TextInput } from '../../components';
import { AuthCard } from './AuthCard';
import { forgotPasswordSchema, type ForgotPasswordValues } from './schemas';

/**
 * Asks for a reset link. The server answers the same for unknown emails, so the confirmation
 * only says a link is on its way if an account exists.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const [requestReset] = useRequestPasswordResetMutation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordValues>({ resolver: yupResolver(forgotPasswordSchema), defaultValues: { email: '' } });

  const onSubmit = async ({ email }: ForgotPasswordValues) => {
    try {
      await requestReset({ email }).unwrap();
      setSentTo(email);
    } catch (error) {
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('forgot.failed') });
    }
  };

  const tryAgain = () => {
    reset({ email: '' });
    setSentTo(null);
  };

  return (
    <AuthCard title={t('forgot.title')} subtitle={sentTo ? undefined : t('forgot.subtitle')}>
      {sentTo ? (
        <Stack spacing={2}>
          <Alert severity="success" role="status">
            {t('forgot.sent', { email: sentTo })}
          </Alert>
          <Button variant="outlined" onClick={tryAgain}>
            {t('forgot.tryAgain')}
          </Button>
        </Stack>
      ) : (
        <>
          <FormErrorAlert errors={errors} />
          <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)}>
            <Stack spacing={2.5}>
              <TextInput<ForgotPasswordValues>
                name="email"
                control={control}
                label={t('fields.email')}
                type="email"
                autoComplete="email"
                autoFocus
              />
              <Button type="submit" variant="contained" size="large" disabled={isSubmitting} fullWidth>
                {isSubmitting ? t('forgot.submitting') : t('forgot.submit')}
              </Button>
            </Stack>
          </Box>
        </>
      )}
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
        <Link component={RouterLink} to="/login">
          {t('forgot.backToLogin')}
        </Link>
      </Typography>
    </AuthCard>
  );
}
