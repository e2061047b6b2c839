import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import type { FieldErrors, FieldValues } from 'react-hook-form';
import { translateFieldError } from './fieldError';

/** The key forms use for server errors: `setError(SERVER_ERROR, { message })`. */
export const SERVER_ERROR = 'root.server' as const;

export interface FormErrorAlertProps<T extends FieldValues> {
  errors: FieldErrors<T>;
  /** Only the server's error: forms whose fields each say what they miss. */
  serverOnly?: boolean;
}

/**
 * The alert at the top of a form: the server's error if the last submit failed, otherwise the
 * summary of missing fields (the first "required" message, e.g. "Please fill in all fields").
 * Other field errors stay under their fields.
 */
export function FormErrorAlert<T extends FieldValues>({ errors, serverOnly = false }: FormErrorAlertProps<T>) {
  const { t } = useTranslation();
  const server = errors.root?.server?.message;
  const missing = serverOnly
    ? undefined
    : Object.entries(errors).find(([name, error]) => name !== 'root' && error?.type === 'required')?.[1];
  const message = server ?? (missing ? translateFieldError(t, missing as { type: string; message?: string }) : undefined);
  if (!message) return null;
  return (
    <Alert severity="error" role="alert" sx={{ mb: 2 }}>
      {message}
    </Alert>
  );
}
