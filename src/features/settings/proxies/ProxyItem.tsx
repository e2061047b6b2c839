import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import ToggleOff from '@mui/icons-material/ToggleOff';
import ToggleOn from '@mui/icons-material/ToggleOn';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { errorDetail, useTestProxyMutation, useToggleProxyMutation, type ProxyServer } from '../../../api';
import { useLocale } from '../../../components';
import { StatusChip, type StatusTone } from '../../../components/StatusChip';
import { formatDateTime } from '../../../lib/dates';
import type { SettingsBanner } from '../banner';
import { DIMMED_OPACITY } from '../../../components/dimmed';

export interface ProxyItemProps {
  proxy: ProxyServer;
  banner: SettingsBanner;
  onEdit: (proxy: ProxyServer) => void;
  onDelete: (proxy: ProxyServer) => void;
}

/** Not tested until a test ran; then connected or disconnected. */
function connectionOf(proxy: ProxyServer): { tone: StatusTone; key: 'notTested' | 'connected' | 'disconnected' } {
  if (!proxy.last_tested) return { tone: 'neutral', key: 'notTested' };
  return proxy.is_connected ? { tone: 'success', key: 'connected' } : { tone: 'error', key: 'disconnected' };
}

/** One proxy: name, URL (password masked), connection status, last test, and its actions. */
export function ProxyItem({ proxy, banner, onEdit, onDelete }: ProxyItemProps) {
  const { t } = useTranslation(['settings', 'common']);
  const locale = useLocale();
  const [testProxy, { isLoading: testing }] = useTestProxyMutation();
  const [toggleProxy, { isLoading: toggling }] = useToggleProxyMutation();
  const { name } = proxy;
  const connection = connectionOf(proxy);

  const test = async () => {
    banner.clear();
    try {
      const result = await testProxy(proxy.id).unwrap();
      if (result.is_connected) {
        banner.show(
          'success',
          result.latency_ms !== null
            ? t('proxies.messages.testSuccessLatency', { name, latency: result.latency_ms })
            : t('proxies.messages.testSuccess', { name }),
        );
      } else {
        banner.show('error', result.detail || t('proxies.messages.testFailed'));
      }
    } catch (error) {
      console.error('Failed to test proxy', error);
      banner.show('error', errorDetail(error) ?? t('proxies.messages.testFailed'));
    }
  };

  const toggle = async () => {
    banner.clear();
    try {
      await toggleProxy(proxy.id).unwrap();
    } catch (error) {
      console.error('Failed to toggle proxy', error);
      banner.show('error', t('proxies.messages.toggleFailed'));
    }
  };

  const toggleLabel = proxy.is_active ? t('proxies.actions.disable', { name }) : t('proxies.actions.enable', { name });

  return (
    <Paper component="li" variant="outlined" aria-label={name} sx={{ p: 2, listStyle: 'none' }}>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'flex-start',
          justifyContent: 'space-between',
          gap: 1.5,
          opacity: proxy.is_active ? 1 : DIMMED_OPACITY,
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <Typography component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {name}
            </Typography>
            {!proxy.is_active && <StatusChip tone="disabled" label={t('common:status.disabled')} />}
          </Box>
          <Typography variant="body2" color="textSecondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
            {proxy.url}
          </Typography>
          <Typography variant="caption" color="textSecondary">
            {proxy.last_tested ? t('lastTested', { date: formatDateTime(proxy.last_tested, { locale }) }) : t('neverTested')}
          </Typography>
        </Box>
        <StatusChip tone={connection.tone} label={t(`common:status.${connection.key}`)} />
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: 'center', gap: 1, mt: 1.5 }}>
        <Button
          size="small"
          variant="outlined"
          startIcon={<NetworkCheck />}
          onClick={test}
          disabled={testing || !proxy.is_active}
          aria-label={t('proxies.actions.test', { name })}
        >
          {testing ? t('proxies.testing') : t('proxies.test')}
        </Button>
        <Tooltip title={toggleLabel} describeChild>
          <span>
            <IconButton
              aria-label={toggleLabel}
              onClick={toggle}
              disabled={toggling}
              color={proxy.is_active ? 'success' : 'default'}
            >
              {proxy.is_active ? <ToggleOn /> : <ToggleOff />}
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t('proxies.actions.edit', { name })}>
          <IconButton aria-label={t('proxies.actions.edit', { name })} onClick={() => onEdit(proxy)}>
            <EditOutlined />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('proxies.actions.delete', { name })}>
          <IconButton aria-label={t('proxies.actions.delete', { name })} onClick={() => onDelete(proxy)} color="error">
            <DeleteOutlined />
          </IconButton>
        </Tooltip>
      </Box>
    </Paper>
  );
}
