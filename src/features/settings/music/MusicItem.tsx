import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import ToggleOff from '@mui/icons-material/ToggleOff';
import ToggleOn from '@mui/icons-material/ToggleOn';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { errorDetail, errorStatus, useToggleMusicMutation, type MusicTrack } from '../../../api';
import { StatusChip } from '../../../components/StatusChip';
import { DIMMED_OPACITY } from '../../../components/dimmed';
import { useLocale } from '../../../components/useLocale';
import { formatDate } from '../../../lib/dates';
import type { SettingsBanner } from '../banner';
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
export function MusicItem({ track, banner, playing, onTogglePlay, onEdit, onDelete }: MusicItemProps) {
  const { t } = useTranslation(['settings', 'common']);
  const locale = useLocale();
  const [toggleMusic, { isLoading: toggling }] = useToggleMusicMutation();
  const { name, is_active: active } = track;

  const toggle = async () => {
    banner.clear();
    try {
      await toggleMusic(track.id).unwrap();
    } catch (error) {
      console.error('Failed to toggle music', error);
      banner.show(
        'error',
        errorStatus(error) === 404 ? (errorDetail(error) ?? t('music.messages.notFound')) : t('music.messages.toggleFailed'),
      );
    }
  };
  const toggleLabel = active ? t('music.actions.disable', { name }) : t('music.actions.enable', { name });

  return (
    <Paper component="li" variant="outlined" aria-label={name} sx={{ p: 2, listStyle: 'none' }}>
      <Box sx={{ opacity: active ? 1 : DIMMED_OPACITY, minWidth: 0 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Typography component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {name}
          </Typography>
          <Chip size="small" variant="outlined" label={t(`common:music.mood.${track.mood}`)} />
          {!active && <StatusChip tone="disabled" label={t('common:status.disabled', { context: 'female' })} />}
        </Box>
        <Typography variant="body2" color="textSecondary">
          {t('music.details', {
            length: trackLength(track.duration_seconds),
            format: track.format.toUpperCase(),
            size: fileSize(track.size_bytes, locale),
          })}{' '}
          · {t('music.processes', { count: track.process_count })}
        </Typography>
        <Typography variant="caption" color="textSecondary" component="p">
          {t('music.created', { date: formatDate(track.created_at) })} ·{' '}
          {t('music.updated', { date: formatDate(track.updated_at) })}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: 'center', gap: 1, mt: 1.5 }}>
        <Button
          size="small"
          variant={playing ? 'contained' : 'outlined'}
          startIcon={playing ? <Pause /> : <PlayArrow />}
          onClick={() => onTogglePlay(track)}
          aria-label={playing ? t('music.actions.pause', { name }) : t('music.actions.listen', { name })}
          aria-pressed={playing}
        >
          {playing ? t('music.pause') : t('music.listen')}
        </Button>
        <Tooltip title={toggleLabel} describeChild>
          <span>
            <IconButton
              aria-label={toggleLabel}
              onClick={() => void toggle()}
              disabled={toggling}
              color={active ? 'success' : 'default'}
            >
              {active ? <ToggleOn /> : <ToggleOff />}
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t('music.actions.edit', { name })}>
          <IconButton aria-label={t('music.actions.edit', { name })} onClick={() => onEdit(track)}>
            <EditOutlined />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('music.actions.delete', { name })}>
          <IconButton aria-label={t('music.actions.delete', { name })} onClick={() => onDelete(track)} color="error">
            <DeleteOutlined />
          </IconButton>
        </Tooltip>
      </Box>
    </Paper>
  );
}
