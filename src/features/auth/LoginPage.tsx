import { yupResolver } from '@hookform/resolvers/yup';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { Link as RouterLink } from 'react-router-dom';
import { errorMessage, errorStatus, selectAccountDeleted, selectSessionEnded, useLoginMutation } from '../../api';
import { FormErrorAlert, PasswordField, SERVER_ERROR, TextInput } from '../../components';
import { AuthCard } from './AuthCard';
import { loginSchema, type LoginValues } from './schemas';

/**
 * Sign-in. On success the token lands in the store and the signed-out guard sends the visitor to
 * /dashboard (or to the page they first asked for).
 */
export default function LoginPage() {
  const { t } = useTranslation(['auth', 'common']);
  const [login] = useLoginMutation();
  const sessionEnded = useSelector(selectSessionEnded);
  const accountDeleted = useSelector(selectAccountDeleted);
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({ resolver: yupResolver(loginSchema), defaultValues: { email: '', password: '' } });

  const onSubmit = async (values: LoginValues) => {
    try {
      await login(values).unwrap();
    } catch (error) {
      const message =
        errorStatus(error) === 401 ? t('login.invalidCredentials') : errorMessage(error, t('common:errors.network'));
      setError(SERVER_ERROR, { type: 'server', message });
    }
  };

  const hasErrors = Object.keys(errors).length > 0;
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
      <Box component="form" noValidate onSubmit={handleSubmit(onSubmit)}>
        <Stack spacing={2.5}>
          <TextInput<LoginValues>
            name="email"
            control={control}
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            autoFocus
            hideRequiredText
          />
          <PasswordField<LoginValues>
            name="password"
            control={control}
            label={t('fields.password')}
            autoComplete="current-password"
            hideRequiredText
          />
          <Box sx={{ textAlign: 'right', mt: '8px !important' }}>
            <Link component={RouterLink} to="/forgot-password" variant="body2">
              {t('login.forgotPassword')}
            </Link>
          </Box>
          <Button type="submit" variant="contained" size="large" disabled={isSubmitting} fullWidth>
            {isSubmitting ? t('login.submitting') : t('login.submit')}
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
