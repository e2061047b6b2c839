import Add from '@mui/icons-material/Add';
import LibraryMusicOutlined from '@mui/icons-material/LibraryMusicOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorDetail, errorStatus, useDeleteMusicMutation, useListMusicQuery, useMeQuery, type MusicTrack } from '../../../api';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { useListPage } from '../../../components/ListPager';
import { useSamplePlayer } from '../../../components/useSamplePlayer';
import type { PanelProps } from '../banner';
import { CatalogueList } from '../CatalogueList';
import { PanelHeader } from '../PanelHeader';
import { MusicDialog } from './MusicDialog';
import { MusicItem } from './MusicItem';

type DialogState = { track?: MusicTrack } | null;

/** Settings › Music, for admins only: renders nothing (and calls nothing) for anyone else. */
export function MusicPanel({ banner }: PanelProps) {
  const { data: user } = useMeQuery();
  if (!user?.is_admin) return null;
  return <AdminMusicPanel banner={banner} />;
}

function AdminMusicPanel({ banner }: PanelProps) {
  const { t } = useTranslation(['settings', 'common']);
  const { page, setPage, args: pageArgs } = useListPage();
  const query = useListMusicQuery(pageArgs);
  const { data, error, isError } = query;
  const [deleteMusic] = useDeleteMusicMutation();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [deleting, setDeleting] = useState<MusicTrack | null>(null);
  const { playingId, toggle, stop } = useSamplePlayer();

  useEffect(() => {
    if (isError) console.error('Failed to load music', error);
  }, [isError, error]);

  // A list that failed to load is emptied (spec §8).
  const tracks = isError ? [] : (data?.music ?? []);

  const openDialog = (track?: MusicTrack) => {
    banner.clear();
    stop();
    setDialog({ track });
  };

  const remove = async () => {
    if (!deleting) return;
    banner.clear();
    if (playingId === deleting.id) stop();
    try {
      const result = await deleteMusic(deleting.id).unwrap();
      banner.show('success', result.detail?.trim() || t('music.messages.deleted'));
    } catch (failure) {
      console.error('Failed to delete music', failure);
      banner.show(
        'error',
        errorStatus(failure) === 404 ? (errorDetail(failure) ?? t('music.messages.notFound')) : t('music.messages.deleteFailed'),
      );
    } finally {
      setDeleting(null);
    }
  };

  const addButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => openDialog()}>
      {t('music.add')}
    </Button>
  );

  return (
    <>
      <PanelHeader title={t('menu.music')} subtitle={t('music.subtitle')} action={addButton} />
      <CatalogueList
        query={query}
        rows={tracks}
        label={t('menu.music')}
        loadFailed={t('music.loadFailed')}
        empty={{ icon: <LibraryMusicOutlined />, message: t('music.empty'), action: addButton }}
        page={page}
        onPage={setPage}
      >
        {(track) => (
          <MusicItem
            key={track.id}
            track={track}
            banner={banner}
            playing={playingId === track.id}
            onTogglePlay={(target) => toggle(target.id, target.audio_url)}
            onEdit={openDialog}
            onDelete={setDeleting}
          />
        )}
      </CatalogueList>
      {dialog && (
        <MusicDialog
          track={dialog.track}
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
        title={t('music.delete.title', { name: deleting?.name ?? '' })}
        message={
          deleting && (
            <Alert severity="warning">
              {t('music.delete.message')} {t('music.delete.processes', { count: deleting.process_count })}
            </Alert>
          )
        }
        confirmLabel={t('music.delete.confirm')}
        busyLabel={t('common:actions.deleting')}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
