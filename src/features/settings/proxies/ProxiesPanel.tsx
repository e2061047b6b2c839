import Add from '@mui/icons-material/Add';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, useDeleteProxyMutation, useListProxiesQuery, useMeQuery, type ProxyServer } from '../../../api';
import { EmptyState, LoadErrorAlert } from '../../../components';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ListSkeleton } from '../../../components/Skeletons';
import type { PanelProps } from '../banner';
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
  const { data, error, isLoading, isError, isFetching, refetch } = useListProxiesQuery();
  const [deleteProxy] = useDeleteProxyMutation();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [deleting, setDeleting] = useState<ProxyServer | null>(null);

  useEffect(() => {
    if (isError) console.error('Failed to load proxies', error);
  }, [isError, error]);

  // A list that failed to load is left empty (spec §8).
  const proxies = isError ? [] : (data?.proxies ?? []);
  const openDialog = (proxy?: ProxyServer) => {
    banner.clear();
    setDialog({ proxy });
  };

  const remove = async () => {
    if (!deleting) return;
    banner.clear();
    try {
      await deleteProxy(deleting.id).unwrap();
      banner.show('success', t('proxies.messages.deleted', { name: deleting.name }));
    } catch (failure) {
      console.error('Failed to delete proxy', failure);
      banner.show('error', t('proxies.messages.deleteFailed'));
    } finally {
      setDeleting(null);
    }
  };

  const addButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => openDialog()}>
      {t('proxies.add')}
    </Button>
  );

  let content;
  if (isLoading) {
    content = <ListSkeleton />;
  } else if (isError) {
    content = (
      <LoadErrorAlert
        message={t('proxies.loadFailed')}
        reason={errorDetail(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  } else if (proxies.length === 0) {
    content = <EmptyState icon={<DnsOutlined />} message={t('proxies.empty')} action={addButton} />;
  } else {
    content = (
      <Box component="ul" aria-label={t('menu.proxies')} sx={{ m: 0, p: 0, display: 'grid', gap: 1.5 }}>
        {proxies.map((proxy) => (
          <ProxyItem key={proxy.id} proxy={proxy} banner={banner} onEdit={openDialog} onDelete={setDeleting} />
        ))}
      </Box>
    );
  }

  return (
    <>
      <PanelHeader title={t('menu.proxies')} subtitle={t('proxies.subtitle')} action={addButton} />
      {content}
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
        open={deleting !== null}
        title={t('proxies.delete.title', { name: deleting?.name ?? '' })}
        message={t('proxies.delete.message')}
        confirmLabel={t('proxies.delete.confirm')}
        busyLabel={t('common:actions.deleting')}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
