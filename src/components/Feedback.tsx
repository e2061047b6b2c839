import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useCallback, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';

export interface Feedback {
  severity: 'success' | 'error' | 'info' | 'warning';
  message: string;
}

/** Holds the message of the last action; `show` replaces it, `clear` removes it. */
export function useFeedback() {
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const show = useCallback((severity: Feedback['severity'], message: string) => setFeedback({ severity, message }), []);
  const clear = useCallback(() => setFeedback(null), []);
  return { feedback, show, clear };
}

const SUCCESS_MS = 4000;

/**
 * The outcome of an action as a snackbar: a success goes away by itself after a few seconds, a
 * failure stays until dismissed.
 */
export function FeedbackSnackbar({ feedback, onClose }: { feedback: Feedback | null; onClose: () => void }) {
  const { t } = useTranslation();
  const close = (_event?: SyntheticEvent | Event | null, reason?: string) => {
    if (reason === 'clickaway') return;
    onClose();
  };
  const failure = feedback?.severity === 'error' || feedback?.severity === 'warning';
  return (
    <Snackbar
      open={feedback !== null}
      onClose={close}
      autoHideDuration={failure ? null : SUCCESS_MS}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      {feedback ? (
        <Alert
          severity={feedback.severity}
          role={failure ? 'alert' : 'status'}
          variant="filled"
          onClose={close}
          closeText={t('actions.dismiss')}
          sx={{ width: '100%' }}
        >
          {feedback.message}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
