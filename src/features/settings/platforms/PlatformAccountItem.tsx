import NetworkCheck from '@mui/icons-material/NetworkCheck';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import {
  errorDetail,
  useAuthorizePlatformAccountMutation,
  useTestPlatformAccountMutation,
  useTogglePlatformAccountMutation,
  useUpdatePlatformAccountMutation,
  type PlatformAccount,
  type PlatformAccountChoice,
} from '../../../api';
import { useLocale } from '../../../components';
import { RowActions } from '../../../components/RowActions';
import { StatusChip } from '../../../components/StatusChip';
import { formatDateTime } from '../../../lib/dates';
import type { SettingsBanner } from '../banner';
import { CatalogueItem } from '../CatalogueItem';
import { PlatformIcon } from './PlatformIcon';

/** How a choice is named: its @username, else (Meta answered none) its Page's name. */
const choiceName = (choice: PlatformAccountChoice) => (choice.username ? `@${choice.username}` : choice.page_name);

export interface PlatformAccountItemProps {
  account: PlatformAccount;
  banner: SettingsBanner;
  /** Opens the consent window; false when the browser blocked it. */
  openAuthorization: (url: string, accountId: string) => boolean;
  onEdit: (account: PlatformAccount) => void;
  onDelete: (account: PlatformAccount) => void;
}

/**
 * One TikTok or Instagram account: the platform's mark, the name given here, the profile the
 * platform answered (picture, display name, @username), its state (connected, needs authorization,
 * disconnected with the server's reason; switched-off ones dimmed), the private-only note of an
 * unaudited TikTok app, and when it was last checked. Authorize opens the platform's consent
 * window; Check tests the stored tokens. An Instagram login that manages several professional
 * accounts answers `choices`: the owner picks the one to publish as.
 */
export function PlatformAccountItem({ account, banner, openAuthorization, onEdit, onDelete }: PlatformAccountItemProps) {
  const { t } = useTranslation(['settings', 'common']);
  const locale = useLocale();
  const [toggleAccount, { isLoading: toggling }] = useTogglePlatformAccountMutation();
  const [testAccount, { isLoading: testing }] = useTestPlatformAccountMutation();
  const [authorize, { isLoading: authorizing }] = useAuthorizePlatformAccountMutation();
  const [updateAccount, { isLoading: choosing }] = useUpdatePlatformAccountMutation();
  const { name } = account;
  const choices = account.choices ?? [];
  // Only a stored authorization can be checked; a pending choice has none to publish with yet.
  const canTest = account.external_id !== null && !account.needs_authorization;

  const toggle = async () => {
    banner.clear();
    try {
      await toggleAccount(account.id).unwrap();
    } catch (error) {
      console.error('Failed to toggle the platform account', error);
      banner.show('error', errorDetail(error) ?? t('platforms.messages.toggleFailed'));
    }
  };

  const test = async () => {
    banner.clear();
    try {
      const result = await testAccount(account.id).unwrap();
      if (result.is_connected) banner.show('success', result.detail || t('platforms.messages.testSuccess'));
      else banner.show('error', result.detail || t('platforms.messages.testFailed'));
    } catch (error) {
      console.error('Failed to test the platform account', error);
      banner.show('error', errorDetail(error) ?? t('platforms.messages.testFailed'));
    }
  };

  const startAuthorization = async () => {
    banner.clear();
    try {
      const { url } = await authorize(account.id).unwrap();
      if (!openAuthorization(url, account.id)) banner.show('error', t('platforms.messages.popupBlocked'));
    } catch (error) {
      console.error('Failed to start the platform authorization', error);
      banner.show('error', errorDetail(error) ?? t('platforms.messages.authorizeFailed'));
    }
  };

  const choose = async (choice: PlatformAccountChoice) => {
    banner.clear();
    try {
      await updateAccount({ id: account.id, external_id: choice.external_id }).unwrap();
      banner.show('success', t('platforms.messages.chosen', { account: choiceName(choice) }));
    } catch (error) {
      console.error('Failed to choose the Instagram account', error);
      banner.show('error', errorDetail(error) ?? t('platforms.messages.chooseFailed'));
    }
  };

  // A pending choice is not a broken connection: the owner has one step left.
  const status = account.needs_authorization
    ? { tone: 'warning' as const, label: t('platforms.status.needsAuthorization') }
    : choices.length > 0
      ? { tone: 'warning' as const, label: t('platforms.status.choose') }
      : account.is_connected
        ? { tone: 'success' as const, label: t('common:status.connected', { context: 'female' }) }
        : { tone: 'error' as const, label: t('common:status.disconnected', { context: 'female' }) };

  return (
    <CatalogueItem
      name={name}
      active={account.is_active}
      disabledLabel={t('platforms.status.switchedOff')}
      chips={
        <>
          <PlatformIcon platform={account.platform} fontSize="small" />
          {account.private_only && <StatusChip tone="warning" label={t('platforms.status.privateOnly')} />}
        </>
      }
      status={<StatusChip tone={status.tone} label={status.label} />}
      notice={
        <>
          {account.private_only && (
            <Alert severity="warning" role="note" sx={{ mt: 1.5 }}>
              {t('platforms.privateOnly')}
            </Alert>
          )}
          {choices.length > 0 && (
            <Alert severity="info" role="note" sx={{ mt: 1.5, '& .MuiAlert-message': { minWidth: 0, width: '100%' } }}>
              {t('platforms.choose')}
              <Box
                component="ul"
                aria-label={t('platforms.choicesLabel', { name })}
                sx={{ m: 0, mt: 1, p: 0, display: 'grid', gap: 1 }}
              >
                {choices.map((choice) => (
                  <Box
                    component="li"
                    key={choice.external_id}
                    sx={{ listStyle: 'none', display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}
                  >
                    <Avatar src={choice.picture_url ?? undefined} alt="" sx={{ width: 32, height: 32 }} />
                    <Box sx={{ minWidth: 0, flex: 1 }}>
                      <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                        {choice.page_name}
                      </Typography>
                      {choice.username && (
                        <Typography variant="caption" color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
                          @{choice.username}
                        </Typography>
                      )}
                    </Box>
                    <Button
                      size="small"
                      variant="outlined"
                      onClick={() => choose(choice)}
                      disabled={choosing}
                      aria-label={t('platforms.actions.choose', { account: choiceName(choice) })}
                    >
                      {t('platforms.use')}
                    </Button>
                  </Box>
                ))}
              </Box>
            </Alert>
          )}
        </>
      }
      actions={
        <RowActions
          name={name}
          active={account.is_active}
          onToggle={toggle}
          toggling={toggling}
          onEdit={() => onEdit(account)}
          onDelete={() => onDelete(account)}
          deleteLabel={t('platforms.actions.remove', { name })}
        >
          {canTest && (
            <Button
              size="small"
              startIcon={<NetworkCheck />}
              onClick={test}
              disabled={testing}
              aria-label={t('platforms.actions.test', { name })}
            >
              {testing ? t('platforms.testing') : t('platforms.test')}
            </Button>
          )}
          <Button
            size="small"
            variant={canTest ? 'text' : 'outlined'}
            startIcon={<VpnKeyOutlined />}
            onClick={startAuthorization}
            disabled={authorizing}
            aria-label={t('platforms.actions.authorize', { name })}
          >
            {canTest ? t('platforms.reauthorize') : t('platforms.authorize')}
          </Button>
        </RowActions>
      }
    >
      {account.username ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5, minWidth: 0 }}>
          <Avatar src={account.avatar_url ?? undefined} alt="" sx={{ width: 28, height: 28 }} />
          <Typography variant="body2" color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
            {account.display_name ? `${account.display_name} · ` : ''}@{account.username}
          </Typography>
        </Box>
      ) : (
        <Typography variant="body2" color="textSecondary">
          {t('platforms.notAuthorized')}
        </Typography>
      )}
      {account.disconnect_reason && (
        <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
          {account.disconnect_reason}
        </Typography>
      )}
      <Typography variant="caption" color="textSecondary" sx={{ display: 'block' }}>
        {account.last_tested
          ? t('platforms.lastChecked', { date: formatDateTime(account.last_tested, { locale }) })
          : t('platforms.neverChecked')}
      </Typography>
    </CatalogueItem>
  );
}
