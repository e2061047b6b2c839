import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useToggleChannelMutation, type Channel } from '../../api';
import { useLocale } from '../../components';
import { RowActions } from '../../components/RowActions';
import { StatusChip } from '../../components/StatusChip';
import { formatCount } from '../../lib/numbers';
import { channelLabel } from './schemas';
import { DIMMED_OPACITY } from '../../components/dimmed';
import { FactList } from '../../components/FactList';

export interface ChannelCardProps {
  channel: Channel;
  onEdit: (channel: Channel) => void;
  onRemove: (channel: Channel) => void;
  /** Reports the outcome of the enable/disable action. */
  onToggled: (severity: 'success' | 'error', message: string) => void;
}

/** One channel: name, processes, state, minimum views, channel id, statistics and actions. */
export function ChannelCard({ channel, onEdit, onRemove, onToggled }: ChannelCardProps) {
  const { t } = useTranslation(['channels', 'common']);
  const locale = useLocale();
  const [toggleChannel, { isLoading: toggling }] = useToggleChannelMutation();
  const name = channelLabel(channel);
  const active = channel.is_active;

  const toggle = async () => {
    try {
      const updated = await toggleChannel(channel.id).unwrap();
      onToggled('success', t(updated.is_active ? 'messages.enabled' : 'messages.disabled', { name }));
    } catch (error) {
      console.error('Failed to toggle channel', error);
      onToggled('error', t('messages.toggleFailed'));
    }
  };

  const facts: [string, string][] = [
    [t('card.minViews'), formatCount(channel.min_views, locale)],
    [t('card.channelId'), channel.channel_id],
    [t('card.subscribers'), formatCount(channel.subscriber_count, locale)],
    [t('card.videos'), formatCount(channel.video_count, locale)],
    [t('card.views'), formatCount(channel.view_count, locale)],
  ];

  return (
    <Paper
      component="article"
      variant="outlined"
      aria-label={name}
      sx={{ p: 2.5, display: 'flex', flexDirection: 'column', gap: 2, height: '100%' }}
    >
      <Box sx={{ opacity: active ? 1 : DIMMED_OPACITY, display: 'flex', flexDirection: 'column', gap: 2, flex: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h6" component="h2" noWrap title={name} sx={{ fontSize: '1.05rem', fontWeight: 600 }}>
              {name}
            </Typography>
            <Typography variant="body2" color="textSecondary">
              {t('card.processes', { count: channel.process_count })}
            </Typography>
          </Box>
          <StatusChip
            tone={active ? 'success' : 'disabled'}
            label={active ? t('common:status.enabled') : t('common:status.disabled')}
          />
        </Box>
        <FactList facts={facts} />
      </Box>
      <RowActions
        name={name}
        active={active}
        onToggle={toggle}
        toggling={toggling}
        activeProcesses={channel.active_process_count}
        onEdit={() => onEdit(channel)}
        onDelete={() => onRemove(channel)}
        deleteLabel={t('card.remove', { name })}
        sx={{ display: 'flex', justifyContent: 'flex-end', gap: 0.5, borderTop: 1, borderColor: 'divider', pt: 1 }}
      />
    </Paper>
  );
}
