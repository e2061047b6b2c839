import { createSamplePlayer, sampleUrlOf } from './playback';

/** jsdom's audio element with play/pause mocked; `audios` are the elements the player made. */
function mockAudio() {
  const audios: HTMLMediaElement[] = [];
  const play = jest.spyOn(window.HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    audios.push(this);
    return Promise.resolve();
  });
  const pause = jest.spyOn(window.HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  return { audios, play, pause };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('sample playback (spec §4)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('plays a sample and tracks it by id', () => {
    const { audios, play } = mockAudio();
    const player = createSamplePlayer();
    const changes = jest.fn();
    player.subscribe(changes);

    player.toggle('v1', '/api/v1/voice-samples/v1.wav');

    expect(player.getPlayingId()).toBe('v1');
    expect(play).toHaveBeenCalledTimes(1);
    expect((audios[0] as HTMLAudioElement).src).toBe('http://localhost/api/v1/voice-samples/v1.wav');
    expect(changes).toHaveBeenCalledTimes(1);
  });

  it('stops any other sample when one starts: one audio element at a time', () => {
    const { audios, pause } = mockAudio();
    const player = createSamplePlayer();

    player.toggle('v1', '/a.wav');
    player.toggle('v2', '/b.wav');

    expect(player.getPlayingId()).toBe('v2');
    expect(pause).toHaveBeenCalledTimes(1);
    expect(pause.mock.contexts[0]).toBe(audios[0]);
  });

  it('stops the playing one when it is pressed again', () => {
    const { pause } = mockAudio();
    const player = createSamplePlayer();

    player.toggle('v1', '/a.wav');
    player.toggle('v1', '/a.wav');

    expect(player.getPlayingId()).toBeNull();
    expect(pause).toHaveBeenCalledTimes(1);
  });

  it('stops by itself at the end of the sample', () => {
    const { audios } = mockAudio();
    const player = createSamplePlayer();
    player.toggle('v1', '/a.wav');

    audios[0].dispatchEvent(new Event('ended'));

    expect(player.getPlayingId()).toBeNull();
  });

  it('logs an error of the audio element and resets the state', () => {
    const { audios } = mockAudio();
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const player = createSamplePlayer();
    player.toggle('v1', '/missing.wav');

    audios[0].dispatchEvent(new Event('error'));

    expect(player.getPlayingId()).toBeNull();
    expect(log).toHaveBeenCalledWith('Failed to play the sample of voice v1', expect.anything());
    // Remembered, so the screen can say this sample cannot be played; cleared by the next play.
    expect(player.getFailedId()).toBe('v1');
    player.toggle('v2', '/b.wav');
    expect(player.getFailedId()).toBeNull();
  });

  it('logs a refused play() and resets the state', async () => {
    jest.spyOn(window.HTMLMediaElement.prototype, 'play').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    jest.spyOn(window.HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const player = createSamplePlayer();

    player.toggle('v1', '/a.wav');
    expect(player.getPlayingId()).toBe('v1');
    await flush();

    expect(player.getPlayingId()).toBeNull();
    expect(log).toHaveBeenCalledWith('Failed to play the sample of voice v1', expect.any(DOMException));
  });

  it('ignores the late failure or end of a sample that was already replaced', async () => {
    const { audios } = mockAudio();
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const player = createSamplePlayer();
    player.toggle('v1', '/a.wav');
    player.toggle('v2', '/b.wav');

    audios[0].dispatchEvent(new Event('error'));
    audios[0].dispatchEvent(new Event('ended'));

    expect(player.getPlayingId()).toBe('v2');
    expect(log).not.toHaveBeenCalled();
  });

  it('stops only what an owner started', () => {
    mockAudio();
    const player = createSamplePlayer();
    const gallery = {};
    const dialog = {};
    player.toggle('v1', '/a.wav', gallery);

    player.stopOwnedBy(dialog);
    expect(player.getPlayingId()).toBe('v1');
    player.stopOwnedBy(gallery);
    expect(player.getPlayingId()).toBeNull();
  });

  it('refuses a blank URL with a log, playing nothing', () => {
    const { play } = mockAudio();
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const player = createSamplePlayer();

    player.toggle('v1', '');

    expect(play).not.toHaveBeenCalled();
    expect(player.getPlayingId()).toBeNull();
    expect(log).toHaveBeenCalled();
  });

  it('fills {id} in a sample URL with the voice id', () => {
    expect(sampleUrlOf(' /api/v1/voice-samples/{id}.wav ', 'v9')).toBe('/api/v1/voice-samples/v9.wav');
    expect(sampleUrlOf('https://cdn.example.com/a.mp3')).toBe('https://cdn.example.com/a.mp3');
  });
});
