import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldValues } from 'react-hook-form';
import { TextInput, type TextInputProps } from './TextInput';

export type PasswordFieldProps<T extends FieldValues> = Omit<TextInputProps<T>, 'type' | 'endAdornment'>;

/** A password field bound to react-hook-form, with a show/hide toggle. */
export function PasswordField<T extends FieldValues>({ autoComplete = 'current-password', ...props }: PasswordFieldProps<T>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const toggleLabel = visible ? t('password.hide') : t('password.show');
  return (
    <TextInput<T>
      {...props}
      type={visible ? 'text' : 'password'}
      autoComplete={autoComplete}
      endAdornment={
        <InputAdornment position="end">
          <IconButton
            aria-label={toggleLabel}
            onClick={() => setVisible((v) => !v)}
            onMouseDown={(event) => event.preventDefault()}
            edge="end"
            disabled={props.disabled}
          >
            {visible ? <VisibilityOff /> : <Visibility />}
          </IconButton>
        </InputAdornment>
      }
    />
  );
}
