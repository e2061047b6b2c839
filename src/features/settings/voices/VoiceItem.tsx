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
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, errorStatus, useToggleVoiceMutation, type Voice } from '../../../api';
import { SwitchOffDialog, stopsProcesses } from '../../../components/SwitchOffDialog';
import { StatusChip } from '../../../components/StatusChip';
import { formatDate } from '../../../lib/dates';
import type { SettingsBanner } from '../banner';
import { DIMMED_OPACITY } from '../../../components/dimmed';
import { SampleUnplayable } from '../../../components/SampleUnplayable';

export interface VoiceItemProps {
  voice: Voice;
  banner: SettingsBanner;
  playing: boolean;
  /** The browser could not play this voice's sample the last time it was asked to. */
  unplayable?: boolean;
  onToggleSample: (voice: Voice) => void;
  onEdit: (voice: Voice) => void;
  onDelete: (voice: Voice) => void;
}

/** One voice of the settings list: name, type, state, ID, dates, and its actions. */
export function VoiceItem({ voice, banner, playing, unplayable = false, onToggleSample, onEdit, onDelete }: VoiceItemProps) {
  const { t } = useTranslation(['settings', 'common']);
  const [toggleVoice, { isLoading: toggling }] = useToggleVoiceMutation();
  const { name, is_active: active } = voice;

  const [confirming, setConfirming] = useState(false);

  const toggle = async () => {
    banner.clear();
    try {
      await toggleVoice(voice.id).unwrap();
    } catch (error) {
      console.error('Failed to toggle voice', error);
      banner.show(
        'error',
        errorStatus(error) === 404 ? (errorDetail(error) ?? t('voices.messages.notFound')) : t('voices.messages.toggleFailed'),
      );
    }
    setConfirming(false);
  };
  // Switching off what active processes use asks first: they stop with it.
  const onToggle = () => (stopsProcesses(active, voice.active_process_count) ? setConfirming(true) : void toggle());

  const toggleLabel = active ? t('voices.actions.disable', { name }) : t('voices.actions.enable', { name });

  return (
    <Paper component="li" variant="outlined" aria-label={name} sx={{ p: 2, listStyle: 'none' }}>
      <Box sx={{ opacity: active ? 1 : DIMMED_OPACITY, minWidth: 0 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Typography component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {name}
          </Typography>
          <Chip size="small" variant="outlined" label={voice.type} />
          {!active && <StatusChip tone="disabled" label={t('common:status.disabled', { context: 'female' })} />}
        </Box>
        <Typography variant="body2" color="textSecondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
          {t('voices.id', { id: voice.id })}
        </Typography>
        <Typography variant="caption" color="textSecondary" component="p">
          {t('voices.created', { date: formatDate(voice.created_at) })} ·{' '}
          {t('voices.updated', { date: formatDate(voice.updated_at) })}
        </Typography>
        <SampleUnplayable show={unplayable} />
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: 'center', gap: 1, mt: 1.5 }}>
        <Button
          size="small"
          variant={playing ? 'contained' : 'outlined'}
          startIcon={playing ? <Pause /> : <PlayArrow />}
          onClick={() => onToggleSample(voice)}
          disabled={!active}
          aria-label={playing ? t('voices.actions.pause', { name }) : t('voices.actions.listen', { name })}
          aria-pressed={playing}
        >
          {playing ? t('voices.pause') : t('voices.listen')}
        </Button>
        <Tooltip title={toggleLabel} describeChild>
          <span>
            <IconButton aria-label={toggleLabel} onClick={onToggle} disabled={toggling} color={active ? 'success' : 'default'}>
              {active ? <ToggleOn /> : <ToggleOff />}
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t('voices.actions.edit', { name })}>
          <IconButton aria-label={t('voices.actions.edit', { name })} onClick={() => onEdit(voice)}>
            <EditOutlined />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('voices.actions.delete', { name })}>
          <IconButton aria-label={t('voices.actions.delete', { name })} onClick={() => onDelete(voice)} color="error">
            <DeleteOutlined />
          </IconButton>
        </Tooltip>
      </Box>
      <SwitchOffDialog
        open={confirming}
        name={voice.name}
        count={voice.active_process_count}
        onConfirm={toggle}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}
