import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId } from 'react';
import { useController, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { visibleFieldError } from '../../components';
import type { ProcessFormValues } from './schema';

export interface TimeInputProps {
  control: Control<ProcessFormValues>;
  label: string;
  helperText?: string;
}

/**
 * The publication time ("HH:MM") as a native time field. Its label always sits above the field:
 * browsers draw "--:--" in an empty time input, which a resting label would cover.
 */
export function TimeInput({ control, label, helperText }: TimeInputProps) {
  const { t } = useTranslation();
  const id = useId();
  const {
    field,
    fieldState: { error },
  } = useController({ control, name: 'publication_time' });
  const helper = visibleFieldError(t, error) ?? helperText;
  const helperId = `${id}-helper`;
  return (
    <FormControl fullWidth required error={!!error} variant="outlined">
      <InputLabel htmlFor={id} shrink>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        type="time"
        notched
        label={`${label} *`}
        name={field.name}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        inputRef={field.ref}
        inputProps={{ step: 60 }}
        aria-describedby={helper ? helperId : undefined}
        aria-invalid={!!error}
      />
      {helper && <FormHelperText id={helperId}>{helper}</FormHelperText>}
    </FormControl>
  );
}
