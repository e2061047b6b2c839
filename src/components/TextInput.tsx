import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { memo, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { visibleFieldError } from './fieldError';
import { useStartsFocused } from './usePrerenderedForm';

export interface TextInputProps<T extends FieldValues> extends Omit<
  OutlinedInputProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'label'
> {
  name: FieldPath<T>;
  control: Control<T>;
  label: string;
  helperText?: string;
  /** Drawn focused from the first render, until it loses the focus: see `useStartsFocused`. */
  startsFocused?: boolean;
}

/**
 * A text field bound to react-hook-form. Built from OutlinedInput + InputLabel rather than
 * TextField, which would pull Select/Menu/Popover/Modal into the bundle.
 */
function TextInputField<T extends FieldValues>({
  name,
  control,
  label,
  helperText,
  fullWidth = true,
  required,
  disabled,
  startsFocused,
  ...inputProps
}: TextInputProps<T>) {
  const { t } = useTranslation();
  const id = useId();
  const {
    field,
    fieldState: { error },
  } = useController({ name, control });
  const focus = useStartsFocused(startsFocused, field.onBlur);
  const errorText = visibleFieldError(t, error);
  const helper = errorText ?? helperText;
  const helperId = `${id}-helper`;
  return (
    <FormControl
      fullWidth={fullWidth}
      error={!!error}
      required={required}
      disabled={disabled}
      focused={focus.focused}
      variant="outlined"
    >
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        {...inputProps}
        id={id}
        label={required ? `${label} *` : label}
        name={field.name}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={focus.onBlur}
        inputRef={field.ref}
        aria-describedby={helper ? helperId : undefined}
        aria-invalid={!!error}
      />
      {helper && <FormHelperText id={helperId}>{helper}</FormHelperText>}
    </FormControl>
  );
}

/**
 * Memoised: the component that holds a form renders again when react-hook-form mounts (and on
 * each change of the form's state it reads), and its fields, whose props have not changed, do not.
 */
export const TextInput = memo(TextInputField) as typeof TextInputField;
