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
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { errorDetail, useConfirmPasswordResetMutation } from '../../api';
import { FormErrorAlert, PasswordField, SERVER_ERROR } from '../../components';
import { AuthCard } from './AuthCard';
import { resetPasswordSchema, type ResetPasswordValues } from './schemas';

/** /reset-password?token=…: the page the reset email links to. Open whether signed in or not. */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token')?.trim() ?? '';
  const [confirmReset] = useConfirmPasswordResetMutation();
  const [done, setDone] = useState(false);
  /** The reset cleared addresses someone else may have set (server: services/auth.ts, clearOutboundUrls). */
  const [urlsCleared, setUrlsCleared] = useState(false);
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordValues>({
    resolver: yupResolver(resetPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onSubmit = async ({ password }: ResetPasswordValues) => {
    try {
      const result = await confirmReset({ token, new_password: password }).unwrap();
      setUrlsCleared(result.urls_cleared === true);
      setDone(true);
    } catch (error) {
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('reset.failed') });
    }
  };

  let content;
  if (done) {
    content = (
      <Stack spacing={2}>
        <Alert severity="success" role="status">
          {t('reset.success')}
        </Alert>
        {urlsCleared && <Alert severity="warning">{t('reset.urlsCleared')}</Alert>}
        <Button component={RouterLink} to="/login" variant="contained" size="large">
          {t('reset.goToLogin')}
        </Button>
      </Stack>
    );
  } else if (!token) {
    content = (
      <Stack spacing={2}>
        <Alert severity="error">{t('reset.missingToken')}</Alert>
        <Button component={RouterLink} to="/forgot-password" variant="outlined">
          {t('reset.requestNew')}
        </Button>
      </Stack>
    );
  } else {
    content = (
      <>
        <FormErrorAlert errors={errors} />
        <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)}>
          <Stack spacing={2.5}>
            <PasswordField<ResetPasswordValues>
              name="password"
              control={control}
              label={t('fields.newPassword')}
              autoComplete="new-password"
              autoFocus
            />
            <PasswordField<ResetPasswordValues>
              name="confirmPassword"
              control={control}
              label={t('fields.confirmPassword')}
              autoComplete="new-password"
            />
            <Button type="submit" variant="contained" size="large" disabled={isSubmitting} fullWidth>
              {isSubmitting ? t('reset.submitting') : t('reset.submit')}
            </Button>
          </Stack>
        </Box>
      </>
    );
  }

  return (
    <AuthCard title={t('reset.title')} subtitle={done ? undefined : t('reset.subtitle')}>
      {content}
      {!done && (
        <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
          <Link component={RouterLink} to="/login">
            {t('forgot.backToLogin')}
          </Link>
        </Typography>
      )}
    </AuthCard>
  );
}
