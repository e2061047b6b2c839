import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useToggleMusicMutation, type MusicTrack } from '../../../api';
import { useLocale } from '../../../components/useLocale';
import type { SettingsBanner } from '../banner';
import { SampleItem } from '../SampleItem';
import { fileSize, trackLength } from './schema';

export interface MusicItemProps {
  track: MusicTrack;
  banner: SettingsBanner;
  playing: boolean;
  onTogglePlay: (track: MusicTrack) => void;
  onEdit: (track: MusicTrack) => void;
  onDelete: (track: MusicTrack) => void;
}

/**
 * One track of the settings list: name, mood, length, format and size, state, how many processes
 * use it, dates, and its actions. Switching a track off asks nothing: processes that chose it go
 * on without music (each run says so), none stops.
 */
export function MusicItem({ track, ...props }: MusicItemProps) {
  const { t } = useTranslation(['settings', 'common']);
  const locale = useLocale();
  const [toggleMusic, { isLoading: toggling }] = useToggleMusicMutation();

  return (
    <SampleItem
      section="music"
      entry={track}
      switchActive={(id) => toggleMusic(id).unwrap()}
      toggling={toggling}
      failureLog="Failed to toggle music"
      chips={<Chip size="small" variant="outlined" label={t(`common:music.mood.${track.mood}`)} />}
      details={
        <Typography variant="body2" color="textSecondary">
          {t('music.details', {
            length: trackLength(track.duration_seconds),
            format: track.format.toUpperCase(),
            size: fileSize(track.size_bytes, locale),
          })}{' '}
          · {t('music.processes', { count: track.process_count })}
        </Typography>
      }
      {...props}
    />
  );
}
