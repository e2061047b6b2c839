import { yupResolver } from '@hookform/resolvers/yup';
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorDetail, errorStatus, useCreateVoiceMutation, useUpdateVoiceMutation, type Voice } from '../../../api';
import { FormErrorAlert, SampleUnplayable, SERVER_ERROR, TextInput } from '../../../components';
import { FormDialog } from '../../../components/FormDialog';
import { LanguageLabel } from '../../../components/LanguageFlag';
import { SelectInput } from '../../../components/SelectInput';
import { useSamplePlayer } from '../../../components/useSamplePlayer';
import { VOICE_GENDERS, VOICE_PROVIDER_NAMES, VOICE_PROVIDERS } from '../../../lib/constants';
import { LANGUAGE_CODES } from '../../../lib/languages';
import { sampleUrlOf } from '../../../lib/playback';
import { formValuesOf, isSampleUrl, voiceBody, voiceSchema, type VoiceFormValues } from './schema';

export interface VoiceDialogProps {
  /** The voice to edit; none to add one. */
  voice?: Voice;
  beforeSubmit?: () => void;
  onClose: () => void;
  /** Called with the success message once saved; the caller closes the dialog. */
  onSaved: (message: string) => void;
}

/** The player id of the dialog's preview, apart from the list's so it always plays the typed URL. */
const previewId = (voice: Voice) => `preview:${voice.id}`;

/**
 * Adds or edits a voice: name, type, sample URL (with a play/pause preview while editing),
 * description, language, gender, provider and the provider's voice id.
 */
export function VoiceDialog({ voice, beforeSubmit, onClose, onSaved }: VoiceDialogProps) {
  const { t } = useTranslation(['settings', 'common']);
  const editing = voice !== undefined;
  const [createVoice] = useCreateVoiceMutation();
  const [updateVoice] = useUpdateVoiceMutation();
  const { playingId, failedId, toggle } = useSamplePlayer();
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<VoiceFormValues>({ resolver: yupResolver(voiceSchema), defaultValues: formValuesOf(voice) });
  const sampleUrl = useWatch({ control, name: 'sample_url' });

  const onSubmit = async (values: VoiceFormValues) => {
    clearErrors(SERVER_ERROR);
    beforeSubmit?.();
    try {
      if (editing) await updateVoice({ id: voice.id, ...voiceBody(values) }).unwrap();
      else await createVoice(voiceBody(values)).unwrap();
      onSaved(t(editing ? 'voices.messages.updated' : 'voices.messages.created'));
    } catch (error) {
      console.error('Failed to save voice', error);
      const fallback = editing && errorStatus(error) === 404 ? t('voices.messages.notFound') : t('voices.form.saveFailed');
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? fallback });
    }
  };

  let preview;
  if (editing) {
    const previewing = playingId === previewId(voice);
    const label = previewing ? t('voices.form.stopPreview') : t('voices.form.preview');
    const playable = isSampleUrl(sampleUrl ?? '');
    preview = (
      <Tooltip title={label}>
        <span>
          <IconButton
            aria-label={label}
            aria-pressed={previewing}
            onClick={() => toggle(previewId(voice), sampleUrlOf(sampleUrl ?? '', voice.id))}
            disabled={!previewing && !playable}
            color={previewing ? 'primary' : 'default'}
            sx={{ mt: 1 }}
          >
            {previewing ? <Pause /> : <PlayArrow />}
          </IconButton>
        </span>
      </Tooltip>
    );
  }

  return (
    <FormDialog
      open
      title={editing ? t('voices.form.editTitle') : t('voices.form.createTitle')}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      saving={isSubmitting}
    >
      <FormErrorAlert errors={errors} />
      <Stack spacing={2.5}>
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
          <TextInput<VoiceFormValues>
            name="name"
            control={control}
            label={t('voices.form.name')}
            required
            autoFocus
            autoComplete="off"
          />
          <TextInput<VoiceFormValues>
            name="type"
            control={control}
            label={t('voices.form.type')}
            required
            autoComplete="off"
            helperText={t('voices.form.typeHint')}
          />
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
          <TextInput<VoiceFormValues>
            name="sample_url"
            control={control}
            label={t('voices.form.sampleUrl')}
            required
            autoComplete="off"
            placeholder="https://…"
            helperText={t('voices.form.sampleUrlHint')}
            inputProps={{ spellCheck: false, autoCapitalize: 'off' }}
          />
          {preview}
        </Box>
        {editing && <SampleUnplayable show={failedId === previewId(voice)} />}
        <TextInput<VoiceFormValues>
          name="description"
          control={control}
          label={t('voices.form.description')}
          multiline
          minRows={2}
        />
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
          <SelectInput<VoiceFormValues>
            name="language"
            control={control}
            label={t('voices.form.language')}
            options={[
              { value: '', label: t('voices.form.noLanguage') },
              ...LANGUAGE_CODES.map((code) => ({
                value: code,
                label: <LanguageLabel code={code} />,
              })),
            ]}
          />
          <SelectInput<VoiceFormValues>
            name="gender"
            control={control}
            label={t('voices.form.gender')}
            options={[
              { value: '', label: t('voices.form.noGender') },
              ...VOICE_GENDERS.map((gender) => ({ value: gender, label: t(`common:voice.gender.${gender}`) })),
            ]}
          />
          <SelectInput<VoiceFormValues>
            name="provider"
            control={control}
            label={t('voices.form.provider')}
            required
            options={VOICE_PROVIDERS.map((provider) => ({ value: provider, label: VOICE_PROVIDER_NAMES[provider] }))}
          />
          <TextInput<VoiceFormValues>
            name="provider_voice_id"
            control={control}
            label={t('voices.form.providerVoiceId')}
            autoComplete="off"
            helperText={t('voices.form.providerVoiceIdHint')}
            inputProps={{ spellCheck: false, autoCapitalize: 'off' }}
          />
        </Box>
      </Stack>
    </FormDialog>
  );
}
