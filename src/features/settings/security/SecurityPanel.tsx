import { yupResolver } from '@hookform/resolvers/yup';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorDetail, useChangePasswordMutation } from '../../../api';
import { FormErrorAlert, PasswordField } from '../../../components';
import { PASSWORD_MIN_LENGTH } from '../../../lib/constants';
import type { PanelProps } from '../banner';
import { PanelHeader } from '../PanelHeader';
import { EMPTY_PASSWORD_CHANGE, passwordChangeSchema, type PasswordChangeValues } from './schema';
import { SessionsCard } from './SessionsCard';

/**
 * Settings › Security: the password change (current, new, confirm, each with show/hide), through
 * PUT /auth/password. The server ends every other session and answers a new token for this one.
 * Below it, the signed-in devices (SessionsCard).
 */
export function SecurityPanel({ banner }: PanelProps) {
  const { t } = useTranslation(['settings', 'common']);
  const [changePassword] = useChangePasswordMutation();
  const {
    control,
    handleSubmit,
    reset,
    formState: { isSubmitting, errors },
  } = useForm<PasswordChangeValues>({
    resolver: yupResolver(passwordChangeSchema),
    mode: 'onTouched',
    defaultValues: EMPTY_PASSWORD_CHANGE,
  });

  const onSubmit = async (values: PasswordChangeValues) => {
    banner.clear();
    try {
      await changePassword({ current_password: values.current_password, new_password: values.new_password }).unwrap();
      reset(EMPTY_PASSWORD_CHANGE);
      banner.show('success', t('security.messages.updated'));
    } catch (failure) {
      console.error('Failed to change the password', failure);
      banner.show('error', errorDetail(failure) ?? t('security.messages.updateFailed'));
    }
  };

  const field = (name: keyof PasswordChangeValues, autoComplete: string, helperText?: string) => {
    const label = t(`security.${name}`);
    return (
      <PasswordField<PasswordChangeValues>
        name={name}
        control={control}
        label={label}
        required
        autoComplete={autoComplete}
        helperText={helperText}
        toggleLabels={{ show: t('common:secret.show', { field: label }), hide: t('common:secret.hide', { field: label }) }}
      />
    );
  };

  return (
    <>
      <PanelHeader title={t('menu.security')} subtitle={t('security.subtitle')} />
      <Paper variant="outlined" component="form" noValidate onSubmit={handleSubmit(onSubmit)} sx={{ p: 2.5, maxWidth: 640 }}>
        <FormErrorAlert errors={errors} />
        <Stack spacing={2.5}>
          {field('current_password', 'current-password')}
          {field('new_password', 'new-password', t('security.newPasswordHint', { min: PASSWORD_MIN_LENGTH }))}
          {field('confirm_password', 'new-password')}
          <Typography variant="body2" color="textSecondary">
            {t('security.otherSessions')}
          </Typography>
          <Box>
            <Button type="submit" variant="contained" disabled={isSubmitting}>
              {isSubmitting ? t('common:actions.saving') : t('security.save')}
            </Button>
          </Box>
        </Stack>
      </Paper>
      <SessionsCard banner={banner} />
    </>
  );
}
