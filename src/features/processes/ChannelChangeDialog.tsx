import { yupResolver } from '@hookform/resolvers/yup';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { object, string } from 'yup';
import { errorDetail, useListChannelsQuery, useListYoutubeApisQuery, useUpdateProcessMutation, type Process } from '../../api';
import { FormErrorAlert, SERVER_ERROR, type ValidationKey } from '../../components';
import { FormDialog } from '../../components/FormDialog';
import { SelectInput, type SelectOption } from '../../components/SelectInput';
import { useConfigChoice } from './configs';

const required: ValidationKey = 'validation.fillAllFields';
const schema = object({ channel_id: string().required(required), youtube_api_id: string().required(required) });

interface ChannelFormValues {
  channel_id: string;
  youtube_api_id: string;
}

export interface ChannelChangeDialogProps {
  process: Process;
  onClose: () => void;
  /** Called with the success message once saved; the caller closes the dialog. */
  onSaved: (message: string) => void;
}

/**
 * Moves a process to another of the user's enabled channels, with an API configuration of that
 * channel (the video goes where the configuration uploads, so the two move together).
 */
export function ChannelChangeDialog({ process, onClose, onSaved }: ChannelChangeDialogProps) {
  const { t } = useTranslation(['processes', 'common']);
  const { data } = useListChannelsQuery();
  const { data: youtubeApiList } = useListYoutubeApisQuery();
  const [updateProcess] = useUpdateProcessMutation();
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<ChannelFormValues>({
    resolver: yupResolver(schema),
    defaultValues: { channel_id: process.channel_id ?? '', youtube_api_id: process.youtube_api_id ?? '' },
  });
  const channelId = useWatch({ control, name: 'channel_id' });

  const channels = data?.channels ?? [];
  const options: SelectOption[] = channels
    .filter((channel) => channel.is_active || channel.id === process.channel_id)
    .map((channel) => {
      const name = channel.name?.trim() || channel.channel_id;
      return { value: channel.id, label: channel.is_active ? name : t('form.disabledOption', { name }) };
    });
  if (process.channel_id && !options.some((option) => option.value === process.channel_id)) {
    options.unshift({ value: process.channel_id, label: process.channel_name ?? process.channel_id });
  }
  const channel = channels.find((candidate) => candidate.id === channelId);
  const chosenId = useWatch({ control, name: 'youtube_api_id' });
  const { options: configOptions } = useConfigChoice({
    youtubeApis: youtubeApiList?.youtube_apis,
    channelId,
    channelYoutubeId: channel?.channel_id,
    chosenId,
    stored: { id: process.youtube_api_id, name: process.youtube_api_name },
    choose: (id) => setValue('youtube_api_id', id),
  });

  const onSubmit = async ({ channel_id, youtube_api_id }: ChannelFormValues) => {
    clearErrors(SERVER_ERROR);
    if (channel_id === process.channel_id && youtube_api_id === process.youtube_api_id) {
      onClose();
      return;
    }
    try {
      const saved = await updateProcess({ id: process.id, channel_id, youtube_api_id }).unwrap();
      onSaved(t('messages.channelChanged', { name: saved.name }));
    } catch (error) {
      console.error('Failed to change the channel of the process', error);
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('form.saveFailed') });
    }
  };

  return (
    <FormDialog
      open
      title={t('channelDialog.title', { name: process.name })}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      saving={isSubmitting}
      maxWidth="xs"
    >
      <FormErrorAlert errors={errors} />
      <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
        {t('channelDialog.hint')}
      </Typography>
      <SelectInput<ChannelFormValues>
        name="channel_id"
        control={control}
        label={t('channelDialog.channel')}
        required
        options={options}
        helperText={data && options.length === 0 ? t('form.noChannels') : undefined}
      />
      <Box sx={{ mt: 2.5 }}>
        <SelectInput<ChannelFormValues>
          name="youtube_api_id"
          control={control}
          label={t('form.youtubeApi')}
          required
          options={configOptions}
          helperText={
            youtubeApiList && channel && configOptions.length === 0
              ? t('form.noYoutubeApisForChannel', { channel: channel.name?.trim() || channel.channel_id })
              : undefined
          }
        />
      </Box>
    </FormDialog>
  );
}
