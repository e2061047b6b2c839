import DevicesOutlined from '@mui/icons-material/DevicesOutlined';
import Logout from '@mui/icons-material/Logout';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import {
  errorDetail,
  loggedOut,
  useListSessionsQuery,
  useRevokeOtherSessionsMutation,
  useRevokeSessionMutation,
  type Session,
} from '../../../api';
import { EmptyState, LoadErrorAlert, useLocale } from '../../../components';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ListSkeleton } from '../../../components/Skeletons';
import { StatusChip } from '../../../components/StatusChip';
import { formatDateTime } from '../../../lib/dates';
import type { PanelProps } from '../banner';
import { deviceName, timeAgo } from './sessionDevice';

/**
 * Settings › Security, "Signed-in devices": every session of the account (GET /auth/sessions), the
 * browser's own marked "This device", each with its own sign-out, and "Sign out everywhere else".
 * Signing this device out is signing out here.
 */
export function SessionsCard({ banner }: PanelProps) {
  const { t } = useTranslation(['settings', 'common']);
  const locale = useLocale();
  const dispatch = useDispatch();
  const { data, error, isLoading, isError, isFetching, refetch } = useListSessionsQuery();
  const [revokeSession] = useRevokeSessionMutation();
  const [revokeOthers] = useRevokeOtherSessionsMutation();
  const [revoking, setRevoking] = useState<Session | null>(null);
  const [confirmOthers, setConfirmOthers] = useState(false);

  const sessions = isError ? [] : (data?.sessions ?? []);
  const others = sessions.filter((session) => !session.current).length;

  const deviceOf = (session: Session) => {
    const { browser, system } = deviceName(session.user_agent);
    if (browser && system) return t('security.sessions.device', { browser, system });
    return browser ?? system ?? t('security.sessions.unknownDevice');
  };
  const addressOf = (session: Session) => session.ip || t('security.sessions.unknownAddress');

  const revoke = async () => {
    if (!revoking) return;
    banner.clear();
    const device = deviceOf(revoking);
    try {
      await revokeSession({ id: revoking.id }).unwrap();
      if (revoking.current) {
        dispatch(loggedOut()); // this browser's own session: signed out here (the listener drops the cache)
        return;
      }
      banner.show('success', t('security.sessions.messages.revoked', { device }));
    } catch (failure) {
      console.error('Failed to sign a session out', failure);
      banner.show('error', errorDetail(failure) ?? t('security.sessions.messages.revokeFailed'));
    } finally {
      setRevoking(null);
    }
  };

  const revokeEverywhereElse = async () => {
    banner.clear();
    try {
      const result = await revokeOthers().unwrap();
      banner.show('success', result.detail);
    } catch (failure) {
      console.error('Failed to sign the other sessions out', failure);
      banner.show('error', errorDetail(failure) ?? t('security.sessions.messages.revokeOthersFailed'));
    } finally {
      setConfirmOthers(false);
    }
  };

  let content;
  if (isLoading) {
    content = <ListSkeleton rows={2} />;
  } else if (isError) {
    content = (
      <LoadErrorAlert
        message={t('security.sessions.loadFailed')}
        reason={errorDetail(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  } else if (sessions.length === 0) {
    content = <EmptyState icon={<DevicesOutlined />} message={t('security.sessions.empty')} />;
  } else {
    content = (
      <Box component="ul" aria-label={t('security.sessions.list')} sx={{ m: 0, p: 0, display: 'grid', gap: 1.5 }}>
        {sessions.map((session) => {
          const device = deviceOf(session);
          const ago = timeAgo(session.last_used_at, locale);
          const active =
            session.current || !ago ? t('security.sessions.activeNow') : t('security.sessions.lastActive', { when: ago });
          return (
            <Paper
              key={session.id}
              component="li"
              variant="outlined"
              aria-label={device}
              sx={{
                p: 2,
                listStyle: 'none',
                display: 'flex',
                flexWrap: 'wrap',
                alignItems: 'center',
                justifyContent: 'space-between',
                gap: 1.5,
              }}
            >
              <Box sx={{ minWidth: 0 }}>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                  <Typography component="h4" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                    {device}
                  </Typography>
                  {session.current && <StatusChip tone="success" label={t('security.sessions.thisDevice')} />}
                </Box>
                <Typography variant="body2" color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
                  {addressOf(session)} · {active}
                </Typography>
                <Typography variant="caption" color="textSecondary">
                  {t('security.sessions.signedIn', { date: formatDateTime(session.created_at, { locale }) })}
                </Typography>
              </Box>
              <Button
                size="small"
                variant="outlined"
                color="error"
                startIcon={<Logout />}
                onClick={() => {
                  banner.clear();
                  setRevoking(session);
                }}
                aria-label={t('security.sessions.signOutLabel', { device, ip: addressOf(session) })}
              >
                {t('security.sessions.signOut')}
              </Button>
            </Paper>
          );
        })}
      </Box>
    );
  }

  return (
    <Paper variant="outlined" component="section" aria-labelledby="sessions-title" sx={{ p: 2.5, maxWidth: 640, mt: 3 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1.5, mb: 2 }}>
        <Box sx={{ minWidth: 0, flex: '1 1 240px' }}>
          <Typography id="sessions-title" component="h3" variant="h6">
            {t('security.sessions.title')}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {t('security.sessions.intro')}
          </Typography>
        </Box>
        {others > 0 && (
          <Button
            variant="outlined"
            color="error"
            onClick={() => {
              banner.clear();
              setConfirmOthers(true);
            }}
          >
            {t('security.sessions.signOutOthers')}
          </Button>
        )}
      </Box>
      {content}
      <ConfirmDialog
        open={revoking !== null}
        title={t('security.sessions.revoke.title', { device: revoking ? deviceOf(revoking) : '' })}
        message={
          revoking?.current
            ? t('security.sessions.revoke.messageCurrent')
            : t('security.sessions.revoke.message', { ip: revoking ? addressOf(revoking) : '' })
        }
        confirmLabel={t('security.sessions.revoke.confirm')}
        busyLabel={t('common:actions.working')}
        onConfirm={revoke}
        onClose={() => setRevoking(null)}
      />
      <ConfirmDialog
        open={confirmOthers}
        title={t('security.sessions.revokeOthers.title')}
        message={t('security.sessions.revokeOthers.message')}
        confirmLabel={t('security.sessions.revokeOthers.confirm')}
        busyLabel={t('common:actions.working')}
        onConfirm={revokeEverywhereElse}
        onClose={() => setConfirmOthers(false)}
      />
    </Paper>
  );
}
