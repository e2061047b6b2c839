import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useController, type Control } from 'react-hook-form';
import { visibleFieldError } from '../../../components';
import type { ProfileValues } from './schema';
import { timeZoneLabel, timeZoneOptions } from './timeZones';

/** The time-zone field of the profile: a searchable list of the browser's IANA zones. */
export function TimeZoneInput({
  control,
  label,
  helperText,
}: {
  control: Control<ProfileValues>;
  label: string;
  helperText: string;
}) {
  const { t } = useTranslation();
  const {
    field,
    fieldState: { error },
  } = useController({ name: 'time_zone', control });
  const options = useMemo(() => timeZoneOptions(field.value), [field.value]);
  const errorText = visibleFieldError(t, error);
  return (
    <Autocomplete
      options={options}
      value={field.value || null}
      onChange={(_event, value) => field.onChange(value ?? '')}
      onBlur={field.onBlur}
      getOptionLabel={timeZoneLabel}
      autoHighlight
      openText={t('actions.open')}
      closeText={t('actions.close')}
      clearText={t('actions.clear')}
      noOptionsText={t('noOptions')}
      renderInput={(params) => (
        <TextField
          {...params}
          name={field.name}
          inputRef={field.ref}
          label={label}
          required
          error={!!error}
          helperText={errorText ?? helperText}
        />
      )}
    />
  );
}
