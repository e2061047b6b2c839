import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

export interface LoadErrorAlertProps {
  /** What could not be loaded, e.g. "Your channels could not be loaded." */
  message: string;
  /** The reason, if the server gave one. */
  reason?: string;
  onRetry: () => void;
  retrying?: boolean;
}

/** A list that failed to load stays empty and says so, with a way to try again. */
export function LoadErrorAlert({ message, reason, onRetry, retrying = false }: LoadErrorAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onRetry} disabled={retrying}>
          {t('actions.retry')}
        </Button>
      }
    >
      {reason ? `${message} ${reason}` : message}
    </Alert>
  );
}
