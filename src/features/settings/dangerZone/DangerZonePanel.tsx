import { yupResolver } from '@hookform/resolvers/yup';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { object, string } from 'yup';
import { errorDetail, useDeleteAccountMutation, useMeQuery } from '../../../api';
import { FormErrorAlert, PasswordField, SERVER_ERROR, type ValidationKey } from '../../../components';
import { FormDialog } from '../../../components/FormDialog';
import type { PanelProps } from '../banner';
import { PanelHeader } from '../PanelHeader';

const LOSES = ['processes', 'channels', 'connections', 'history'] as const;

const confirmSchema = object({ password: string().required('validation.fillAllFields' satisfies ValidationKey) });
type ConfirmValues = { password: string };

/**
 * Settings › Danger zone: deleting the account, confirmed in a dialog that asks for the password.
 * Once the server has deleted it the session ends and the login screen says the account is gone.
 */
export function DangerZonePanel({ banner }: PanelProps) {
  const { t } = useTranslation(['settings', 'common']);
  const { data: user } = useMeQuery();
  const [open, setOpen] = useState(false);
  const [deleteAccount] = useDeleteAccountMutation();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ConfirmValues>({ resolver: yupResolver(confirmSchema), defaultValues: { password: '' } });

  const close = () => {
    setOpen(false);
    reset({ password: '' });
  };

  const onConfirm = async (values: ConfirmValues) => {
    banner.clear();
    try {
      await deleteAccount({ password: values.password }).unwrap();
      // The session is over: the guard takes the visitor to the login screen.
    } catch (failure) {
      console.error('Failed to delete the account', failure);
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(failure) ?? t('dangerZone.deleteFailed') });
    }
  };

  const passwordLabel = t('dangerZone.password');
  return (
    <>
      <PanelHeader title={t('menu.dangerZone')} subtitle={t('dangerZone.subtitle')} />
      <Paper variant="outlined" sx={{ p: 2.5, borderColor: 'error.main', maxWidth: 720 }}>
        <Stack spacing={1.5}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'error.main' }}>
            <WarningAmberOutlined aria-hidden />
            <Typography component="h3" variant="h6" sx={{ fontWeight: 600 }}>
              {t('dangerZone.deleteTitle')}
            </Typography>
          </Box>
          <Typography variant="body2">{t('dangerZone.deleteIntro')}</Typography>
          <List dense disablePadding sx={{ listStyle: 'disc', pl: 3 }}>
            {LOSES.map((item) => (
              <ListItem key={item} disableGutters sx={{ display: 'list-item', py: 0 }}>
                <ListItemText primary={t(`dangerZone.loses.${item}`)} />
              </ListItem>
            ))}
          </List>
          <Typography variant="body2" color="textSecondary">
            {t('dangerZone.youtubeStays')}
          </Typography>
          <Box>
            <Button variant="contained" color="error" onClick={() => setOpen(true)}>
              {t('dangerZone.deleteButton')}
            </Button>
          </Box>
        </Stack>
      </Paper>
      <FormDialog
        open={open}
        title={t('dangerZone.dialog.title', { email: user?.email ?? '' })}
        onSubmit={handleSubmit(onConfirm)}
        onClose={close}
        saving={isSubmitting}
        submitLabel={t('dangerZone.dialog.confirm')}
        savingLabel={t('common:actions.deleting')}
        destructive
        maxWidth="xs"
      >
        <Stack spacing={2}>
          <FormErrorAlert errors={errors} />
          <Typography variant="body2">{t('dangerZone.dialog.message')}</Typography>
          <PasswordField<ConfirmValues>
            name="password"
            control={control}
            label={passwordLabel}
            required
            autoFocus
            autoComplete="current-password"
            toggleLabels={{
              show: t('common:secret.show', { field: passwordLabel }),
              hide: t('common:secret.hide', { field: passwordLabel }),
            }}
          />
        </Stack>
      </FormDialog>
    </>
  );
}
