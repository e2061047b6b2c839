import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';
import type { FieldErrors, FieldValues } from 'react-hook-form';
import { firstRequiredError, translateFieldError } from './fieldError';

/** The key forms use for server errors: `setError(SERVER_ERROR, { message })`. */
export const SERVER_ERROR = 'root.server' as const;

export interface FormErrorAlertProps<T extends FieldValues> {
  errors: FieldErrors<T>;
}

/**
 * The alert at the top of every form: the server's error if the last submit failed, otherwise
 * the summary of missing fields, once (the first "required" message: "Please fill in all
 * fields", or a field's own, such as "Please enter your ChatGPT API Key"). The missing fields turn
 * red without repeating it; other field errors stay under their fields.
 */
export function FormErrorAlert<T extends FieldValues>({ errors }: FormErrorAlertProps<T>) {
  const { t } = useTranslation();
  const server = errors.root?.server?.message;
  const missing = firstRequiredError(errors);
  const message = server ?? (missing ? translateFieldError(t, missing) : undefined);
  if (!message) return null;
  return (
    <Alert severity="error" role="alert" sx={{ mb: 2 }}>
      {message}
    </Alert>
  );
}
