import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import Star from '@mui/icons-material/Star';
import StarOutlineOutlined from '@mui/icons-material/StarOutlineOutlined';
import ToggleOff from '@mui/icons-material/ToggleOff';
import ToggleOn from '@mui/icons-material/ToggleOn';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
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
import { SwitchOffDialog, stopsProcesses } from '../../../components/SwitchOffDialog';
import { useLocale } from '../../../components';
import { StatusChip } from '../../../components/StatusChip';
import { formatDateTime } from '../../../lib/dates';
import type { SettingsBanner } from '../banner';
import { DIMMED_OPACITY } from '../../../components/dimmed';

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

  const [confirming, setConfirming] = useState(false);

  const toggle = async () => {
    banner.clear();
    try {
      await toggleConfig(config.id).unwrap();
    } catch (error) {
      console.error('Failed to toggle YouTube API configuration', error);
      banner.show('error', t('youtube.messages.toggleFailed'));
    }
    setConfirming(false);
  };
  // Switching off what active processes use asks first: they stop with it.
  const onToggle = () => (stopsProcesses(config.is_enabled, config.active_process_count) ? setConfirming(true) : void toggle());

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

  const toggleLabel = config.is_enabled ? t('youtube.actions.disable', { name }) : t('youtube.actions.enable', { name });
  const busy = testing || authorizing;

  return (
    <Paper component="li" variant="outlined" aria-label={name} sx={{ p: 2, listStyle: 'none' }}>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'flex-start',
          justifyContent: 'space-between',
          gap: 1.5,
          opacity: config.is_enabled ? 1 : DIMMED_OPACITY,
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <Typography component="h3" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {name}
            </Typography>
            {config.is_active && <Chip size="small" color="primary" icon={<Star aria-hidden />} label={t('youtube.active')} />}
            {!config.is_enabled && <StatusChip tone="disabled" label={t('common:status.disabled', { context: 'female' })} />}
          </Box>
          <Typography variant="body2" color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
            {t('youtube.channelId', { id: config.channel_id })}
          </Typography>
          <Typography variant="caption" color="textSecondary">
            {config.last_tested
              ? t('lastTested', { date: formatDateTime(config.last_tested, { locale }) })
              : t('neverTested', { context: 'female' })}
          </Typography>
        </Box>
        <StatusChip
          tone={connected ? 'success' : 'error'}
          label={
            connected
              ? t('common:status.connected', { context: 'female' })
              : t('common:status.disconnected', { context: 'female' })
          }
        />
      </Box>
      {config.secret_unreadable && (
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
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: 'center', gap: 1, mt: 1.5 }}>
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
        <Tooltip title={toggleLabel} describeChild>
          <span>
            <IconButton
              aria-label={toggleLabel}
              onClick={onToggle}
              disabled={toggling}
              color={config.is_enabled ? 'success' : 'default'}
            >
              {config.is_enabled ? <ToggleOn /> : <ToggleOff />}
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={t('youtube.actions.edit', { name })}>
          <IconButton aria-label={t('youtube.actions.edit', { name })} onClick={() => onEdit(config)}>
            <EditOutlined />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('youtube.actions.delete', { name })}>
          <IconButton aria-label={t('youtube.actions.delete', { name })} onClick={() => onDelete(config)} color="error">
            <DeleteOutlined />
          </IconButton>
        </Tooltip>
      </Box>
      <SwitchOffDialog
        open={confirming}
        name={config.name}
        count={config.active_process_count}
        onConfirm={toggle}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}
