import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useCallback, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';

export interface Feedback {
  severity: 'success' | 'error' | 'info' | 'warning';
  message: string;
}

/** A message as shown: `id` tells two messages apart, even with the same words. */
export interface ShownFeedback extends Feedback {
  id: number;
}

let nextId = 1;

/** Holds the message of the last action; `show` replaces it, `clear` removes it. */
export function useFeedback() {
  const [feedback, setFeedback] = useState<ShownFeedback | null>(null);
  const show = useCallback(
    (severity: Feedback['severity'], message: string) => setFeedback({ severity, message, id: nextId++ }),
    [],
  );
  const clear = useCallback(() => setFeedback(null), []);
  return { feedback, show, clear };
}

const SUCCESS_MS = 4000;

/**
 * The outcome of an action as a snackbar: a success goes away by itself after a few seconds, a
 * failure stays until dismissed. A message that replaces another gets its own few seconds: the
 * snackbar is keyed by the message, since MUI's timer starts when the snackbar opens and would
 * otherwise hide the new message when the old one's time ran out (seen: a run cancelled a second
 * after "process created" showed its "cancelled" for under a second). The last message stays
 * in place while the snackbar closes, so it fades out with its words.
 */
export function FeedbackSnackbar({ feedback, onClose }: { feedback: ShownFeedback | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [last, setLast] = useState(feedback);
  if (feedback !== null && feedback !== last) setLast(feedback);
  const close = (_event?: SyntheticEvent | Event | null, reason?: string) => {
    if (reason === 'clickaway') return;
    onClose();
  };
  const shown = feedback ?? last;
  const failure = shown?.severity === 'error' || shown?.severity === 'warning';
  return (
    <Snackbar
      key={shown?.id}
      open={feedback !== null}
      onClose={close}
      autoHideDuration={failure ? null : SUCCESS_MS}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      {shown ? (
        <Alert
          severity={shown.severity}
          role={failure ? 'alert' : 'status'}
          variant="filled"
          onClose={close}
          closeText={t('actions.dismiss')}
          sx={{ width: '100%' }}
        >
          {shown.message}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
