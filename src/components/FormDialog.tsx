import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface FormDialogProps {
  open: boolean;
  title: string;
  /** react-hook-form's `handleSubmit(onSubmit)`. */
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  /** Disables the buttons and shows `savingLabel` on the submit button. */
  saving: boolean;
  /** Defaults to "Save" / "Saving…". */
  submitLabel?: string;
  savingLabel?: string;
  maxWidth?: 'xs' | 'sm' | 'md';
  /** A destructive submit (deleting an account) gets the error colour. */
  destructive?: boolean;
  children: ReactNode;
}

/**
 * A form in a dialog, after MUI's FormDialog: the dialog's paper is the <form>, the submit button
 * sits in the actions and shows the saving state. Closing is refused while saving.
 */
export function FormDialog({
  open,
  title,
  onSubmit,
  onClose,
  saving,
  submitLabel,
  savingLabel,
  maxWidth = 'sm',
  destructive = false,
  children,
}: FormDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onClose={saving ? undefined : onClose}
      maxWidth={maxWidth}
      fullWidth
      slotProps={{ paper: { component: 'form', noValidate: true, onSubmit } as object }}
    >
      <DialogTitle>{title}</DialogTitle>
      <DialogContent sx={{ pt: '8px !important' }}>{children}</DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={saving} color="inherit">
          {t('actions.cancel')}
        </Button>
        <Button type="submit" variant="contained" color={destructive ? 'error' : 'primary'} disabled={saving}>
          {saving ? (savingLabel ?? t('actions.saving')) : (submitLabel ?? t('actions.save'))}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
