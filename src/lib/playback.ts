/**
 * Voice sample playback, shared by every screen that plays samples (spec §4): one audio element
 * at a time, tracked by an id (usually the voice's). Playing one stops any other; it stops by
 * itself at the end or on an error (logged, state reset, and the id remembered as the one that
 * failed, so its screen can say so); playing the one that plays stops it.
 *
 * `samplePlayer` is the app's one instance; React components use it through
 * components/useSamplePlayer. Framework-free so it can be tested with a stubbed audio element.
 */

/** What the player needs of an HTMLAudioElement. */
export interface AudioLike {
  play(): Promise<void> | void;
  pause(): void;
  addEventListener(type: 'ended' | 'error', listener: () => void): void;
  removeEventListener(type: 'ended' | 'error', listener: () => void): void;
  readonly error?: MediaError | null;
}

export interface SamplePlayer {
  /** The id whose sample plays, or null. */
  getPlayingId(): string | null;
  /** The id whose sample last failed to play (until another sample is played), or null. */
  getFailedId(): string | null;
  /** Registers a listener called whenever the playing id changes; returns its removal. */
  subscribe(listener: () => void): () => void;
  /** Plays `url` as `id`, stopping whatever played; `owner` is who asked (see stopOwnedBy). */
  play(id: string, url: string, owner?: object): void;
  /** Stops `id` if it plays, otherwise plays it. */
  toggle(id: string, url: string, owner?: object): void;
  /** Stops whatever plays. */
  stop(): void;
  /** Stops the sample if `owner` started it (a screen that goes away stops its sample). */
  stopOwnedBy(owner: object): void;
}

interface Playing {
  id: string;
  audio: AudioLike;
  owner?: object;
  detach: () => void;
}

function defaultAudio(url: string): AudioLike {
  const audio = new Audio(url);
  audio.preload = 'auto';
  return audio;
}

export function createSamplePlayer(makeAudio: (url: string) => AudioLike = defaultAudio): SamplePlayer {
  let current: Playing | null = null;
  let failedId: string | null = null;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());

  function stop() {
    const playing = current;
    if (!playing) return;
    current = null;
    playing.detach();
    try {
      playing.audio.pause();
    } catch (error) {
      console.error('Failed to stop the voice sample', error);
    }
    emit();
  }

  /** Ends `playing` after a failure, unless something else plays by now. */
  function fail(playing: Playing, error: unknown) {
    if (current !== playing) return;
    console.error(`Failed to play the sample of voice ${playing.id}`, error);
    failedId = playing.id;
    stop();
  }

  function play(id: string, url: string, owner?: object) {
    stop();
    failedId = null;
    if (!url) {
      console.error(`Voice ${id} has no sample URL`);
      failedId = id;
      emit();
      return;
    }
    let audio: AudioLike;
    try {
      audio = makeAudio(url);
    } catch (error) {
      console.error(`Failed to play the sample of voice ${id}`, error);
      failedId = id;
      emit();
      return;
    }
    const onEnded = () => {
      if (current === playing) stop();
    };
    const onError = () => fail(playing, audio.error ?? new Error(`The sample ${url} could not be played`));
    const playing: Playing = {
      id,
      audio,
      owner,
      detach: () => {
        audio.removeEventListener('ended', onEnded);
        audio.removeEventListener('error', onError);
      },
    };
    audio.addEventListener('ended', onEnded);
    audio.addEventListener('error', onError);
    current = playing;
    emit();
    try {
      const started = audio.play();
      if (started && typeof started.catch === 'function') started.catch((error: unknown) => fail(playing, error));
    } catch (error) {
      fail(playing, error);
    }
  }

  return {
    getPlayingId: () => current?.id ?? null,
    getFailedId: () => failedId,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    play,
    toggle(id, url, owner) {
      if (current?.id === id) stop();
      else play(id, url, owner);
    },
    stop,
    stopOwnedBy(owner) {
      if (current && current.owner === owner) stop();
    },
  };
}

/** The app's player: one sample at a time across every screen. */
export const samplePlayer = createSamplePlayer();

/**
 * A sample URL as the audio element gets it: `{id}` (allowed in a URL being typed) stands for the
 * voice's id, as the server substitutes it on save.
 */
export function sampleUrlOf(url: string, voiceId?: string): string {
  const trimmed = url.trim();
  return voiceId ? trimmed.split('{id}').join(voiceId) : trimmed;
}
