import Add from '@mui/icons-material/Add';
import SubscriptionsOutlined from '@mui/icons-material/SubscriptionsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, useDeleteChannelMutation, useListChannelsQuery, type Channel } from '../../api';
import { EmptyState, LoadErrorAlert, PageHeader } from '../../components';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FeedbackSnackbar, useFeedback } from '../../components/Feedback';
import { CARD_GRID_SX, CardGridSkeleton } from '../../components/Skeletons';
import { ChannelCard } from './ChannelCard';
import { ChannelDialog } from './ChannelDialog';
import { channelLabel } from './schemas';
import { ListPager, useListPage } from '../../components/ListPager';

type DialogState = { mode: 'create' } | { mode: 'edit'; channel: Channel } | null;

/** /channels: the user's YouTube channels as cards, with connect, edit, toggle and remove. */
export default function ChannelsPage() {
  const { t } = useTranslation(['channels', 'common']);
  const { page, setPage, args: pageArgs } = useListPage();
  const { data, error, isLoading, isError, isFetching, refetch } = useListChannelsQuery(pageArgs);
  const [deleteChannel] = useDeleteChannelMutation();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [removing, setRemoving] = useState<Channel | null>(null);
  const { feedback, show, clear } = useFeedback();

  useEffect(() => {
    if (isError) console.error('Failed to load channels', error);
  }, [isError, error]);

  // A list that failed to load is empty (spec §7); the alert says so and offers a retry.
  const channels = isError ? [] : (data?.channels ?? []);
  const openCreate = () => setDialog({ mode: 'create' });

  const remove = async () => {
    if (!removing) return;
    const name = channelLabel(removing);
    try {
      await deleteChannel(removing.id).unwrap();
      show('success', t('messages.removed', { name }));
    } catch (failure) {
      console.error('Failed to delete channel', failure);
      show('error', errorDetail(failure) ?? t('messages.removeFailed'));
    } finally {
      setRemoving(null);
    }
  };

  let content;
  if (isLoading) {
    content = <CardGridSkeleton />;
  } else if (isError) {
    content = (
      <LoadErrorAlert
        message={t('loadFailed')}
        reason={errorDetail(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  } else if (channels.length === 0) {
    content = (
      <EmptyState
        icon={<SubscriptionsOutlined />}
        message={t('empty')}
        action={
          <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
            {t('connect')}
          </Button>
        }
      />
    );
  } else {
    content = (
      <Box sx={CARD_GRID_SX}>
        {channels.map((channel) => (
          <ChannelCard
            key={channel.id}
            channel={channel}
            onEdit={(target) => setDialog({ mode: 'edit', channel: target })}
            onRemove={setRemoving}
            onToggled={show}
          />
        ))}
      </Box>
    );
  }

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        action={
          <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
            {t('connect')}
          </Button>
        }
      />
      {content}
      {data && !isError && <ListPager page={page} shown={channels.length} total={data.total} onPage={setPage} />}
      {dialog && (
        <ChannelDialog
          channel={dialog.mode === 'edit' ? dialog.channel : undefined}
          onClose={() => setDialog(null)}
          onSaved={(message) => {
            setDialog(null);
            show('success', message);
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('remove.title', { name: removing ? channelLabel(removing) : '' })}
        message={t('remove.message')}
        confirmLabel={t('remove.confirm')}
        busyLabel={t('remove.removing')}
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      />
      <FeedbackSnackbar feedback={feedback} onClose={clear} />
    </>
  );
}
