import { yupResolver } from '@hookform/resolvers/yup';
import AudioFileOutlined from '@mui/icons-material/AudioFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useController, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorDetail, errorStatus, useUpdateMusicMutation, useUploadMusicMutation, type MusicTrack } from '../../../api';
import { FormErrorAlert, SERVER_ERROR, TextInput } from '../../../components';
import { visibleFieldError } from '../../../components/fieldError';
import { FormDialog } from '../../../components/FormDialog';
import { SelectInput } from '../../../components/SelectInput';
import { useLocale } from '../../../components/useLocale';
import { MUSIC_FILE_ACCEPT, MUSIC_MOODS } from '../../../lib/constants';
import { fileSize, formValuesOf, musicSchema, type MusicFormValues } from './schema';

export interface MusicDialogProps {
  /** The track to edit; none to upload one. */
  track?: MusicTrack;
  beforeSubmit?: () => void;
  onClose: () => void;
  /** Called with the success message once saved; the caller closes the dialog. */
  onSaved: (message: string) => void;
}

/** The file picker: a button that opens the system's dialog, then the chosen file's name and size. */
function FileField({ control, disabled }: { control: Control<MusicFormValues>; disabled: boolean }) {
  const { t } = useTranslation(['settings', 'common']);
  const { t: tCommon } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const {
    field,
    fieldState: { error },
  } = useController({ name: 'file', control });
  const errorText = visibleFieldError(tCommon, error);
  const file = field.value;
  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}>
        <Button component="label" variant="outlined" startIcon={<AudioFileOutlined />} disabled={disabled}>
          {file ? t('music.form.otherFile') : t('music.form.chooseFile')}
          <input
            id={id}
            hidden
            type="file"
            accept={MUSIC_FILE_ACCEPT}
            aria-label={t('music.form.file')}
            aria-describedby={`${id}-help`}
            aria-invalid={!!error}
            onChange={(event) => {
              field.onChange(event.target.files?.[0] ?? null);
              field.onBlur();
            }}
          />
        </Button>
        <Typography variant="body2" color={file ? 'textPrimary' : 'textSecondary'} sx={{ overflowWrap: 'anywhere' }}>
          {file ? `${file.name} · ${fileSize(file.size, locale)}` : t('music.form.noFile')}
        </Typography>
      </Box>
      <FormHelperText id={`${id}-help`} error={!!error}>
        {errorText ?? t('music.form.fileHint')}
      </FormHelperText>
    </Box>
  );
}

/**
 * Uploads a track (name, mood and the file) or edits one (name and mood). The upload sends the
 * file itself; the server tells what it really is, measures it and answers 413/415/422 with a
 * detail for a file it refuses, shown above the form.
 */
export function MusicDialog({ track, beforeSubmit, onClose, onSaved }: MusicDialogProps) {
  const { t } = useTranslation(['settings', 'common']);
  const editing = track !== undefined;
  const [uploadMusic] = useUploadMusicMutation();
  const [updateMusic] = useUpdateMusicMutation();
  const {
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<MusicFormValues>({ resolver: yupResolver(musicSchema(editing)), defaultValues: formValuesOf(track) });

  const onSubmit = async (values: MusicFormValues) => {
    clearErrors(SERVER_ERROR);
    beforeSubmit?.();
    const mood = values.mood || 'calm';
    try {
      if (editing) await updateMusic({ id: track.id, name: values.name.trim(), mood }).unwrap();
      else if (values.file) await uploadMusic({ file: values.file, name: values.name.trim(), mood }).unwrap();
      onSaved(t(editing ? 'music.messages.updated' : 'music.messages.created'));
    } catch (error) {
      console.error('Failed to save music', error);
      const fallback = editing && errorStatus(error) === 404 ? t('music.messages.notFound') : t('music.form.saveFailed');
      setError(SERVER_ERROR, { type: 'server', message: errorDetail(error) ?? fallback });
    }
  };

  return (
    <FormDialog
      open
      title={editing ? t('music.form.editTitle') : t('music.form.createTitle')}
      onSubmit={handleSubmit(onSubmit)}
      onClose={onClose}
      saving={isSubmitting}
      {...(editing ? {} : { submitLabel: t('music.form.upload'), savingLabel: t('music.form.uploading') })}
    >
      <FormErrorAlert errors={errors} />
      <Stack spacing={2.5}>
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
          <TextInput<MusicFormValues>
            name="name"
            control={control}
            label={t('music.form.name')}
            required
            autoFocus
            autoComplete="off"
          />
          <SelectInput<MusicFormValues>
            name="mood"
            control={control}
            label={t('music.form.mood')}
            required
            options={MUSIC_MOODS.map((mood) => ({ value: mood, label: t(`common:music.mood.${mood}`) }))}
          />
        </Box>
        {editing ? (
          <Typography variant="body2" color="textSecondary">
            {t('music.form.fileFixed')}
          </Typography>
        ) : (
          <FileField control={control} disabled={isSubmitting} />
        )}
      </Stack>
    </FormDialog>
  );
}
