import Add from '@mui/icons-material/Add';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteProxyMutation, useListProxiesQuery, useMeQuery, type ProxyServer } from '../../../api';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useListPage } from '../../../components/ListPager';
import { useConfirmedDelete } from '../../../components/useConfirmedDelete';
import type { PanelProps } from '../banner';
import { CatalogueList } from '../CatalogueList';
import { PanelHeader } from '../PanelHeader';
import { ProxyDialog } from './ProxyDialog';
import { ProxyItem } from './ProxyItem';

type DialogState = { proxy?: ProxyServer } | null;

/** Settings › Proxies, for admins only: renders nothing (and calls nothing) for anyone else. */
export function ProxiesPanel({ banner }: PanelProps) {
  const { data: user } = useMeQuery();
  if (!user?.is_admin) return null;
  return <AdminProxiesPanel banner={banner} />;
}

function AdminProxiesPanel({ banner }: PanelProps) {
  const { t } = useTranslation(['settings', 'common']);
  const { page, setPage, args: pageArgs } = useListPage();
  const query = useListProxiesQuery(pageArgs);
  const [deleteProxy] = useDeleteProxyMutation();
  const [dialog, setDialog] = useState<DialogState>(null);
  const deletion = useConfirmedDelete({
    remove: (proxy: ProxyServer) => {
      banner.clear();
      return deleteProxy(proxy.id).unwrap();
    },
    onDeleted: (proxy) => banner.show('success', t('proxies.messages.deleted', { name: proxy.name })),
    onFailed: () => banner.show('error', t('proxies.messages.deleteFailed')),
    failureLog: 'Failed to delete proxy',
  });

  // A list that failed to load is left empty (spec §8).
  const proxies = query.isError ? [] : (query.data?.proxies ?? []);
  const openDialog = (proxy?: ProxyServer) => {
    banner.clear();
    setDialog({ proxy });
  };

  const addButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => openDialog()}>
      {t('proxies.add')}
    </Button>
  );

  return (
    <>
      <PanelHeader title={t('menu.proxies')} subtitle={t('proxies.subtitle')} action={addButton} />
      <CatalogueList
        query={query}
        rows={proxies}
        label={t('menu.proxies')}
        loadFailed={t('proxies.loadFailed')}
        empty={{ icon: <DnsOutlined />, message: t('proxies.empty'), action: addButton }}
        page={page}
        onPage={setPage}
      >
        {(proxy) => <ProxyItem key={proxy.id} proxy={proxy} banner={banner} onEdit={openDialog} onDelete={deletion.ask} />}
      </CatalogueList>
      {dialog && (
        <ProxyDialog
          proxy={dialog.proxy}
          beforeSubmit={banner.clear}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            banner.show('success', t('proxies.messages.saved'));
          }}
        />
      )}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('proxies.delete.title', { name: deletion.target?.name ?? '' })}
        message={t('proxies.delete.message')}
        confirmLabel={t('proxies.delete.confirm')}
      />
    </>
  );
}
