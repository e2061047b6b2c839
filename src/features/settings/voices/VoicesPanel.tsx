import RecordVoiceOverOutlined from '@mui/icons-material/RecordVoiceOverOutlined';
import { useEffect } from 'react';
import { useDeleteVoiceMutation, useListVoicesQuery, useMeQuery, type Voice } from '../../../api';
import { useListPage } from '../../../components/ListPager';
import { useSamplePlayer } from '../../../components/useSamplePlayer';
import { AdminCatalogue } from '../AdminCatalogue';
import type { PanelProps } from '../banner';
import { VoiceDialog } from './VoiceDialog';
import { VoiceItem } from './VoiceItem';

/** Settings › Voices, for admins only: renders nothing (and calls nothing) for anyone else. */
export function VoicesPanel({ banner }: PanelProps) {
  const { data: user } = useMeQuery();
  if (!user?.is_admin) return null;
  return <AdminVoicesPanel banner={banner} />;
}

function AdminVoicesPanel({ banner }: PanelProps) {
  const { page, setPage, args: pageArgs } = useListPage();
  const query = useListVoicesQuery(pageArgs);
  const [deleteVoice] = useDeleteVoiceMutation();
  const { playingId, failedId, toggle, stop } = useSamplePlayer();

  // An inactive voice cannot be played (spec §4): disabling the one that plays stops it.
  const listed = query.data?.voices;
  useEffect(() => {
    if (playingId && listed?.some((voice) => voice.id === playingId && !voice.is_active)) stop();
  }, [playingId, listed, stop]);

  return (
    <AdminCatalogue<Voice>
      banner={banner}
      section="voices"
      icon={<RecordVoiceOverOutlined />}
      query={query}
      // A list that failed to load is emptied (spec §8).
      rows={query.isError ? [] : (listed ?? [])}
      page={page}
      onPage={setPage}
      remove={(voice) => {
        if (playingId === voice.id) stop();
        return deleteVoice(voice.id).unwrap();
      }}
      failureLog="Failed to delete voice"
      // The dialog has its own preview: the list's sample stops.
      onOpenDialog={stop}
      renderItem={(voice, handlers) => (
        <VoiceItem
          key={voice.id}
          voice={voice}
          banner={banner}
          playing={playingId === voice.id}
          unplayable={failedId === voice.id}
          onToggleSample={(target) => toggle(target.id, target.sample_url)}
          {...handlers}
        />
      )}
      renderDialog={(voice, handlers) => <VoiceDialog voice={voice} {...handlers} />}
    />
  );
}
