import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  open: boolean;
  /** Names the thing, e.g. "Remove the channel “Main”?" */
  title: string;
  /** What happens, in a sentence or two. */
  message?: ReactNode;
  /** The confirm button's label, e.g. "Remove". */
  confirmLabel: string;
  /** Shown on the confirm button while `onConfirm` runs; defaults to "Working…". */
  busyLabel?: string;
  /** Destructive actions get the error colour (the default). */
  destructive?: boolean;
  /** Runs the action; the dialog stays open (and busy) until it settles. */
  onConfirm: () => void | Promise<void>;
  onClose: () => void;
}

/**
 * The confirmation every destructive action goes through: a dialog that names the thing, a
 * cancel button and the action in the error colour. Busy while the action runs; the caller closes
 * it (usually whatever the outcome, reporting failures elsewhere).
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  busyLabel,
  destructive = true,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      {message && (
        <DialogContent>
          <DialogContentText component="div">{message}</DialogContentText>
        </DialogContent>
      )}
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy} color="inherit">
          {t('actions.cancel')}
        </Button>
        <Button onClick={confirm} disabled={busy} variant="contained" color={destructive ? 'error' : 'primary'}>
          {busy ? (busyLabel ?? t('actions.working')) : confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
