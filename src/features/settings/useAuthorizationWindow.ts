import { useCallback, useEffect, useRef } from 'react';

export const AUTH_WINDOW_FEATURES = 'width=520,height=680';
const CLOSED_POLL_MS = 500;

/** What a consent window's result page posts to its opener: `type` names the flow. */
export interface AuthorizationMessage<Type extends string> {
  type: Type;
  ok: boolean;
  message?: string;
}

export interface AuthorizationWindowEvents<Message> {
  /** The window posted its result (only messages of this type, from this origin, count). */
  onMessage: (message: Message) => void;
  /** The window closed without posting anything; `id` is the one given to `open`. */
  onClosed: (id: string) => void;
}

/**
 * Opens a consent window (Google's for a YouTube configuration, TikTok's or Meta's for a platform
 * account) and reports what comes back: the callback page posts `{type, ok, ..., message}` to its
 * opener and closes itself. `type` (also the window's name, so a second click reuses the window)
 * tells the flows apart: a panel hears only its own. Returns `open(url, id)`, false when the
 * browser blocked the window.
 */
export function useAuthorizationWindow<Message extends AuthorizationMessage<string>>(
  type: Message['type'],
  events: AuthorizationWindowEvents<Message>,
) {
  const eventsRef = useRef(events);
  useEffect(() => {
    eventsRef.current = events;
  });
  const pending = useRef<{ id: string; timer: number; answered: boolean } | null>(null);

  const stopWatching = useCallback(() => {
    if (pending.current) window.clearInterval(pending.current.timer);
    pending.current = null;
  }, []);

  useEffect(() => {
    const isMessage = (data: unknown): data is Message =>
      typeof data === 'object' && data !== null && (data as { type?: unknown }).type === type;
    const listener = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isMessage(event.data)) return;
      if (pending.current) pending.current.answered = true;
      eventsRef.current.onMessage(event.data);
    };
    window.addEventListener('message', listener);
    return () => {
      window.removeEventListener('message', listener);
      stopWatching();
    };
  }, [type, stopWatching]);

  return useCallback(
    (url: string, id: string): boolean => {
      const popup = window.open(url, type, AUTH_WINDOW_FEATURES);
      if (!popup) return false;
      stopWatching();
      const watch = {
        id,
        answered: false,
        timer: window.setInterval(() => {
          if (!popup.closed) return;
          const answered = watch.answered;
          stopWatching();
          if (!answered) eventsRef.current.onClosed(id);
        }, CLOSED_POLL_MS),
      };
      pending.current = watch;
      return true;
    },
    [type, stopWatching],
  );
}
