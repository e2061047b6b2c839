import Add from '@mui/icons-material/Add';
import RecordVoiceOverOutlined from '@mui/icons-material/RecordVoiceOverOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, errorStatus, useDeleteVoiceMutation, useListVoicesQuery, useMeQuery, type Voice } from '../../../api';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useSamplePlayer } from '../../../components/useSamplePlayer';
import type { PanelProps } from '../banner';
import { CatalogueList } from '../CatalogueList';
import { PanelHeader } from '../PanelHeader';
import { VoiceDialog } from './VoiceDialog';
import { VoiceItem } from './VoiceItem';
import { useListPage } from '../../../components/ListPager';

type DialogState = { voice?: Voice } | null;

/** Settings › Voices, for admins only: renders nothing (and calls nothing) for anyone else. */
export function VoicesPanel({ banner }: PanelProps) {
  const { data: user } = useMeQuery();
  if (!user?.is_admin) return null;
  return <AdminVoicesPanel banner={banner} />;
}

function AdminVoicesPanel({ banner }: PanelProps) {
  const { t } = useTranslation(['settings', 'common']);
  const { page, setPage, args: pageArgs } = useListPage();
  const query = useListVoicesQuery(pageArgs);
  const { data, error, isError } = query;
  const [deleteVoice] = useDeleteVoiceMutation();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [deleting, setDeleting] = useState<Voice | null>(null);
  const { playingId, failedId, toggle, stop } = useSamplePlayer();

  useEffect(() => {
    if (isError) console.error('Failed to load voices', error);
  }, [isError, error]);

  // A list that failed to load is emptied (spec §8).
  const voices = isError ? [] : (data?.voices ?? []);

  // An inactive voice cannot be played (spec §4): disabling the one that plays stops it.
  const listed = data?.voices;
  useEffect(() => {
    if (playingId && listed?.some((voice) => voice.id === playingId && !voice.is_active)) stop();
  }, [playingId, listed, stop]);
  const openDialog = (voice?: Voice) => {
    banner.clear();
    // The dialog has its own preview: the list's sample stops.
    stop();
    setDialog({ voice });
  };

  const remove = async () => {
    if (!deleting) return;
    banner.clear();
    if (playingId === deleting.id) stop();
    try {
      const result = await deleteVoice(deleting.id).unwrap();
      banner.show('success', result.detail?.trim() || t('voices.messages.deleted'));
    } catch (failure) {
      console.error('Failed to delete voice', failure);
      banner.show(
        'error',
        errorStatus(failure) === 404
          ? (errorDetail(failure) ?? t('voices.messages.notFound'))
          : t('voices.messages.deleteFailed'),
      );
    } finally {
      setDeleting(null);
    }
  };

  const addButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => openDialog()}>
      {t('voices.add')}
    </Button>
  );

  return (
    <>
      <PanelHeader title={t('menu.voices')} subtitle={t('voices.subtitle')} action={addButton} />
      <CatalogueList
        query={query}
        rows={voices}
        label={t('menu.voices')}
        loadFailed={t('voices.loadFailed')}
        empty={{ icon: <RecordVoiceOverOutlined />, message: t('voices.empty'), action: addButton }}
        page={page}
        onPage={setPage}
      >
        {(voice) => (
          <VoiceItem
            key={voice.id}
            voice={voice}
            banner={banner}
            playing={playingId === voice.id}
            unplayable={failedId === voice.id}
            onToggleSample={(target) => toggle(target.id, target.sample_url)}
            onEdit={openDialog}
            onDelete={setDeleting}
          />
        )}
      </CatalogueList>
      {dialog && (
        <VoiceDialog
          voice={dialog.voice}
          beforeSubmit={banner.clear}
          onClose={() => setDialog(null)}
          onSaved={(message) => {
            setDialog(null);
            banner.show('success', message);
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('voices.delete.title', { name: deleting?.name ?? '' })}
        message={
          deleting && (
            <Alert severity="warning">
              {t('voices.delete.message')} {t('voices.delete.processes', { count: deleting.process_count })}
            </Alert>
          )
        }
        confirmLabel={t('voices.delete.confirm')}
        busyLabel={t('common:actions.deleting')}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
