import { yupResolver } from '@hookform/resolvers/yup';
import Typography from '@mui/material/Typography';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { object, string } from 'yup';
import { errorDetail, useListChannelsQuery, useUpdateProcessMutation, type Process } from '../../api';
import { FormErrorAlert, SERVER_ERROR, type ValidationKey } from '../../components';
import { FormDialog } from '../../components/FormDialog';
import { SelectInput, type SelectOption } from '../../components/SelectInput';

const required: ValidationKey = 'validation.required';
const schema = object({ channel_id: string().required(required) });

interface ChannelFormValues {
  channel_id: string;
}

export interface ChannelChangeDialogProps {
  process: Process;
  onClose: () => void;
  /** Called with the success message once saved; the caller closes the dialog. */
  onSaved: (message: string) => void;
}

/** Moves a process to another of the user's channels: only `channel_id` is sent. */
export function ChannelChangeDialog({ process, onClose, onSaved }: ChannelChangeDialogProps) {
  const { t } = useTranslation(['processes', 'common']);
  const { data } = useListChannelsQuery();
  const [updateProcess] = useUpdateProcessMutation();
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<ChannelFormValues>({ resolver: yupResolver(schema), defaultValues: { channel_id: process.channel_id ?? '' } });

  const options: SelectOption[] = (data?.channels ?? []).map((channel) => {
    const name = channel.name?.trim() || channel.channel_id;
    return { value: channel.id, label: channel.is_active ? name : t('form.disabledOption', { name }) };
  });
  if (process.channel_id && !options.some((option) => option.value === process.channel_id)) {
    options.unshift({ value: process.channel_id, label: process.channel_name ?? process.channel_id });
  }

  const onSubmit = async ({ channel_id }: ChannelFormValues) => {
    clearErrors(SERVER_ERROR);
    if (channel_id === process.channel_id) {
      onClose();
      return;
    }
    try {
      const saved = await updateProcess({ id: process.id, channel_id }).unwrap();
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
      <FormErrorAlert errors={errors} serverOnly />
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
    </FormDialog>
  );
}
