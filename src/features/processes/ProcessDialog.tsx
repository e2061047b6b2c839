import { yupResolver } from '@hookform/resolvers/yup';
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import { useEffect, useMemo, useRef } from 'react';
import { useController, useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  errorDetail,
  useCreateProcessMutation,
  useListChannelsQuery,
  useListMusicQuery,
  useListPromptsQuery,
  useListVoicesQuery,
  useListYoutubeApisQuery,
  useUpdateProcessMutation,
  type Process,
} from '../../api';
import { FormErrorAlert, SampleUnplayable, SERVER_ERROR, TextInput } from '../../components';
import { FormDialog } from '../../components/FormDialog';
import { LanguageLabel } from '../../components/LanguageFlag';
import { SelectInput, type SelectOption } from '../../components/SelectInput';
import { useSamplePlayer } from '../../components/useSamplePlayer';
import { LANGUAGES } from '../../lib/language';
import { sampleUrlOf } from '../../lib/playback';
import { useConfigChoice } from './configs';
import { FormatField, PublishModeField } from './PublishModeField';
import { TimeInput } from './TimeInput';
import { createBody, formValuesOf, processSchema, updateBody, type ProcessFormValues } from './schema';

export interface ProcessDialogProps {
  /** The process to edit; none to create one. */
  process?: Process;
  onClose: () => void;
  /** Called with the success message once saved; the caller closes the dialog. */
  onSaved: (message: string) => void;
}

interface Row {
  id: string;
  name: string;
}

/**
 * The select's options: the usable rows, plus the process's current record when it is not one of
 * them (inactive, or the list is still loading), so the saved value always shows. Only changed
 * fields are sent, so keeping an inactive current record is allowed; choosing it anew is not.
 */
function optionsOf<R extends Row>(
  rows: readonly R[],
  usable: (row: R) => boolean,
  current: { id: string | null; name: string | null } | undefined,
  unusableLabel: (name: string, row: R) => string,
): SelectOption[] {
  const options: SelectOption[] = rows.filter(usable).map((row) => ({ value: row.id, label: row.name }));
  if (current?.id && !options.some((option) => option.value === current.id)) {
    const row = rows.find((candidate) => candidate.id === current.id);
    const name = row?.name ?? current.name ?? current.id;
    options.unshift({ value: current.id, label: row ? unusableLabel(name, row) : name });
  }
  return options;
}

function SwitchField({ control, label }: { control: Control<ProcessFormValues>; label: string }) {
  const { field } = useController({ control, name: 'is_active' });
  return (
    <FormControlLabel
      label={label}
      control={
        <Switch
          name={field.name}
          checked={!!field.value}
          onChange={(event) => field.onChange(event.target.checked)}
          onBlur={field.onBlur}
        />
      }
    />
  );
}

/**
 * Creates or edits a process: name, channel, API configuration (enabled ones), prompt (active
 * ones), language (pt/en, those the prompt has texts for), voice (active ones, with a sample
 * button), background music (none, or an active track, with a listen button), publication time,
 * format (video or Short), publish mode (automatic, or after the owner's review) and "enable
 * immediately".
 */
export function ProcessDialog({ process, onClose, onSaved }: ProcessDialogProps) {
  const { t } = useTranslation(['processes', 'common']);
  const editing = process !== undefined;
  const [createProcess] = useCreateProcessMutation();
  const [updateProcess] = useUpdateProcessMutation();
  const { data: channelList } = useListChannelsQuery();
  const { data: youtubeApiList } = useListYoutubeApisQuery();
  const { data: promptList } = useListPromptsQuery();
  const { data: voiceList } = useListVoicesQuery();
  const { data: musicList } = useListMusicQuery();
  const { playingId, failedId, toggle } = useSamplePlayer();

  const initial = useMemo(() => formValuesOf(process), [process]);
  const schema = useMemo(() => processSchema(t('form.timeInvalid')), [t]);
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    setValue,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<ProcessFormValues>({ resolver: yupResolver(schema), defaultValues: initial });
  const [channelId, youtubeApiId, promptId, voiceId, language, publishMode, musicId] = useWatch({
    control,
    name: ['channel_id', 'youtube_api_id', 'prompt_id', 'voice_id', 'language', 'publish_mode', 'music_id'],
  });

  const channels = useMemo(
    () => (channelList?.channels ?? []).map((channel) => ({ ...channel, name: channel.name?.trim() || channel.channel_id })),
    [channelList],
  );
  const prompts = useMemo(() => promptList?.prompts ?? [], [promptList]);
  const voices = useMemo(() => voiceList?.voices ?? [], [voiceList]);
  const tracks = useMemo(() => musicList?.music ?? [], [musicList]);

  const inactive = (name: string) => t('form.inactiveOption', { name });
  const disabled = (name: string) => t('form.disabledOption', { name });
  // Only enabled channels, and only configurations that upload to the chosen channel (the server
  // refuses a disabled channel and a configuration of another YouTube channel).
  const channelOptions = optionsOf(
    channels,
    (channel) => channel.is_active,
    process && { id: process.channel_id, name: process.channel_name },
    disabled,
  );
  const channel = channels.find((candidate) => candidate.id === channelId);
  const { options: youtubeApiOptions } = useConfigChoice({
    youtubeApis: youtubeApiList?.youtube_apis,
    channelId,
    channelYoutubeId: channel?.channel_id,
    chosenId: youtubeApiId,
    stored: process && { id: process.youtube_api_id, name: process.youtube_api_name },
    choose: (id) => setValue('youtube_api_id', id, { shouldDirty: true }),
  });
  const promptOptions = optionsOf(
    prompts,
    (prompt) => prompt.is_active,
    process && { id: process.prompt_id, name: process.prompt_name },
    inactive,
  );
  const voiceOptions = optionsOf(
    voices,
    (voice) => voice.is_active,
    process && { id: process.voice_id, name: process.voice_name },
    inactive,
  );

  // Languages: pt and en, narrowed to those the chosen prompt has texts for.
  const prompt = prompts.find((candidate) => candidate.id === promptId);
  // Only languages the prompt has texts in: the server refuses the others.
  const languages = prompt ? LANGUAGES.filter((code) => prompt.text_language_codes.includes(code)) : [...LANGUAGES];
  const languageKey = languages.join(',');
  const languageOptions: SelectOption[] = languages.map((code) => ({
    value: code,
    label: <LanguageLabel code={code} />,
  }));
  if (language && !languages.some((code) => code === language)) {
    languageOptions.unshift({ value: language, label: <LanguageLabel code={language} /> });
  }

  // A newly chosen prompt without the chosen language switches to one it has.
  const seenPrompt = useRef(initial.prompt_id);
  useEffect(() => {
    if (!prompt || seenPrompt.current === prompt.id) return;
    seenPrompt.current = prompt.id;
    const available = languageKey ? languageKey.split(',') : [];
    if (!available.includes(getValues('language'))) setValue('language', available[0] ?? '', { shouldDirty: true });
  }, [prompt, languageKey, getValues, setValue]);

  // No music is a choice like any other; a track switched off since it was chosen stays shown.
  const musicOptions: SelectOption[] = [
    { value: '', label: t('form.noMusic') },
    ...optionsOf(
      tracks,
      (track) => track.is_active,
      process && { id: process.music_id, name: process.music_name },
      // "faixa" is feminine in Portuguese: "(inativa)".
      (name: string) => t('form.inactiveTrackOption', { name }),
    ).map((option) => {
      const track = tracks.find((candidate) => candidate.id === option.value);
      return track ? { ...option, label: `${String(option.label)} · ${t(`common:music.mood.${track.mood}`)}` } : option;
    }),
  ];
  const track = tracks.find((candidate) => candidate.id === musicId);
  const trackPlaying = track !== undefined && playingId === track.id;
  const musicLabel = trackPlaying
    ? t('form.pauseMusic')
    : track
      ? t('form.listenMusic', { name: track.name })
      : t('form.chooseMusic');

  const voice = voices.find((candidate) => candidate.id === voiceId);
  const playing = voice !== undefined && playingId === voice.id;
  const sampleLabel = playing ? t('form.pause') : voice ? t('form.listen', { name: voice.name }) : t('form.chooseVoice');

  const onSubmit = async (values: ProcessFormValues) => {
    clearErrors(SERVER_ERROR);
    try {
      if (editing) {
        const body = updateBody(values, initial);
        if (Object.keys(body).length === 0) {
          onClose();
          return;
        }
        const saved = await updateProcess({ id: process.id, ...body }).unwrap();
        onSaved(t('messages.updated', { name: saved.name }));
      } else {
        const saved = await createProcess(createBody(values)).unwrap();
        onSaved(t('messages.created', { name: saved.name }));
      }
    } catch (error) {
      console.error('Failed to save process', error);
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('form.saveFailed') });
    }
  };

  const twoColumns = { display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } };
  return (
    <FormDialog
      open
      title={editing ? t('form.editTitle') : t('form.createTitle')}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      saving={isSubmitting}
      submitLabel={editing ? undefined : t('form.submitCreate')}
      savingLabel={editing ? undefined : t('form.creating')}
      maxWidth="md"
    >
      <FormErrorAlert errors={errors} />
      <Box sx={{ display: 'grid', gap: 2.5 }}>
        <TextInput<ProcessFormValues>
          name="name"
          control={control}
          label={t('form.name')}
          required
          autoFocus
          autoComplete="off"
        />
        <Box sx={twoColumns}>
          <SelectInput<ProcessFormValues>
            name="channel_id"
            control={control}
            label={t('form.channel')}
            required
            options={channelOptions}
            helperText={channelList && channelOptions.length === 0 ? t('form.noChannels') : undefined}
          />
          <SelectInput<ProcessFormValues>
            name="youtube_api_id"
            control={control}
            label={t('form.youtubeApi')}
            required
            options={youtubeApiOptions}
            helperText={
              youtubeApiList && youtubeApiOptions.length === 0
                ? channel
                  ? t('form.noYoutubeApisForChannel', { channel: channel.name })
                  : t('form.noYoutubeApis')
                : undefined
            }
          />
          <SelectInput<ProcessFormValues>
            name="prompt_id"
            control={control}
            label={t('form.prompt')}
            required
            options={promptOptions}
            helperText={promptList && promptOptions.length === 0 ? t('form.noPrompts') : undefined}
          />
          <SelectInput<ProcessFormValues>
            name="language"
            control={control}
            label={t('form.language')}
            required
            options={languageOptions}
            helperText={prompt && languages.length === 0 ? t('form.noLanguage') : undefined}
          />
          <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
            <SelectInput<ProcessFormValues>
              name="voice_id"
              control={control}
              label={t('form.voice')}
              required
              options={voiceOptions}
              helperText={voiceList && voiceOptions.length === 0 ? t('form.noVoices') : undefined}
            />
            <Tooltip title={sampleLabel}>
              <span>
                <IconButton
                  aria-label={sampleLabel}
                  aria-pressed={playing}
                  disabled={!voice}
                  color={playing ? 'primary' : 'default'}
                  onClick={() => voice && toggle(voice.id, sampleUrlOf(voice.sample_url, voice.id))}
                  sx={{ mt: 1 }}
                >
                  {playing ? <Pause /> : <PlayArrow />}
                </IconButton>
              </span>
            </Tooltip>
          </Box>
          <SampleUnplayable show={voice !== undefined && failedId === voice.id} />
          <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
            <SelectInput<ProcessFormValues>
              name="music_id"
              control={control}
              label={t('form.music')}
              options={musicOptions}
              helperText={t('form.musicHint')}
            />
            <Tooltip title={musicLabel}>
              <span>
                <IconButton
                  aria-label={musicLabel}
                  aria-pressed={trackPlaying}
                  disabled={!track}
                  color={trackPlaying ? 'primary' : 'default'}
                  onClick={() => track && toggle(track.id, track.audio_url)}
                  sx={{ mt: 1 }}
                >
                  {trackPlaying ? <Pause /> : <PlayArrow />}
                </IconButton>
              </span>
            </Tooltip>
          </Box>
          <TimeInput
            control={control}
            label={t('form.publicationTime')}
            helperText={publishMode === 'review' ? t('form.publicationTimeHintReview') : t('form.publicationTimeHint')}
          />
        </Box>
        <Box sx={twoColumns}>
          <FormatField control={control} />
          <PublishModeField control={control} />
        </Box>
        <SwitchField control={control} label={editing ? t('form.enabled') : t('form.enableNow')} />
      </Box>
    </FormDialog>
  );
}
