import Add from '@mui/icons-material/Add';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import {
  api,
  useDeletePlatformAccountMutation,
  useListPlatformAccountsQuery,
  type PlatformAccount,
  type PlatformAuthMessage,
} from '../../../api';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useListPage } from '../../../components/ListPager';
import { useConfirmedDelete } from '../../../components/useConfirmedDelete';
import type { PanelProps } from '../banner';
import { CatalogueList } from '../CatalogueList';
import { PanelHeader } from '../PanelHeader';
import { useAuthorizationWindow } from '../useAuthorizationWindow';
import { PlatformAccountDialog } from './PlatformAccountDialog';
import { PlatformAccountItem } from './PlatformAccountItem';

type DialogState = { account?: PlatformAccount } | null;

/**
 * Settings › Platforms (issue #31): the user's TikTok and Instagram accounts, with add, rename,
 * authorize (the platform's consent window, which posts `{type: 'platform-auth', ...}` back),
 * check, switch off and remove.
 */
export function PlatformAccountsPanel({ banner }: PanelProps) {
  const { t } = useTranslation(['settings', 'common']);
  const dispatch = useDispatch();
  const { page, setPage, args: pageArgs } = useListPage();
  const query = useListPlatformAccountsQuery(pageArgs);
  const { data, isError } = query;
  const [deleteAccount] = useDeletePlatformAccountMutation();
  const [dialog, setDialog] = useState<DialogState>(null);
  const deletion = useConfirmedDelete({
    remove: (account: PlatformAccount) => {
      banner.clear();
      return deleteAccount(account.id).unwrap();
    },
    onDeleted: (account) => banner.show('success', t('platforms.messages.removed', { name: account.name })),
    onFailed: () => banner.show('error', t('platforms.messages.removeFailed')),
    failureLog: 'Failed to remove the platform account',
  });

  // A refused window knows no account: the whole list refetches.
  const reload = (id: string | null) => dispatch(api.util.invalidateTags([{ type: 'PlatformAccount', id: id ?? 'LIST' }]));
  const openAuthorization = useAuthorizationWindow<PlatformAuthMessage>('platform-auth', {
    onMessage: (message) => {
      if (message.ok) banner.show('success', message.message || t('platforms.messages.authorized'));
      else banner.show('error', message.message || t('platforms.messages.authorizationFailed'));
      reload(message.account_id);
    },
    onClosed: reload,
  });

  const accounts = isError ? [] : (data?.platform_accounts ?? []);
  const openCreate = () => {
    banner.clear();
    setDialog({});
  };

  const addButton = (
    <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
      {t('platforms.add')}
    </Button>
  );

  return (
    <>
      <PanelHeader title={t('menu.platforms')} subtitle={t('platforms.subtitle')} action={addButton} />
      <CatalogueList
        query={query}
        rows={accounts}
        label={t('menu.platforms')}
        loadFailed={t('platforms.loadFailed')}
        empty={{ icon: <ShareOutlined />, message: t('platforms.empty'), action: addButton }}
        page={page}
        onPage={setPage}
      >
        {(account) => (
          <PlatformAccountItem
            key={account.id}
            account={account}
            banner={banner}
            openAuthorization={openAuthorization}
            onEdit={(target) => {
              banner.clear();
              setDialog({ account: target });
            }}
            onDelete={deletion.ask}
          />
        )}
      </CatalogueList>
      {dialog && (
        <PlatformAccountDialog
          account={dialog.account}
          setup={data}
          beforeSubmit={banner.clear}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            banner.show('success', t('platforms.messages.saved'));
          }}
        />
      )}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('platforms.delete.title', { name: deletion.target?.name ?? '' })}
        message={t('platforms.delete.message')}
        confirmLabel={t('platforms.delete.confirm')}
      />
    </>
  );
}
