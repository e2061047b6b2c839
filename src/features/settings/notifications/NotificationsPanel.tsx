import { yupResolver } from '@hookform/resolvers/yup';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  errorDetail,
  useGetNotificationSettingsQuery,
  useTestWebhookMutation,
  useUpdateNotificationSettingsMutation,
  type NotificationSettings,
} from '../../../api';
import { FormErrorAlert, LoadErrorAlert, PasswordField, SERVER_ERROR, TextInput } from '../../../components';
import { ListSkeleton } from '../../../components/Skeletons';
import type { PanelProps, SettingsBanner } from '../banner';
import { PanelHeader } from '../PanelHeader';
import {
  ALERT_CAUSES,
  formValuesOf,
  notificationSchema,
  updateBody,
  type AlertCause,
  type NotificationFormValues,
} from './schema';

/**
 * Settings › Notifications (docs/engine.md, "Alerts"): which causes the owner is told about, by
 * email and on an optional webhook (Slack/Discord-compatible, signed when a secret is set), and a
 * test message to the saved webhook.
 */
export function NotificationsPanel({ banner }: PanelProps) {
  const { t } = useTranslation('settings');
  const { data, error, isLoading, isFetching, refetch } = useGetNotificationSettingsQuery();

  let content;
  if (isLoading) content = <ListSkeleton rows={4} />;
  else if (!data)
    content = (
      <LoadErrorAlert
        message={t('notifications.loadFailed')}
        reason={errorDetail(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  else content = <NotificationsForm settings={data} banner={banner} />;
  return (
    <>
      <PanelHeader title={t('menu.notifications')} subtitle={t('notifications.subtitle')} />
      {content}
    </>
  );
}

/** One cause: its name, one line on when it is sent, and the switch. */
function CauseSwitch({ cause, control }: { cause: AlertCause; control: Control<NotificationFormValues> }) {
  const { t } = useTranslation('settings');
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <Controller
      name={cause}
      control={control}
      render={({ field }) => (
        <Box component="li" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, py: 1 }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography component="label" htmlFor={id} sx={{ fontWeight: 500, display: 'block' }}>
              {t(`notifications.causes.${cause}.label`)}
            </Typography>
            <Typography id={hintId} variant="body2" color="textSecondary">
              {t(`notifications.causes.${cause}.hint`)}
            </Typography>
          </Box>
          <Switch
            id={id}
            name={field.name}
            checked={field.value}
            onChange={(event) => field.onChange(event.target.checked)}
            onBlur={field.onBlur}
            slotProps={{ input: { ref: field.ref, 'aria-describedby': hintId } }}
          />
        </Box>
      )}
    />
  );
}

interface TestOutcome {
  delivered: boolean;
  message: string;
}

function NotificationsForm({ settings, banner }: { settings: NotificationSettings; banner: SettingsBanner }) {
  const { t } = useTranslation(['settings', 'common']);
  const [updateSettings] = useUpdateNotificationSettingsMutation();
  const [testWebhook, { isLoading: testing }] = useTestWebhookMutation();
  const [tested, setTested] = useState<TestOutcome | null>(null);
  const {
    control,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    formState: { errors, dirtyFields, isDirty, isSubmitting },
  } = useForm<NotificationFormValues>({
    resolver: yupResolver(notificationSchema),
    mode: 'onTouched',
    defaultValues: formValuesOf(settings),
  });
  const clearSecret = useWatch({ control, name: 'clear_webhook_secret' });
  const savedUrl = settings.webhook_url;
  const secretLabel = t('notifications.webhook.secret');

  const onSave = async (values: NotificationFormValues) => {
    banner.clear();
    clearErrors(SERVER_ERROR);
    try {
      const saved = await updateSettings(updateBody(values, dirtyFields)).unwrap();
      reset(formValuesOf(saved));
      banner.show('success', t('notifications.messages.saved'));
    } catch (error) {
      console.error('Failed to save the notification settings', error);
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('notifications.messages.saveFailed') });
    }
  };

  const onTest = async () => {
    banner.clear();
    setTested(null);
    try {
      const result = await testWebhook().unwrap();
      setTested({ delivered: result.delivered, message: result.detail });
    } catch (error) {
      console.error('Failed to test the webhook', error);
      setTested({ delivered: false, message: errorDetail(error) ?? t('notifications.messages.testFailed') });
    }
  };

  return (
    <Paper variant="outlined" component="form" noValidate onSubmit={handleSubmit(onSave)} sx={{ p: 2.5, maxWidth: 720 }}>
      <FormErrorAlert errors={errors} />
      <Stack spacing={3}>
        <Box component="section" aria-labelledby="notifications-causes">
          <Typography id="notifications-causes" component="h3" sx={{ fontWeight: 600 }}>
            {t('notifications.causes.title')}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {t('notifications.causes.hint')}
          </Typography>
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
            {ALERT_CAUSES.map((cause) => (
              <CauseSwitch key={cause} cause={cause} control={control} />
            ))}
          </Box>
        </Box>
        <Divider />
        <Box component="section" aria-labelledby="notifications-webhook">
          <Typography id="notifications-webhook" component="h3" sx={{ fontWeight: 600 }}>
            {t('notifications.webhook.title')}
          </Typography>
          <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
            {t('notifications.webhook.hint')}
          </Typography>
          <Stack spacing={2.5}>
            <TextInput<NotificationFormValues>
              name="webhook_url"
              control={control}
              label={t('notifications.webhook.url')}
              type="url"
              placeholder="https://hooks.slack.com/services/…"
              autoComplete="off"
              helperText={t('notifications.webhook.urlHint')}
              inputProps={{ spellCheck: false }}
            />
            <Box>
              <PasswordField<NotificationFormValues>
                name="webhook_secret"
                control={control}
                label={secretLabel}
                autoComplete="new-password"
                disabled={clearSecret}
                placeholder={settings.has_webhook_secret ? settings.webhook_secret_masked : undefined}
                helperText={
                  settings.has_webhook_secret
                    ? t('notifications.webhook.storedSecret', { masked: settings.webhook_secret_masked })
                    : t('notifications.webhook.secretHint')
                }
                toggleLabels={{
                  show: t('common:secret.show', { field: secretLabel }),
                  hide: t('common:secret.hide', { field: secretLabel }),
                }}
                inputProps={{ spellCheck: false }}
              />
              {settings.has_webhook_secret && (
                <Controller
                  name="clear_webhook_secret"
                  control={control}
                  render={({ field }) => (
                    <FormControlLabel
                      sx={{ mt: 0.5 }}
                      control={
                        <Checkbox
                          checked={field.value}
                          onChange={(event) => field.onChange(event.target.checked)}
                          onBlur={field.onBlur}
                          slotProps={{ input: { ref: field.ref } }}
                        />
                      }
                      label={t('notifications.webhook.clearSecret')}
                    />
                  )}
                />
              )}
            </Box>
          </Stack>
        </Box>
        {tested && (
          <Alert
            severity={tested.delivered ? 'success' : 'error'}
            role={tested.delivered ? 'status' : 'alert'}
            onClose={() => setTested(null)}
            closeText={t('common:actions.dismiss')}
          >
            {tested.message}
          </Alert>
        )}
        <Box>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
            <Button type="submit" variant="contained" disabled={isSubmitting || !isDirty}>
              {isSubmitting ? t('common:actions.saving') : t('notifications.save')}
            </Button>
            <Button
              variant="outlined"
              onClick={onTest}
              disabled={!savedUrl || testing || isSubmitting}
              aria-describedby="notifications-test-hint"
            >
              {testing ? t('notifications.testing') : t('notifications.test')}
            </Button>
            <Button color="inherit" disabled={isSubmitting || !isDirty} onClick={() => reset(formValuesOf(settings))}>
              {t('notifications.discard')}
            </Button>
          </Box>
          <Typography id="notifications-test-hint" variant="body2" color="textSecondary" sx={{ mt: 1 }}>
            {savedUrl ? t('notifications.testHint', { url: savedUrl }) : t('notifications.testNeedsUrl')}
          </Typography>
        </Box>
      </Stack>
    </Paper>
  );
}
