import { yupResolver } from '@hookform/resolvers/yup';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  errorDetail,
  useCreateChatModelConfigMutation,
  useDeleteChatModelConfigMutation,
  useGetChatModelConfigQuery,
  useTestChatModelMutation,
  useUpdateChatModelConfigMutation,
  type ChatModelConfig,
} from '../../../api';
import { FormErrorAlert, LoadErrorAlert, PasswordField, TextInput, useLocale } from '../../../components';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useConfirmedDelete } from '../../../components/useConfirmedDelete';
import { ListSkeleton } from '../../../components/Skeletons';
import { StatusChip, type StatusTone } from '../../../components/StatusChip';
import { formatDateTime } from '../../../lib/dates';
import type { PanelProps, SettingsBanner } from '../banner';
import { PanelHeader } from '../PanelHeader';
import { MEDIA_FIELDS, chatModelSchema, createBody, formValuesOf, updateBody, type ChatModelFormValues } from './schema';

const USAGES = ['content', 'scripts', 'titles', 'descriptions'] as const;

/**
 * Settings › ChatGPT API: the user's chat-model key (one at most), its status and what it is used
 * for. A load failure is logged and treated as "not configured", with a retry.
 */
export function ChatModelPanel({ banner }: PanelProps) {
  const { t } = useTranslation('settings');
  const { data, error, isLoading, isError, isFetching, refetch } = useGetChatModelConfigQuery();

  return (
    <>
      <PanelHeader title={t('menu.chatModel')} subtitle={t('chatModel.subtitle')} />
      {isError && (
        <LoadErrorAlert
          message={t('chatModel.messages.loadFailed')}
          reason={errorDetail(error)}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      )}
      {isLoading ? <ListSkeleton rows={2} /> : <ChatModelSettings config={isError ? null : (data ?? null)} banner={banner} />}
    </>
  );
}

type ChatModelStatus = { tone: StatusTone; key: 'notConfigured' | 'notTested' | 'connected' | 'disconnected' };

function statusOf(config: ChatModelConfig | null): ChatModelStatus {
  if (!config) return { tone: 'neutral', key: 'notConfigured' };
  if (!config.last_tested) return { tone: 'neutral', key: 'notTested' };
  return config.is_connected ? { tone: 'success', key: 'connected' } : { tone: 'error', key: 'disconnected' };
}

function ChatModelSettings({ config, banner }: { config: ChatModelConfig | null; banner: SettingsBanner }) {
  const { t } = useTranslation(['settings', 'common']);
  const locale = useLocale();
  const configured = config !== null;
  /** The stored key can no longer be read (the server's secret changed): a new one is needed. */
  const unreadable = config?.secret_unreadable === true;
  const keyNeeded = !configured || unreadable;
  const [createConfig] = useCreateChatModelConfigMutation();
  const [updateConfig] = useUpdateChatModelConfigMutation();
  const [deleteConfig] = useDeleteChatModelConfigMutation();
  const [testChatModel, { isLoading: testing }] = useTestChatModelMutation();
  const {
    control,
    handleSubmit,
    reset,
    getValues,
    setError,
    formState: { dirtyFields, isSubmitting, errors },
  } = useForm<ChatModelFormValues>({
    resolver: yupResolver(chatModelSchema),
    context: { configured: !keyNeeded },
    mode: 'onTouched',
    defaultValues: formValuesOf(config),
  });
  const apiKey = useWatch({ control, name: 'api_key' });
  const blankKey = !apiKey?.trim();
  const settingsChanged = Boolean(dirtyFields.base_url || dirtyFields.model || MEDIA_FIELDS.some((field) => dirtyFields[field]));
  // Without a readable stored key both need a key; with one, a blank key means "the stored key".
  const testDisabled = testing || isSubmitting || (keyNeeded && blankKey);
  const saveDisabled = isSubmitting || testing || (blankKey && (keyNeeded || !settingsChanged));

  const onSave = async (values: ChatModelFormValues) => {
    banner.clear();
    try {
      const saved = configured
        ? await updateConfig(updateBody(values, dirtyFields)).unwrap()
        : await createConfig(createBody(values)).unwrap();
      reset(formValuesOf(saved));
      banner.show('success', configured ? t('chatModel.messages.updated') : t('chatModel.messages.saved'));
    } catch (error) {
      console.error('Failed to save the ChatGPT configuration', error);
      banner.show('error', errorDetail(error) ?? t('chatModel.messages.saveFailed'));
    }
  };

  const onTest = async () => {
    banner.clear();
    const key = getValues('api_key').trim();
    const baseUrl = getValues('base_url').trim();
    if (!key && keyNeeded) {
      // The form's alert says it once, at the top (spec §5's message).
      setError('api_key', { type: 'required', message: 'validation.chatModelKeyRequired' });
      return;
    }
    try {
      const result = await testChatModel({
        ...(key ? { api_key: key } : {}),
        ...(baseUrl ? { base_url: baseUrl } : {}),
      }).unwrap();
      if (result.is_connected) banner.show('success', t('chatModel.messages.testSuccess'));
      else banner.show('error', t('chatModel.messages.testFailed'));
    } catch (error) {
      console.error('Failed to test the ChatGPT key', error);
      banner.show('error', errorDetail(error) ?? t('chatModel.messages.testFailed'));
    }
  };

  // The one configuration: nothing to name, the dialog says what goes.
  const deletion = useConfirmedDelete({
    remove: () => {
      banner.clear();
      return deleteConfig().unwrap();
    },
    onDeleted: () => {
      reset(formValuesOf(null));
      banner.show('success', t('chatModel.messages.deleted'));
    },
    onFailed: () => banner.show('error', t('chatModel.messages.deleteFailed')),
    failureLog: 'Failed to delete the ChatGPT configuration',
  });

  const status = statusOf(config);
  const keyLabel = t('chatModel.apiKey');

  return (
    <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 7fr) minmax(0, 5fr)' } }}>
      <Paper variant="outlined" component="form" noValidate onSubmit={handleSubmit(onSave)} sx={{ p: 2.5 }}>
        <FormErrorAlert errors={errors} />
        <Stack spacing={2.5}>
          {unreadable && (
            <Alert severity="warning" role="note">
              {t('chatModel.secretUnreadable')}
            </Alert>
          )}
          <PasswordField<ChatModelFormValues>
            name="api_key"
            control={control}
            label={keyLabel}
            required={keyNeeded}
            autoComplete="new-password"
            placeholder={t('chatModel.keyPlaceholder')}
            toggleLabels={{
              show: t('common:secret.show', { field: keyLabel }),
              hide: t('common:secret.hide', { field: keyLabel }),
            }}
            helperText={
              unreadable
                ? t('chatModel.unreadableKeyHint')
                : config
                  ? t('chatModel.storedKey', { masked: config.api_key_masked })
                  : undefined
            }
            inputProps={{ spellCheck: false }}
          />
          <Accordion
            disableGutters
            variant="outlined"
            defaultExpanded={Boolean(config?.base_url)}
            sx={{ '&::before': { display: 'none' } }}
          >
            <AccordionSummary expandIcon={<ExpandMore />}>
              <Typography sx={{ fontWeight: 600 }}>{t('chatModel.advanced')}</Typography>
            </AccordionSummary>
            <AccordionDetails>
              <Stack spacing={2.5}>
                <TextInput<ChatModelFormValues>
                  name="base_url"
                  control={control}
                  label={t('chatModel.baseUrl')}
                  placeholder="https://api.openai.com/v1"
                  autoComplete="off"
                  helperText={t('chatModel.baseUrlHint')}
                  inputProps={{ spellCheck: false }}
                />
                <TextInput<ChatModelFormValues>
                  name="model"
                  control={control}
                  label={t('chatModel.model')}
                  placeholder="gpt-4o-mini"
                  autoComplete="off"
                  helperText={t('chatModel.modelHint')}
                  inputProps={{ spellCheck: false }}
                />
              </Stack>
            </AccordionDetails>
          </Accordion>
          <Accordion
            disableGutters
            variant="outlined"
            defaultExpanded={MEDIA_FIELDS.some((field) => Boolean(config?.[field]))}
            sx={{ '&::before': { display: 'none' } }}
          >
            <AccordionSummary expandIcon={<ExpandMore />}>
              <Typography sx={{ fontWeight: 600 }}>{t('chatModel.media.title')}</Typography>
            </AccordionSummary>
            <AccordionDetails>
              <Stack spacing={2.5}>
                <Typography variant="body2" color="textSecondary">
                  {t('chatModel.media.hint')}
                </Typography>
                <TextInput<ChatModelFormValues>
                  name="speech_base_url"
                  control={control}
                  label={t('chatModel.media.speechBaseUrl')}
                  placeholder="http://localhost:8880/v1"
                  autoComplete="off"
                  helperText={t('chatModel.media.baseUrlHint')}
                  inputProps={{ spellCheck: false }}
                />
                <TextInput<ChatModelFormValues>
                  name="speech_model"
                  control={control}
                  label={t('chatModel.media.speechModel')}
                  placeholder="gpt-4o-mini-tts"
                  autoComplete="off"
                  helperText={t('chatModel.media.modelHint')}
                  inputProps={{ spellCheck: false }}
                />
                <TextInput<ChatModelFormValues>
                  name="image_base_url"
                  control={control}
                  label={t('chatModel.media.imageBaseUrl')}
                  placeholder="http://localhost:8080/v1"
                  autoComplete="off"
                  helperText={t('chatModel.media.baseUrlHint')}
                  inputProps={{ spellCheck: false }}
                />
                <TextInput<ChatModelFormValues>
                  name="image_model"
                  control={control}
                  label={t('chatModel.media.imageModel')}
                  placeholder="gpt-image-1"
                  autoComplete="off"
                  helperText={t('chatModel.media.modelHint')}
                  inputProps={{ spellCheck: false }}
                />
              </Stack>
            </AccordionDetails>
          </Accordion>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5 }}>
            <Button variant="outlined" onClick={onTest} disabled={testDisabled}>
              {testing ? t('chatModel.testing') : t('chatModel.test')}
            </Button>
            <Button type="submit" variant="contained" disabled={saveDisabled}>
              {isSubmitting ? t('common:actions.saving') : configured ? t('chatModel.update') : t('chatModel.save')}
            </Button>
            {configured && (
              <Button variant="outlined" color="error" onClick={() => deletion.ask(true)} sx={{ ml: { sm: 'auto' } }}>
                {t('chatModel.delete')}
              </Button>
            )}
          </Box>
        </Stack>
      </Paper>
      <Stack spacing={2.5}>
        <Paper component="section" variant="outlined" aria-labelledby="chat-model-status" sx={{ p: 2.5 }}>
          <Typography id="chat-model-status" component="h3" sx={{ fontWeight: 600, mb: 1.5 }}>
            {t('chatModel.status.title')}
          </Typography>
          <StatusChip tone={status.tone} label={t(`common:status.${status.key}`, { context: 'female' })} />
          {config ? (
            <Box sx={{ mt: 1.5 }}>
              <Typography variant="body2" color="textSecondary">
                {config.last_tested
                  ? t('lastTested', { date: formatDateTime(config.last_tested, { locale }) })
                  : t('neverTested', { context: 'female' })}
              </Typography>
              <Typography variant="body2" color="textSecondary">
                {t('chatModel.status.model', { model: config.model })}
              </Typography>
            </Box>
          ) : (
            <Typography variant="body2" color="textSecondary" sx={{ mt: 1.5 }}>
              {t('chatModel.status.notConfigured')}
            </Typography>
          )}
        </Paper>
        <Paper component="section" variant="outlined" aria-labelledby="chat-model-usage" sx={{ p: 2.5 }}>
          <Typography id="chat-model-usage" component="h3" sx={{ fontWeight: 600 }}>
            {t('chatModel.usage.title')}
          </Typography>
          <List dense disablePadding>
            {USAGES.map((usage) => (
              <ListItem key={usage} disableGutters>
                <ListItemIcon sx={{ minWidth: 32, color: 'success.main' }} aria-hidden>
                  <CheckCircleOutlined fontSize="small" />
                </ListItemIcon>
                <ListItemText primary={t(`chatModel.usage.${usage}`)} />
              </ListItem>
            ))}
          </List>
        </Paper>
      </Stack>
      <ConfirmDialog
        {...deletion.dialog}
        title={t('chatModel.deleteDialog.title')}
        message={t('chatModel.deleteDialog.message')}
        confirmLabel={t('chatModel.deleteDialog.confirm')}
      />
    </Box>
  );
}
