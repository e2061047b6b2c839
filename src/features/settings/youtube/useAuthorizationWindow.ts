import { useCallback, useEffect, useRef } from 'react';
import type { YoutubeAuthMessage } from '../../../api';

export const AUTH_WINDOW_NAME = 'youtube-auth';
export const AUTH_WINDOW_FEATURES = 'width=520,height=680';
const CLOSED_POLL_MS = 500;

function isAuthMessage(data: unknown): data is YoutubeAuthMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'youtube-auth';
}

export interface AuthorizationWindowEvents {
  /** The window posted its result (only messages from this origin count). */
  onMessage: (message: YoutubeAuthMessage) => void;
  /** The window closed without posting anything. */
  onClosed: (configId: string) => void;
}

/**
 * Opens the Google consent window of a configuration and reports what comes back: the callback
 * page posts `{type: 'youtube-auth', ok, config_id, message}` to its opener and closes itself.
 * Returns `open(url, configId)`, false when the browser blocked the window.
 */
export function useAuthorizationWindow(events: AuthorizationWindowEvents) {
  const eventsRef = useRef(events);
  useEffect(() => {
    eventsRef.current = events;
  });
  const pending = useRef<{ configId: string; timer: number; answered: boolean } | null>(null);

  const stopWatching = useCallback(() => {
    if (pending.current) window.clearInterval(pending.current.timer);
    pending.current = null;
  }, []);

  useEffect(() => {
    const listener = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isAuthMessage(event.data)) return;
      if (pending.current) pending.current.answered = true;
      eventsRef.current.onMessage(event.data);
    };
    window.addEventListener('message', listener);
    return () => {
      window.removeEventListener('message', listener);
      stopWatching();
    };
  }, [stopWatching]);

  return useCallback(
    (url: string, configId: string): boolean => {
      const popup = window.open(url, AUTH_WINDOW_NAME, AUTH_WINDOW_FEATURES);
      if (!popup) return false;
      stopWatching();
      const watch = {
        configId,
        answered: false,
        timer: window.setInterval(() => {
          if (!popup.closed) return;
          const answered = watch.answered;
          stopWatching();
          if (!answered) eventsRef.current.onClosed(configId);
        }, CLOSED_POLL_MS),
      };
      pending.current = watch;
      return true;
    },
    [stopWatching],
  );
}
