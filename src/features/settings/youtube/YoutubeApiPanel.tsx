import Add from '@mui/icons-material/Add';
import YouTube from '@mui/icons-material/YouTube';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import {
  api,
  useDeleteYoutubeApiMutation,
  useListYoutubeApisQuery,
  type YoutubeApi,
  type YoutubeAuthMessage,
} from '../../../api';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useListPage } from '../../../components/ListPager';
import { useConfirmedDelete } from '../../../components/useConfirmedDelete';
import type { PanelProps } from '../banner';
import { CatalogueList } from '../CatalogueList';
import { PanelHeader } from '../PanelHeader';
import { useAuthorizationWindow } from '../useAuthorizationWindow';
import { YoutubeApiDialog } from './YoutubeApiDialog';
import { YoutubeApiItem } from './YoutubeApiItem';

type DialogState = { config?: YoutubeApi } | null;

/** Settings › YouTube API: the user's OAuth configurations, with add, edit, test/authorize and more. */
export function YoutubeApiPanel({ banner }: PanelProps) {
  const { t } = useTranslation(['settings', 'common']);
  const dispatch = useDispatch();
  const { page, setPage, args: pageArgs } = useListPage();
  const query = useListYoutubeApisQuery(pageArgs);
  const { data, isError } = query;
  const [deleteConfig] = useDeleteYoutubeApiMutation();
  const [dialog, setDialog] = useState<DialogState>(null);
  const deletion = useConfirmedDelete({
    remove: (config: YoutubeApi) => {
      banner.clear();
      return deleteConfig(config.id).unwrap();
    },
    onDeleted: (config) => banner.show('success', t('youtube.messages.deleted', { name: config.name })),
    onFailed: () => banner.show('error', t('youtube.messages.deleteFailed')),
    failureLog: 'Failed to delete YouTube API configuration',
  });

  // The window's test refreshed the channel's counts too.
  const reload = (id: string) =>
    dispatch(
      api.util.invalidateTags([
        { type: 'YoutubeApi', id },
        { type: 'Channel', id: 'LIST' },
      ]),
    );
  const openAuthorization = useAuthorizationWindow<YoutubeAuthMessage>('youtube-auth', {
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

  const addButton = (
    <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
      {t('youtube.add')}
    </Button>
  );

  return (
    <>
      <PanelHeader title={t('menu.youtube')} subtitle={t('youtube.subtitle')} action={addButton} />
      <CatalogueList
        query={query}
        rows={configs}
        label={t('menu.youtube')}
        loadFailed={t('youtube.loadFailed')}
        empty={{ icon: <YouTube />, message: t('youtube.empty'), action: addButton }}
        page={page}
        onPage={setPage}
      >
        {(config) => (
          <YoutubeApiItem
            key={config.id}
            config={config}
            banner={banner}
            openAuthorization={openAuthorization}
            onEdit={(target) => {
              banner.clear();
              setDialog({ config: target });
            }}
            onDelete={deletion.ask}
          />
        )}
      </CatalogueList>
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
        {...deletion.dialog}
        title={t('youtube.delete.title', { name: deletion.target?.name ?? '' })}
        message={t('youtube.delete.message')}
        confirmLabel={t('youtube.delete.confirm')}
      />
    </>
  );
}
