import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { visibleFieldError } from './fieldError';

export interface SelectOption {
  value: string;
  label: ReactNode;
}

export interface SelectInputProps<T extends FieldValues> {
  name: FieldPath<T>;
  control: Control<T>;
  label: string;
  options: readonly SelectOption[];
  helperText?: string;
  required?: boolean;
  disabled?: boolean;
}

/**
 * A select bound to react-hook-form (the value is the option's `value`; "" for an option meaning
 * none). Not in the components barrel: Select pulls Menu, Popover and Modal, which /login does
 * not need. Import it from its file.
 */
export function SelectInput<T extends FieldValues>({
  name,
  control,
  label,
  options,
  helperText,
  required,
  disabled,
}: SelectInputProps<T>) {
  const { t } = useTranslation();
  const id = useId();
  const {
    field,
    fieldState: { error },
  } = useController({ name, control });
  const errorText = visibleFieldError(t, error);
  const helper = errorText ?? helperText;
  const labelId = `${id}-label`;
  // An option meaning "none" is shown as such, so the label stays above it.
  const hasEmpty = options.some((option) => option.value === '');
  const helperId = `${id}-helper`;
  return (
    <FormControl fullWidth error={!!error} required={required} disabled={disabled}>
      <InputLabel id={labelId} shrink={hasEmpty || undefined}>
        {label}
      </InputLabel>
      <Select
        labelId={labelId}
        id={id}
        label={required ? `${label} *` : label}
        name={field.name}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        inputRef={field.ref}
        displayEmpty={hasEmpty}
        notched={hasEmpty || undefined}
        SelectDisplayProps={{ 'aria-describedby': helper ? helperId : undefined } as object}
      >
        {options.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            {option.label}
          </MenuItem>
        ))}
      </Select>
      {helper && <FormHelperText id={helperId}>{helper}</FormHelperText>}
    </FormControl>
  );
}
