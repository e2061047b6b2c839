import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RowActions } from '../../components/RowActions';
import { formatDate } from '../../lib/dates';
import type { CatalogueEntry } from './AdminCatalogue';
import type { SettingsBanner } from './banner';
import { CatalogueItem } from './CatalogueItem';
import { failureMessage } from './failureMessage';

export interface SampleEntry extends CatalogueEntry {
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

export interface SampleItemProps<T extends SampleEntry> {
  /** Whose texts (settings.json): listen, pause, created, updated, the failure messages. */
  section: 'music' | 'voices';
  entry: T;
  banner: SettingsBanner;
  /** Its sample plays now. */
  playing: boolean;
  /** The sample cannot be played now (an inactive voice). */
  playDisabled?: boolean;
  onTogglePlay: (entry: T) => void;
  /** Switches it on or off (the mutation, unwrapped). */
  switchActive: (id: string) => Promise<unknown>;
  toggling: boolean;
  /** Active processes that stop when it is switched off (asks first); none for music. */
  activeProcesses?: number;
  failureLog: string;
  chips: ReactNode;
  /** Lines between the name and the dates. */
  details: ReactNode;
  /** Under the dates. */
  children?: ReactNode;
  onEdit: (entry: T) => void;
  onDelete: (entry: T) => void;
}

/** One voice or track of an admin catalogue: name, chips, details, dates, and listen, toggle, edit, delete. */
export function SampleItem<T extends SampleEntry>({
  section,
  entry,
  banner,
  playing,
  playDisabled = false,
  onTogglePlay,
  switchActive,
  toggling,
  activeProcesses,
  failureLog,
  chips,
  details,
  children,
  onEdit,
  onDelete,
}: SampleItemProps<T>) {
  const { t } = useTranslation(['settings', 'common']);
  const { name, is_active: active } = entry;

  const toggle = async () => {
    banner.clear();
    try {
      await switchActive(entry.id);
    } catch (error) {
      console.error(failureLog, error);
      banner.show('error', failureMessage(error, t(`${section}.messages.notFound`), t(`${section}.messages.toggleFailed`)));
    }
  };

  return (
    <CatalogueItem
      name={name}
      active={active}
      disabledLabel={t('common:status.disabled', { context: 'female' })}
      chips={chips}
      actions={
        <RowActions
          name={name}
          active={active}
          onToggle={toggle}
          toggling={toggling}
          activeProcesses={activeProcesses}
          onEdit={() => onEdit(entry)}
          onDelete={() => onDelete(entry)}
        >
          <Button
            size="small"
            variant={playing ? 'contained' : 'outlined'}
            startIcon={playing ? <Pause /> : <PlayArrow />}
            onClick={() => onTogglePlay(entry)}
            disabled={playDisabled}
            aria-label={playing ? t(`${section}.actions.pause`, { name }) : t(`${section}.actions.listen`, { name })}
            aria-pressed={playing}
          >
            {playing ? t(`${section}.pause`) : t(`${section}.listen`)}
          </Button>
        </RowActions>
      }
    >
      {details}
      <Typography variant="caption" color="textSecondary" component="p">
        {t(`${section}.created`, { date: formatDate(entry.created_at) })} ·{' '}
        {t(`${section}.updated`, { date: formatDate(entry.updated_at) })}
      </Typography>
      {children}
    </CatalogueItem>
  );
}
