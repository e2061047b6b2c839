import NetworkCheck from '@mui/icons-material/NetworkCheck';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { errorDetail, useTestProxyMutation, useToggleProxyMutation, type ProxyServer } from '../../../api';
import { useLocale } from '../../../components';
import { RowActions } from '../../../components/RowActions';
import { StatusChip, type StatusTone } from '../../../components/StatusChip';
import { formatDateTime } from '../../../lib/dates';
import type { SettingsBanner } from '../banner';
import { CatalogueItem } from '../CatalogueItem';

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

  return (
    <CatalogueItem
      name={name}
      active={proxy.is_active}
      disabledLabel={t('common:status.disabled')}
      status={<StatusChip tone={connection.tone} label={t(`common:status.${connection.key}`)} />}
      actions={
        <RowActions
          name={name}
          active={proxy.is_active}
          onToggle={toggle}
          toggling={toggling}
          onEdit={() => onEdit(proxy)}
          onDelete={() => onDelete(proxy)}
        >
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
        </RowActions>
      }
    >
      <Typography variant="body2" color="textSecondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
        {proxy.url}
      </Typography>
      <Typography variant="caption" color="textSecondary">
        {proxy.last_tested ? t('lastTested', { date: formatDateTime(proxy.last_tested, { locale }) }) : t('neverTested')}
      </Typography>
    </CatalogueItem>
  );
}
