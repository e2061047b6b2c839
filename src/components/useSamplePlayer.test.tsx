import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createSamplePlayer, type SamplePlayer } from '../lib/playback';
import { useSamplePlayer } from './useSamplePlayer';

function Samples({ player }: { player: SamplePlayer }) {
  const { playingId, toggle } = useSamplePlayer(player);
  return (
    <>
      {['a', 'b'].map((id) => (
        <button key={id} type="button" onClick={() => toggle(id, `/${id}.wav`)}>
          {playingId === id ? `Stop ${id}` : `Play ${id}`}
        </button>
      ))}
    </>
  );
}

describe('useSamplePlayer', () => {
  let audios: HTMLMediaElement[];
  beforeEach(() => {
    audios = [];
    jest.spyOn(window.HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      audios.push(this);
      return Promise.resolve();
    });
    jest.spyOn(window.HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  });
  afterEach(() => {
    // Unmount first: a screen that goes away stops its sample, with the mocked pause().
    cleanup();
    jest.restoreAllMocks();
  });

  it('follows the player: one plays at a time, pressing it again stops it, the end resets it', async () => {
    const user = userEvent.setup();
    const player = createSamplePlayer();
    render(<Samples player={player} />);

    await user.click(screen.getByRole('button', { name: 'Play a' }));
    expect(screen.getByRole('button', { name: 'Stop a' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Play b' }));
    expect(screen.getByRole('button', { name: 'Play a' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop b' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Stop b' }));
    expect(screen.getByRole('button', { name: 'Play b' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Play a' }));
    act(() => void audios[audios.length - 1].dispatchEvent(new Event('ended')));
    expect(screen.getByRole('button', { name: 'Play a' })).toBeInTheDocument();
  });

  it('stops the sample a screen started when the screen goes away', async () => {
    const user = userEvent.setup();
    const player = createSamplePlayer();
    const { unmount } = render(<Samples player={player} />);

    await user.click(screen.getByRole('button', { name: 'Play a' }));
    expect(player.getPlayingId()).toBe('a');
    unmount();

    expect(player.getPlayingId()).toBeNull();
    expect(window.HTMLMediaElement.prototype.pause).toHaveBeenCalled();
  });
});
