import Add from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useState, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { ListQueryState } from '../../components/ListBody';
import { useConfirmedDelete } from '../../components/useConfirmedDelete';
import type { SettingsBanner } from './banner';
import { CatalogueList } from './CatalogueList';
import { failureMessage } from './failureMessage';
import { PanelHeader } from './PanelHeader';

/** A row of an admin catalogue: processes choose it, so deleting it says how many use it. */
export interface CatalogueEntry {
  id: string;
  name: string;
  process_count: number;
}

export interface DialogHandlers {
  beforeSubmit: () => void;
  onClose: () => void;
  onSaved: (message: string) => void;
}

export interface AdminCatalogueProps<T extends CatalogueEntry> {
  banner: SettingsBanner;
  /** Whose texts (settings.json): the add button, the list, the delete dialog, the messages. */
  section: 'music' | 'voices';
  icon: ReactElement;
  query: ListQueryState & { error?: unknown };
  /** The rows of the page (none when the list failed to load, spec §8). */
  rows: readonly T[];
  page: number;
  onPage: (page: number) => void;
  /** Deletes one; the answer's `detail` is the success message. */
  remove: (entry: T) => Promise<{ detail?: string | null }>;
  failureLog: string;
  /** The dialog opens (e.g. the list's sample stops: the dialog has its own). */
  onOpenDialog?: () => void;
  renderItem: (entry: T, handlers: { onEdit: (entry: T) => void; onDelete: (entry: T) => void }) => ReactNode;
  /** The add (no entry) or edit dialog. */
  renderDialog: (entry: T | undefined, handlers: DialogHandlers) => ReactNode;
}

/**
 * An admin catalogue of Settings (voices, music): its header and add button, the paged list, the
 * add/edit dialog, and the delete that names the thing and how many processes use it.
 */
export function AdminCatalogue<T extends CatalogueEntry>({
  banner,
  section,
  icon,
  query,
  rows,
  page,
  onPage,
  remove,
  failureLog,
  onOpenDialog,
  renderItem,
  renderDialog,
}: AdminCatalogueProps<T>) {
  const { t } = useTranslation(['settings', 'common']);
  const [dialog, setDialog] = useState<{ entry?: T } | null>(null);
  const deletion = useConfirmedDelete({
    remove: (entry: T) => {
      banner.clear();
      return remove(entry);
    },
    onDeleted: (_entry, result) => banner.show('success', result.detail?.trim() || t(`${section}.messages.deleted`)),
    onFailed: (_entry, failure) =>
      banner.show('error', failureMessage(failure, t(`${section}.messages.notFound`), t(`${section}.messages.deleteFailed`))),
    failureLog,
  });
  const deleting = deletion.target;

  const openDialog = (entry?: T) => {
    banner.clear();
    onOpenDialog?.();
    setDialog({ entry });
  };
  const addButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => openDialog()}>
      {t(`${section}.add`)}
    </Button>
  );

  return (
    <>
      <PanelHeader title={t(`menu.${section}`)} subtitle={t(`${section}.subtitle`)} action={addButton} />
      <CatalogueList
        query={query}
        rows={rows}
        label={t(`menu.${section}`)}
        loadFailed={t(`${section}.loadFailed`)}
        empty={{ icon, message: t(`${section}.empty`), action: addButton }}
        page={page}
        onPage={onPage}
      >
        {(entry) => renderItem(entry, { onEdit: openDialog, onDelete: deletion.ask })}
      </CatalogueList>
      {dialog &&
        renderDialog(dialog.entry, {
          beforeSubmit: banner.clear,
          onClose: () => setDialog(null),
          onSaved: (message) => {
            setDialog(null);
            banner.show('success', message);
          },
        })}
      <ConfirmDialog
        {...deletion.dialog}
        title={t(`${section}.delete.title`, { name: deleting?.name ?? '' })}
        message={
          deleting && (
            <Alert severity="warning">
              {t(`${section}.delete.message`)} {t(`${section}.delete.processes`, { count: deleting.process_count })}
            </Alert>
          )
        }
        confirmLabel={t(`${section}.delete.confirm`)}
      />
    </>
  );
}
