import LibraryMusicOutlined from '@mui/icons-material/LibraryMusicOutlined';
import { useDeleteMusicMutation, useListMusicQuery, useMeQuery, type MusicTrack } from '../../../api';
import { useListPage } from '../../../components/ListPager';
import { useSamplePlayer } from '../../../components/useSamplePlayer';
import { AdminCatalogue } from '../AdminCatalogue';
import type { PanelProps } from '../banner';
import { MusicDialog } from './MusicDialog';
import { MusicItem } from './MusicItem';

/** Settings › Music, for admins only: renders nothing (and calls nothing) for anyone else. */
export function MusicPanel({ banner }: PanelProps) {
  const { data: user } = useMeQuery();
  if (!user?.is_admin) return null;
  return <AdminMusicPanel banner={banner} />;
}

function AdminMusicPanel({ banner }: PanelProps) {
  const { page, setPage, args: pageArgs } = useListPage();
  const query = useListMusicQuery(pageArgs);
  const [deleteMusic] = useDeleteMusicMutation();
  const { playingId, toggle, stop } = useSamplePlayer();

  return (
    <AdminCatalogue<MusicTrack>
      banner={banner}
      section="music"
      icon={<LibraryMusicOutlined />}
      query={query}
      // A list that failed to load is emptied (spec §8).
      rows={query.isError ? [] : (query.data?.music ?? [])}
      page={page}
      onPage={setPage}
      remove={(track) => {
        if (playingId === track.id) stop();
        return deleteMusic(track.id).unwrap();
      }}
      failureLog="Failed to delete music"
      onOpenDialog={stop}
      renderItem={(track, handlers) => (
        <MusicItem
          key={track.id}
          track={track}
          banner={banner}
          playing={playingId === track.id}
          onTogglePlay={(target) => toggle(target.id, target.audio_url)}
          {...handlers}
        />
      )}
      renderDialog={(track, handlers) => <MusicDialog track={track} {...handlers} />}
    />
  );
}
