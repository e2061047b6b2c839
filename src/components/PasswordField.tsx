import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldValues } from 'react-hook-form';
import { TextInput, type TextInputProps } from './TextInput';

export interface PasswordFieldProps<T extends FieldValues> extends Omit<TextInputProps<T>, 'type' | 'endAdornment'> {
  /** The toggle's accessible names; "Show password" / "Hide password" by default. */
  toggleLabels?: { show: string; hide: string };
}

/**
 * A password (or any secret: API key, client secret) field bound to react-hook-form, masked, with
 * a show/hide toggle.
 */
function PasswordInput<T extends FieldValues>({
  autoComplete = 'current-password',
  toggleLabels,
  ...props
}: PasswordFieldProps<T>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const labels = toggleLabels ?? { show: t('password.show'), hide: t('password.hide') };
  const toggleLabel = visible ? labels.hide : labels.show;
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

/** Memoised, as TextInput is. */
export const PasswordField = memo(PasswordInput) as typeof PasswordInput;
