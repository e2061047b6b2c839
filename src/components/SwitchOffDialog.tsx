import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from './ConfirmDialog';

export interface SwitchOffDialogProps {
  open: boolean;
  /** The thing switched off, as the user knows it. */
  name: string;
  /** Active processes that use it (and stop with it). */
  count: number;
  onConfirm: () => void | Promise<void>;
  onClose: () => void;
}

/**
 * Asks before switching off a channel, API configuration, prompt or voice that active processes
 * use, saying how many will stop: they cannot run until it is switched on again or they use another.
 */
export function SwitchOffDialog({ open, name, count, onConfirm, onClose }: SwitchOffDialogProps) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={open}
      title={t('switchOff.title', { name })}
      message={t('switchOff.message', { count })}
      confirmLabel={t('switchOff.confirm')}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}

/** Whether switching this off stops processes, so the user is asked first. */
export function stopsProcesses(isOn: boolean, activeProcessCount: number | undefined): boolean {
  return isOn && (activeProcessCount ?? 0) > 0;
}
