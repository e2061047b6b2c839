import { yupResolver } from '@hookform/resolvers/yup';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorDetail, useUpdatePromptDescriptionMutation, type PromptSummary } from '../../api';
import { FormErrorAlert, SERVER_ERROR, TextInput } from '../../components';
import { FormDialog } from '../../components/FormDialog';
import { descriptionSchema, type DescriptionFormValues } from './schema';

export interface PromptDescriptionDialogProps {
  prompt: PromptSummary;
  onClose: () => void;
  /** Called with the success message once saved; the caller closes the dialog. */
  onSaved: (message: string) => void;
}

/** Edits only the description of a prompt (PUT /prompts/{id}). */
export function PromptDescriptionDialog({ prompt, onClose, onSaved }: PromptDescriptionDialogProps) {
  const { t } = useTranslation('prompts');
  const [updateDescription] = useUpdatePromptDescriptionMutation();
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<DescriptionFormValues>({
    resolver: yupResolver(descriptionSchema),
    defaultValues: { description: prompt.description },
  });

  const onSubmit = async ({ description }: DescriptionFormValues) => {
    clearErrors(SERVER_ERROR);
    try {
      await updateDescription({ id: prompt.id, description }).unwrap();
      onSaved(t('messages.updated'));
    } catch (error) {
      console.error('Failed to update prompt description', error);
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? t('description.failed') });
    }
  };

  return (
    <FormDialog
      open
      title={t('description.title', { name: prompt.name })}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      saving={isSubmitting}
    >
      <FormErrorAlert errors={errors} />
      <TextInput<DescriptionFormValues>
        name="description"
        control={control}
        label={t('description.label')}
        required
        autoFocus
        multiline
        minRows={3}
      />
    </FormDialog>
  );
}
