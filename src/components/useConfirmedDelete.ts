import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmedDeleteOptions<T, R> {
  /** Deletes `target`; rejects on failure (an RTK Query mutation's `unwrap()`). */
  remove: (target: T) => Promise<R>;
  /** It was deleted: tell the user. `result` is what `remove` resolved to. */
  onDeleted: (target: T, result: R) => void;
  /** It could not be deleted: tell the user (the failure is already logged). */
  onFailed: (target: T, failure: unknown) => void;
  /** The log line of a failure, e.g. "Failed to delete music" (spec §7: failures are logged). */
  failureLog: string;
}

/**
 * A delete that asks first (after bulletproof-react's delete flow): `ask(thing)` opens the
 * confirmation; confirming runs the delete, reports the outcome and closes it. Spread `dialog`
 * onto a ConfirmDialog that names `target`: the thing stays named while the dialog closes.
 *
 *   const deletion = useConfirmedDelete({ remove: (track) => deleteMusic(track.id).unwrap(), ... });
 *   <ConfirmDialog {...deletion.dialog} title={t('delete.title', { name: deletion.target?.name ?? '' })} ... />
 */
export function useConfirmedDelete<T, R = unknown>({ remove, onDeleted, onFailed, failureLog }: ConfirmedDeleteOptions<T, R>) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const ask = useCallback((thing: T) => {
    setTarget(thing);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  const confirm = async () => {
    if (target === null) return;
    try {
      onDeleted(target, await remove(target));
    } catch (failure) {
      console.error(failureLog, failure);
      onFailed(target, failure);
    } finally {
      setOpen(false);
    }
  };
  return {
    /** The thing asked about (still set while the dialog closes). */
    target,
    ask,
    /** ConfirmDialog's `open`, `onConfirm`, `onClose` and its busy label ("Deleting…"). */
    dialog: { open, onConfirm: confirm, onClose: close, busyLabel: t('actions.deleting') },
  };
}
