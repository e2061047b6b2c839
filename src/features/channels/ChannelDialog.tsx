import { yupResolver } from '@hookform/resolvers/yup';
import Stack from '@mui/material/Stack';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorDetail, useCreateChannelMutation, useUpdateChannelMutation, type Channel } from '../../api';
import { FormErrorAlert, SERVER_ERROR, TextInput } from '../../components';
import { FormDialog } from '../../components/FormDialog';
import { channelLabel, channelSchema, createBody, formValuesOf, updateBody, type ChannelFormValues } from './schemas';

export interface ChannelDialogProps {
  /** The channel to edit; none to connect a new one. */
  channel?: Channel;
  onClose: () => void;
  /** Called with the success message once saved; the caller closes the dialog. */
  onSaved: (message: string) => void;
}

/** Connect a channel, or edit one (its channel id is then read-only). */
export function ChannelDialog({ channel, onClose, onSaved }: ChannelDialogProps) {
  const { t } = useTranslation('channels');
  const editing = channel !== undefined;
  const [createChannel] = useCreateChannelMutation();
  const [updateChannel] = useUpdateChannelMutation();
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<ChannelFormValues>({ resolver: yupResolver(channelSchema(editing)), defaultValues: formValuesOf(channel) });

  const onSubmit = async (values: ChannelFormValues) => {
    clearErrors(SERVER_ERROR);
    try {
      const saved = editing
        ? await updateChannel({ id: channel.id, ...updateBody(values) }).unwrap()
        : await createChannel(createBody(values)).unwrap();
      onSaved(t(editing ? 'messages.updated' : 'messages.created', { name: channelLabel(saved) }));
    } catch (error) {
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('dialog.saveFailed') });
    }
  };

  return (
    <FormDialog
      open
      title={editing ? t('dialog.editTitle') : t('dialog.createTitle')}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      saving={isSubmitting}
      submitLabel={editing ? undefined : t('dialog.connect')}
      savingLabel={editing ? undefined : t('dialog.connecting')}
    >
      <FormErrorAlert errors={errors} />
      <Stack spacing={2.5}>
        <TextInput<ChannelFormValues>
          name="channel_id"
          control={control}
          label={t('dialog.channelId')}
          required={!editing}
          readOnly={editing}
          autoFocus={!editing}
          autoComplete="off"
          placeholder="UCxxxxxxxxxxxxxxxxxxxxxx"
          helperText={editing ? t('dialog.channelIdLocked') : t('dialog.channelIdHint')}
        />
        <TextInput<ChannelFormValues>
          name="name"
          control={control}
          label={t('dialog.name')}
          autoFocus={editing}
          autoComplete="off"
          helperText={t('dialog.nameHint')}
        />
        <TextInput<ChannelFormValues>
          name="min_views"
          control={control}
          label={t('dialog.minViews')}
          type="number"
          inputProps={{ min: 0, step: 1, inputMode: 'numeric' }}
          helperText={t('dialog.minViewsHint')}
        />
      </Stack>
    </FormDialog>
  );
}
