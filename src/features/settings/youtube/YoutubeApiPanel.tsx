import Add from '@mui/icons-material/Add';
import YouTube from '@mui/icons-material/YouTube';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { api, errorDetail, useDeleteYoutubeApiMutation, useListYoutubeApisQuery, type YoutubeApi } from '../../../api';
import { EmptyState, LoadErrorAlert } from '../../../components';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ListSkeleton } from '../../../components/Skeletons';
import type { PanelProps } from '../banner';
import { PanelHeader } from '../PanelHeader';
import { useAuthorizationWindow } from './useAuthorizationWindow';
import { YoutubeApiDialog } from './YoutubeApiDialog';
import { YoutubeApiItem } from './YoutubeApiItem';
import { ListPager, useListPage } from '../../../components/ListPager';

type DialogState = { config?: YoutubeApi } | null;

/** Settings › YouTube API: the user's OAuth configurations, with add, edit, test/authorize and more. */
export function YoutubeApiPanel({ banner }: PanelProps) {
  const { t } = useTranslation(['settings', 'common']);
  const dispatch = useDispatch();
  const { page, setPage, args: pageArgs } = useListPage();
  const { data, error, isLoading, isError, isFetching, refetch } = useListYoutubeApisQuery(pageArgs);
  const [deleteConfig] = useDeleteYoutubeApiMutation();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [deleting, setDeleting] = useState<YoutubeApi | null>(null);

  useEffect(() => {
    if (isError) console.error('Failed to load YouTube API configurations', error);
  }, [isError, error]);

  // The window's test refreshed the channel's counts too.
  const reload = (id: string) =>
    dispatch(
      api.util.invalidateTags([
        { type: 'YoutubeApi', id },
        { type: 'Channel', id: 'LIST' },
      ]),
    );
  const openAuthorization = useAuthorizationWindow({
    onMessage: (message) => {
      if (message.ok) banner.show('success', message.message || t('youtube.messages.authorized'));
      else banner.show('error', message.message || t('youtube.messages.authorizationFailed'));
      reload(message.config_id);
    },
    onClosed: reload,
  });

  const configs = isError ? [] : (data?.youtube_apis ?? []);
  const openCreate = () => {
    banner.clear();
    setDialog({});
  };

  const remove = async () => {
    if (!deleting) return;
    banner.clear();
    try {
      await deleteConfig(deleting.id).unwrap();
      banner.show('success', t('youtube.messages.deleted', { name: deleting.name }));
    } catch (failure) {
      console.error('Failed to delete YouTube API configuration', failure);
      banner.show('error', t('youtube.messages.deleteFailed'));
    } finally {
      setDeleting(null);
    }
  };

  let content;
  if (isLoading) {
    content = <ListSkeleton />;
  } else if (isError) {
    content = (
      <LoadErrorAlert
        message={t('youtube.loadFailed')}
        reason={errorDetail(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  } else if (configs.length === 0) {
    content = (
      <EmptyState
        icon={<YouTube />}
        message={t('youtube.empty')}
        action={
          <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
            {t('youtube.add')}
          </Button>
        }
      />
    );
  } else {
    content = (
      <Box component="ul" aria-label={t('menu.youtube')} sx={{ m: 0, p: 0, display: 'grid', gap: 1.5 }}>
        {configs.map((config) => (
          <YoutubeApiItem
            key={config.id}
            config={config}
            banner={banner}
            openAuthorization={openAuthorization}
            onEdit={(target) => {
              banner.clear();
              setDialog({ config: target });
            }}
            onDelete={setDeleting}
          />
        ))}
      </Box>
    );
  }

  return (
    <>
      <PanelHeader
        title={t('menu.youtube')}
        subtitle={t('youtube.subtitle')}
        action={
          <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
            {t('youtube.add')}
          </Button>
        }
      />
      {content}
      {data && !isError && <ListPager page={page} shown={configs.length} total={data.total} onPage={setPage} />}
      {dialog && (
        <YoutubeApiDialog
          config={dialog.config}
          redirectUri={data?.oauth_redirect_uri}
          beforeSubmit={banner.clear}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            banner.show('success', t('youtube.messages.saved'));
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('youtube.delete.title', { name: deleting?.name ?? '' })}
        message={t('youtube.delete.message')}
        confirmLabel={t('youtube.delete.confirm')}
        busyLabel={t('common:actions.deleting')}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
