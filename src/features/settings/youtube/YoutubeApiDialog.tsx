import { yupResolver } from '@hookform/resolvers/yup';
import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorDetail, useCreateYoutubeApiMutation, useUpdateYoutubeApiMutation, type YoutubeApi } from '../../../api';
import { FormErrorAlert, PasswordField, SERVER_ERROR, TextInput } from '../../../components';
import { FormDialog } from '../../../components/FormDialog';
import { AppSetupHint } from '../AppSetupHint';
import { createBody, formValuesOf, updateBody, youtubeApiSchema, type YoutubeApiFormValues } from './schema';

export const GOOGLE_CREDENTIALS_URL = 'https://console.cloud.google.com/apis/credentials';

export interface YoutubeApiDialogProps {
  /** The configuration to edit; none to add one. */
  config?: YoutubeApi;
  /** The list answer's `oauth_redirect_uri`, to register in the Google console. */
  redirectUri?: string;
  /** Runs before each submit (the page clears its banner). */
  beforeSubmit?: () => void;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Adds or edits a YouTube API configuration. Secrets are masked, and blank keeps them on edit;
 * a client secret the server can no longer read (its secret changed) must be typed again.
 */
export function YoutubeApiDialog({ config, redirectUri, beforeSubmit, onClose, onSaved }: YoutubeApiDialogProps) {
  const { t } = useTranslation(['settings', 'common']);
  const editing = config !== undefined;
  const secretRequired = !editing || !config.has_client_secret;
  const [createConfig] = useCreateYoutubeApiMutation();
  const [updateConfig] = useUpdateYoutubeApiMutation();
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<YoutubeApiFormValues>({
    resolver: yupResolver(youtubeApiSchema(secretRequired)),
    defaultValues: formValuesOf(config),
  });

  const onSubmit = async (values: YoutubeApiFormValues) => {
    clearErrors(SERVER_ERROR);
    beforeSubmit?.();
    try {
      if (editing) await updateConfig({ id: config.id, ...updateBody(values) }).unwrap();
      else await createConfig(createBody(values)).unwrap();
      onSaved();
    } catch (error) {
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('youtube.form.saveFailed') });
    }
  };

  const secretToggle = (label: string) => ({
    show: t('common:secret.show', { field: label }),
    hide: t('common:secret.hide', { field: label }),
  });
  const keep = t('youtube.form.keepHint');

  return (
    <FormDialog
      open
      title={editing ? t('youtube.form.editTitle') : t('youtube.form.createTitle')}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      saving={isSubmitting}
    >
      <FormErrorAlert errors={errors} />
      {config?.secret_unreadable && (
        <Alert severity="warning" role="note" sx={{ mb: 2.5 }}>
          {t('youtube.form.secretUnreadable')}
        </Alert>
      )}
      <AppSetupHint
        hint={t('youtube.form.hint')}
        redirectUri={redirectUri}
        consoleUrl={GOOGLE_CREDENTIALS_URL}
        consoleLabel={t('youtube.form.console')}
      />
      <Stack spacing={2.5}>
        <TextInput<YoutubeApiFormValues>
          name="name"
          control={control}
          label={t('youtube.form.name')}
          required
          autoFocus
          autoComplete="off"
        />
        <TextInput<YoutubeApiFormValues>
          name="channel_id"
          control={control}
          label={t('youtube.form.channelId')}
          required
          autoComplete="off"
          placeholder="UCxxxxxxxxxxxxxxxxxxxxxx"
        />
        <PasswordField<YoutubeApiFormValues>
          name="api_key"
          control={control}
          label={t('youtube.form.apiKey')}
          autoComplete="new-password"
          toggleLabels={secretToggle(t('youtube.form.apiKey'))}
          placeholder={config?.api_key_masked ?? undefined}
          helperText={config?.has_api_key ? keep : undefined}
        />
        {config?.has_api_key && (
          <Controller
            name="clear_api_key"
            control={control}
            render={({ field }) => (
              <FormControlLabel
                sx={{ mt: '4px !important' }}
                control={<Checkbox checked={field.value} onChange={(event) => field.onChange(event.target.checked)} />}
                label={t('youtube.form.clearApiKey')}
              />
            )}
          />
        )}
        <TextInput<YoutubeApiFormValues>
          name="client_id"
          control={control}
          label={t('youtube.form.clientId')}
          required
          autoComplete="off"
        />
        <PasswordField<YoutubeApiFormValues>
          name="client_secret"
          control={control}
          label={t('youtube.form.clientSecret')}
          required={secretRequired}
          autoComplete="new-password"
          toggleLabels={secretToggle(t('youtube.form.clientSecret'))}
          placeholder={config?.client_secret_masked || undefined}
          helperText={secretRequired ? undefined : keep}
        />
        <PasswordField<YoutubeApiFormValues>
          name="refresh_token"
          control={control}
          label={t('youtube.form.refreshToken')}
          autoComplete="new-password"
          toggleLabels={secretToggle(t('youtube.form.refreshToken'))}
          placeholder={config?.has_refresh_token ? '••••••••' : undefined}
          helperText={config?.has_refresh_token ? keep : t('youtube.form.refreshTokenHint')}
        />
      </Stack>
    </FormDialog>
  );
}
