import Add from '@mui/icons-material/Add';
import SubscriptionsOutlined from '@mui/icons-material/SubscriptionsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, useDeleteChannelMutation, useListChannelsQuery, type Channel } from '../../api';
import { PageHeader } from '../../components';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FeedbackSnackbar, useFeedback } from '../../components/Feedback';
import { ListBody } from '../../components/ListBody';
import { useListPage } from '../../components/ListPager';
import { CARD_GRID_SX, CardGridSkeleton } from '../../components/Skeletons';
import { useConfirmedDelete } from '../../components/useConfirmedDelete';
import { ChannelCard } from './ChannelCard';
import { ChannelDialog } from './ChannelDialog';
import { channelLabel } from './schemas';

type DialogState = { mode: 'create' } | { mode: 'edit'; channel: Channel } | null;

/** /channels: the user's YouTube channels as cards, with connect, edit, toggle and remove. */
export default function ChannelsPage() {
  const { t } = useTranslation(['channels', 'common']);
  const { page, setPage, args: pageArgs } = useListPage();
  const query = useListChannelsQuery(pageArgs);
  const [deleteChannel] = useDeleteChannelMutation();
  const [dialog, setDialog] = useState<DialogState>(null);
  const { feedback, show, clear } = useFeedback();
  const removal = useConfirmedDelete({
    remove: (channel: Channel) => deleteChannel(channel.id).unwrap(),
    onDeleted: (channel) => show('success', t('messages.removed', { name: channelLabel(channel) })),
    onFailed: (_channel, failure) => show('error', errorDetail(failure) ?? t('messages.removeFailed')),
    failureLog: 'Failed to delete channel',
  });

  // A list that failed to load is empty (spec §7); the alert says so and offers a retry.
  const channels = query.isError ? [] : (query.data?.channels ?? []);
  const openCreate = () => setDialog({ mode: 'create' });

  const connectButton = (
    <Button variant="contained" startIcon={<Add />} onClick={openCreate}>
      {t('connect')}
    </Button>
  );

  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} action={connectButton} />
      <ListBody
        query={query}
        rows={channels}
        loadFailed={t('loadFailed')}
        reason={errorDetail(query.error)}
        empty={{ icon: <SubscriptionsOutlined />, message: t('empty'), action: connectButton }}
        page={page}
        onPage={setPage}
        skeleton={<CardGridSkeleton />}
      >
        {(rows) => (
          <Box sx={CARD_GRID_SX}>
            {rows.map((channel) => (
              <ChannelCard
                key={channel.id}
                channel={channel}
                onEdit={(target) => setDialog({ mode: 'edit', channel: target })}
                onRemove={removal.ask}
                onToggled={show}
              />
            ))}
          </Box>
        )}
      </ListBody>
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
        {...removal.dialog}
        title={t('remove.title', { name: removal.target ? channelLabel(removal.target) : '' })}
        message={t('remove.message')}
        confirmLabel={t('remove.confirm')}
        busyLabel={t('remove.removing')}
      />
      <FeedbackSnackbar feedback={feedback} onClose={clear} />
    </>
  );
}
