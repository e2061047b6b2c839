import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useToggleVoiceMutation, type Voice } from '../../../api';
import { SampleUnplayable } from '../../../components/SampleUnplayable';
import type { SettingsBanner } from '../banner';
import { SampleItem } from '../SampleItem';

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
export function VoiceItem({ voice, unplayable = false, onToggleSample, ...props }: VoiceItemProps) {
  const { t } = useTranslation('settings');
  const [toggleVoice, { isLoading: toggling }] = useToggleVoiceMutation();

  return (
    <SampleItem
      section="voices"
      entry={voice}
      onTogglePlay={onToggleSample}
      // An inactive voice cannot be played (spec §4).
      playDisabled={!voice.is_active}
      switchActive={(id) => toggleVoice(id).unwrap()}
      toggling={toggling}
      activeProcesses={voice.active_process_count}
      failureLog="Failed to toggle voice"
      chips={<Chip size="small" variant="outlined" label={voice.type} />}
      details={
        <Typography variant="body2" color="textSecondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
          {t('voices.id', { id: voice.id })}
        </Typography>
      }
      {...props}
    >
      <SampleUnplayable show={unplayable} />
    </SampleItem>
  );
}
