import PlayArrow from '@mui/icons-material/PlayArrow';
import Stop from '@mui/icons-material/Stop';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Voice } from '../../api';
import { LanguageLabel } from '../../components/LanguageFlag';
import { StatusChip } from '../../components/StatusChip';
import { VOICE_GENDERS, VOICE_PROVIDER_NAMES, type VoiceGender, type VoiceProvider } from '../../lib/constants';
import { formatDate } from '../../lib/dates';
import { avatarColor, initialsOf } from './avatar';
import { DIMMED_OPACITY } from '../../components/dimmed';
import { FactList } from '../../components/FactList';
import { SampleUnplayable } from '../../components';

export interface VoiceCardProps {
  voice: Voice;
  playing: boolean;
  /** The browser could not play this voice's sample the last time it was asked to. */
  unplayable?: boolean;
  onToggleSample: (voice: Voice) => void;
}

function isGender(value: unknown): value is VoiceGender {
  return typeof value === 'string' && (VOICE_GENDERS as readonly string[]).includes(value);
}

/**
 * One voice of the gallery: coloured avatar, active/inactive badge, name, type badge, ID, created
 * and updated dates (pt-BR), language/gender/provider chips and the play/stop sample button
 * (disabled when the voice is inactive).
 */
export function VoiceCard({ voice, playing, unplayable = false, onToggleSample }: VoiceCardProps) {
  const { t } = useTranslation(['voices', 'common']);
  const active = voice.is_active;
  const provider = VOICE_PROVIDER_NAMES[voice.provider as VoiceProvider] ?? voice.provider;
  const details: { key: string; label: string; value: ReactNode }[] = [];
  if (voice.language) {
    details.push({
      key: 'language',
      label: t('card.language'),
      value: <LanguageLabel code={voice.language} />,
    });
  }
  if (voice.gender) {
    details.push({
      key: 'gender',
      label: t('card.gender'),
      value: isGender(voice.gender) ? t(`common:voice.gender.${voice.gender}`) : voice.gender,
    });
  }
  if (provider) details.push({ key: 'provider', label: t('card.provider'), value: provider });

  const facts: [string, string][] = [
    [t('card.created'), formatDate(voice.created_at)],
    [t('card.updated'), formatDate(voice.updated_at)],
  ];
  const button = (
    <Button
      variant={playing ? 'contained' : 'outlined'}
      startIcon={playing ? <Stop /> : <PlayArrow />}
      onClick={() => onToggleSample(voice)}
      disabled={!active}
      aria-label={playing ? t('card.stopLabel') : t('card.playLabel', { name: voice.name })}
      aria-pressed={playing}
      fullWidth
    >
      {playing ? t('card.stop') : t('card.play')}
    </Button>
  );

  return (
    <Paper
      component="article"
      variant="outlined"
      aria-label={voice.name}
      sx={{ p: 2.5, display: 'flex', flexDirection: 'column', gap: 2, height: '100%' }}
    >
      <Box sx={{ opacity: active ? 1 : DIMMED_OPACITY, display: 'flex', flexDirection: 'column', gap: 1.5, flex: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1.5 }}>
          <Avatar
            aria-hidden
            sx={{ bgcolor: avatarColor(voice.id || voice.name), color: '#fff', fontWeight: 600, width: 48, height: 48 }}
          >
            {initialsOf(voice.name)}
          </Avatar>
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="h6" component="h2" noWrap title={voice.name} sx={{ fontSize: '1.05rem', fontWeight: 600 }}>
              {voice.name}
            </Typography>
            <Chip size="small" variant="outlined" label={voice.type} sx={{ mt: 0.5, maxWidth: '100%' }} />
          </Box>
          <StatusChip
            tone={active ? 'success' : 'disabled'}
            label={active ? t('common:status.active', { context: 'female' }) : t('common:status.inactive', { context: 'female' })}
          />
        </Box>
        {voice.description && (
          <Typography variant="body2" color="textSecondary">
            {voice.description}
          </Typography>
        )}
        {details.length > 0 && (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
            {details.map(({ key, label, value }) => (
              <Chip key={key} size="small" label={value} title={label} />
            ))}
          </Box>
        )}
        <FactList facts={facts} sx={{ rowGap: 0.5, mt: 'auto' }}>
          <Typography component="dt" variant="body2" color="textSecondary">
            {t('card.id')}
          </Typography>
          <Typography
            component="dd"
            variant="caption"
            sx={{ m: 0, textAlign: 'right', fontFamily: 'monospace', overflowWrap: 'anywhere', alignSelf: 'center' }}
          >
            {voice.id}
          </Typography>
        </FactList>
      </Box>
      <Box>
        {active ? (
          button
        ) : (
          <Tooltip title={t('card.inactiveHint')}>
            <span>{button}</span>
          </Tooltip>
        )}
        <SampleUnplayable show={unplayable} />
      </Box>
    </Paper>
  );
}
