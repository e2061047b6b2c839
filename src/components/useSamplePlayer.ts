import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { samplePlayer, type SamplePlayer } from '../lib/playback';

export interface SamplePlayback {
  /** The id whose sample plays (anywhere in the app), or null. */
  playingId: string | null;
  /**
   * The id whose sample could not be played (the address answered no audio this browser plays),
   * until another sample is played: its screen says so instead of failing silently.
   */
  failedId: string | null;
  /** Plays `url` as `id`, stopping any other sample; stops it if it is the one playing. */
  toggle: (id: string, url: string) => void;
  /** Stops whatever plays. */
  stop: () => void;
}

/**
 * Voice sample playback for a screen (spec §4), over the app's one player: one sample at a time,
 * tracked by id. A sample the screen started stops when the screen goes away.
 */
export function useSamplePlayer(player: SamplePlayer = samplePlayer): SamplePlayback {
  const playingId = useSyncExternalStore(player.subscribe, player.getPlayingId, player.getPlayingId);
  const failedId = useSyncExternalStore(player.subscribe, player.getFailedId, player.getFailedId);
  // Identifies this screen as the owner of the samples it starts.
  const [owner] = useState(() => ({}));
  useEffect(() => () => player.stopOwnedBy(owner), [player, owner]);
  const toggle = useCallback((id: string, url: string) => player.toggle(id, url, owner), [player, owner]);
  return { playingId, failedId, toggle, stop: player.stop };
}
