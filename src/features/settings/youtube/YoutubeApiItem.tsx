import NetworkCheck from '@mui/icons-material/NetworkCheck';
import Star from '@mui/icons-material/Star';
import StarOutlineOutlined from '@mui/icons-material/StarOutlineOutlined';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  errorDetail,
  useAuthorizeYoutubeApiMutation,
  useSetActiveYoutubeApiMutation,
  useTestYoutubeApiMutation,
  useToggleYoutubeApiMutation,
  type YoutubeApi,
} from '../../../api';
import { useLocale } from '../../../components';
import { RowActions } from '../../../components/RowActions';
import { StatusChip } from '../../../components/StatusChip';
import { formatDateTime } from '../../../lib/dates';
import type { SettingsBanner } from '../banner';
import { CatalogueItem } from '../CatalogueItem';

export interface YoutubeApiItemProps {
  config: YoutubeApi;
  banner: SettingsBanner;
  /** Opens the consent window; false when the browser blocked it. */
  openAuthorization: (url: string, configId: string) => boolean;
  onEdit: (config: YoutubeApi) => void;
  onDelete: (config: YoutubeApi) => void;
}

/**
 * One configuration: name, channel id, connected or not (only if enabled and connected), the
 * active badge, when it was last tested; disabled ones are dimmed. Test/Authorize tests the
 * connection when a refresh token is stored, otherwise opens Google's consent window. A stored
 * secret the server can no longer read (its secret changed) is announced, with a way to enter it
 * again.
 */
export function YoutubeApiItem({ config, banner, openAuthorization, onEdit, onDelete }: YoutubeApiItemProps) {
  const { t } = useTranslation(['settings', 'common']);
  const locale = useLocale();
  const [toggleConfig, { isLoading: toggling }] = useToggleYoutubeApiMutation();
  const [setActive, { isLoading: activating }] = useSetActiveYoutubeApiMutation();
  const [testConfig, { isLoading: testing }] = useTestYoutubeApiMutation();
  const [authorize, { isLoading: authorizing }] = useAuthorizeYoutubeApiMutation();
  /** A test said the stored refresh token no longer works: the button authorizes again. */
  const [needsAuthorization, setNeedsAuthorization] = useState(false);
  const { name } = config;
  const connected = config.is_enabled && config.is_connected;
  const canTest = config.has_refresh_token && !needsAuthorization;

  const toggle = async () => {
    banner.clear();
    try {
      await toggleConfig(config.id).unwrap();
    } catch (error) {
      console.error('Failed to toggle YouTube API configuration', error);
      banner.show('error', t('youtube.messages.toggleFailed'));
    }
  };

  const makeActive = async () => {
    banner.clear();
    try {
      await setActive(config.id).unwrap();
      banner.show('success', t('youtube.messages.activated', { name }));
    } catch (error) {
      console.error('Failed to set the active YouTube API configuration', error);
      banner.show('error', errorDetail(error) ?? t('youtube.messages.setActiveFailed'));
    }
  };

  const test = async () => {
    try {
      const result = await testConfig(config.id).unwrap();
      setNeedsAuthorization(result.needs_authorization);
      if (result.is_connected) banner.show('success', result.detail || t('youtube.messages.testSuccess'));
      else banner.show('error', result.detail || t('youtube.messages.testFailed'));
    } catch (error) {
      console.error('Failed to test YouTube API configuration', error);
      banner.show('error', errorDetail(error) ?? t('youtube.messages.testFailed'));
    }
  };

  const startAuthorization = async () => {
    try {
      const { url } = await authorize(config.id).unwrap();
      if (openAuthorization(url, config.id)) setNeedsAuthorization(false);
      else banner.show('error', t('youtube.messages.popupBlocked'));
    } catch (error) {
      console.error('Failed to start the YouTube authorization', error);
      banner.show('error', errorDetail(error) ?? t('youtube.messages.authorizeFailed'));
    }
  };

  const testOrAuthorize = () => {
    banner.clear();
    return canTest ? test() : startAuthorization();
  };

  const busy = testing || authorizing;

  return (
    <CatalogueItem
      name={name}
      active={config.is_enabled}
      disabledLabel={t('common:status.disabled', { context: 'female' })}
      chips={config.is_active && <Chip size="small" color="primary" icon={<Star aria-hidden />} label={t('youtube.active')} />}
      status={
        <StatusChip
          tone={connected ? 'success' : 'error'}
          label={
            connected
              ? t('common:status.connected', { context: 'female' })
              : t('common:status.disconnected', { context: 'female' })
          }
        />
      }
      notice={
        config.secret_unreadable && (
          <Alert
            severity="warning"
            role="note"
            sx={{ mt: 1.5 }}
            action={
              <Button
                color="inherit"
                size="small"
                onClick={() => onEdit(config)}
                aria-label={t('youtube.actions.reenter', { name })}
                sx={{ whiteSpace: 'nowrap' }}
              >
                {t('youtube.reenter')}
              </Button>
            }
          >
            {t('youtube.secretUnreadable')}
          </Alert>
        )
      }
      actions={
        <RowActions
          name={name}
          active={config.is_enabled}
          onToggle={toggle}
          toggling={toggling}
          activeProcesses={config.active_process_count}
          onEdit={() => onEdit(config)}
          onDelete={() => onDelete(config)}
        >
          {!config.is_active && (
            <Button
              size="small"
              startIcon={<StarOutlineOutlined />}
              onClick={makeActive}
              disabled={activating}
              aria-label={t('youtube.actions.setActive', { name })}
            >
              {t('youtube.setActive')}
            </Button>
          )}
          <Button
            size="small"
            variant="outlined"
            startIcon={canTest ? <NetworkCheck /> : <VpnKeyOutlined />}
            onClick={testOrAuthorize}
            disabled={busy}
            aria-label={canTest ? t('youtube.actions.test', { name }) : t('youtube.actions.authorize', { name })}
          >
            {busy ? t('youtube.testing') : canTest ? t('youtube.test') : t('youtube.authorize')}
          </Button>
        </RowActions>
      }
    >
      <Typography variant="body2" color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
        {t('youtube.channelId', { id: config.channel_id })}
      </Typography>
      <Typography variant="caption" color="textSecondary">
        {config.last_tested
          ? t('lastTested', { date: formatDateTime(config.last_tested, { locale }) })
          : t('neverTested', { context: 'female' })}
      </Typography>
    </CatalogueItem>
  );
}
