import { cleanup, screen, within } from '@testing-library/react';
import { act } from 'react';
import {
  adminUser,
  deferred,
  mockApi,
  renderApp,
  reply,
  signedInState,
  testUser,
  voiceFixture,
  type MockHandler,
} from '../../testing';
import type { User, Voice } from '../../api';

const ana = voiceFixture();
const john = voiceFixture({
  id: 'vo-2',
  name: 'John Reader',
  type: 'Narrator',
  sample_url: '/api/v1/voice-samples/vo-2.wav',
  language: 'en',
  gender: 'male',
  description: '',
  created_at: '2025-02-10T12:00:00.000Z',
});
const off = voiceFixture({ id: 'vo-3', name: 'Old Voice', type: 'Feminina', is_active: false, language: null, gender: null });

function list(...voices: Voice[]) {
  return reply(200, { voices, total: voices.length });
}

function renderVoices(
  handlers: Record<string, MockHandler>,
  { user = testUser, language = 'en' }: { user?: User; language?: 'en' | 'pt' } = {},
) {
  const server = mockApi({ 'GET /auth/me': reply(200, user), ...handlers });
  const rendered = renderApp('/voices', { preloadedState: { ...signedInState, preferences: { language } } });
  return { server, ...rendered };
}

/** Mocks the audio element's play/pause; returns the elements that played, in order. */
function mockAudio() {
  const audios: HTMLMediaElement[] = [];
  jest.spyOn(window.HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    audios.push(this);
    return Promise.resolve();
  });
  const pause = jest.spyOn(window.HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  return { audios, pause };
}

function counter(label: string) {
  const counters = screen.getByLabelText('Voice counts');
  return within(counters).getByText(label).nextElementSibling?.textContent;
}

describe('VoicesPage', () => {
  afterEach(() => {
    // Unmount first: a screen that goes away stops its sample, with the mocked pause().
    cleanup();
    jest.restoreAllMocks();
  });

  it('shows skeletons, then the counters and a card per voice', async () => {
    const answer = deferred();
    const { server } = renderVoices({ 'GET /voices/': answer.handler });

    expect(await screen.findByRole('heading', { level: 1, name: 'Voices' })).toBeInTheDocument();
    expect(await screen.findByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    answer.resolve(list(ana, john, off));

    const card = await screen.findByRole('article', { name: 'Ana Narradora' });
    expect(counter('Total')).toBe('3');
    expect(counter('Active')).toBe('2');
    expect(counter('Inactive')).toBe('1');

    expect(within(card).getByRole('heading', { name: 'Ana Narradora' })).toBeInTheDocument();
    expect(within(card).getByText('AN')).toBeInTheDocument();
    expect(within(card).getByText('Narrador')).toBeInTheDocument();
    expect(within(card).getByText('Active')).toBeInTheDocument();
    expect(within(card).getByText('vo-1')).toBeInTheDocument();
    // pt-BR dates whatever the interface language.
    expect(within(card).getByText('01/03/2025')).toBeInTheDocument();
    expect(within(card).getByText('07/03/2025')).toBeInTheDocument();
    // The flag is a decorative picture beside the name, not an emoji.
    expect(within(card).getByTitle('Language')).toHaveTextContent(/^Portuguese$/);
    expect(within(card).getByTitle('Language').querySelector('img[alt=""]')).not.toBeNull();
    expect(within(card).getByTitle('Gender')).toHaveTextContent('Female');
    expect(within(card).getByTitle('Provider')).toHaveTextContent('eSpeak NG');
    expect(within(card).getByRole('button', { name: 'Play sample of Ana Narradora' })).toBeEnabled();

    const inactive = screen.getByRole('article', { name: 'Old Voice' });
    expect(within(inactive).getByText('Inactive')).toBeInTheDocument();
    expect(within(inactive).queryByTitle('Language')).not.toBeInTheDocument();
    expect(within(inactive).queryByTitle('Gender')).not.toBeInTheDocument();
    expect(within(inactive).getByRole('button', { name: 'Play sample of Old Voice' })).toBeDisabled();

    expect(screen.queryByRole('status', { name: 'Loading…' })).not.toBeInTheDocument();
    const request = server.calls('GET /voices/')[0];
    expect(Object.fromEntries(request.url.searchParams)).toEqual({ skip: '0', limit: '100', active_only: 'false' });
  });

  it('plays one sample at a time: playing one stops the other, pressing it again stops it', async () => {
    const { audios, pause } = mockAudio();
    const { user } = renderVoices({ 'GET /voices/': list(ana, john) });

    await user.click(await screen.findByRole('button', { name: 'Play sample of Ana Narradora' }));
    const anaCard = screen.getByRole('article', { name: 'Ana Narradora' });
    expect(within(anaCard).getByRole('button', { name: 'Stop' })).toHaveAttribute('aria-pressed', 'true');
    expect((audios[0] as HTMLAudioElement).src).toBe('http://localhost/api/v1/voice-samples/vo-1.wav');

    await user.click(screen.getByRole('button', { name: 'Play sample of John Reader' }));
    expect(pause).toHaveBeenCalledTimes(1);
    expect(pause.mock.contexts[0]).toBe(audios[0]);
    expect(within(anaCard).getByRole('button', { name: 'Play sample of Ana Narradora' })).toBeInTheDocument();
    const johnCard = screen.getByRole('article', { name: 'John Reader' });
    expect(within(johnCard).getByRole('button', { name: 'Stop' })).toBeInTheDocument();

    await user.click(within(johnCard).getByRole('button', { name: 'Stop' }));
    expect(within(johnCard).getByRole('button', { name: 'Play sample of John Reader' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
  });

  it('goes back to play at the end of the sample, and logs a sample that cannot play', async () => {
    const { audios } = mockAudio();
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderVoices({ 'GET /voices/': list(ana) });

    await user.click(await screen.findByRole('button', { name: 'Play sample of Ana Narradora' }));
    act(() => void audios[0].dispatchEvent(new Event('ended')));
    expect(screen.getByRole('button', { name: 'Play sample of Ana Narradora' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Play sample of Ana Narradora' }));
    act(() => void audios[1].dispatchEvent(new Event('error')));
    expect(screen.getByRole('button', { name: 'Play sample of Ana Narradora' })).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Failed to play the sample of voice vo-1', expect.anything());
  });

  it('says on the card when a sample (an https URL) cannot be played, in both languages, until another plays', async () => {
    const { audios } = mockAudio();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const remote = voiceFixture({ id: 'vo-9', name: 'Remote Voice', sample_url: 'https://example.com/sample.mp3' });
    const { user } = renderVoices({ 'GET /voices/': list(remote, john) });

    const card = await screen.findByRole('article', { name: 'Remote Voice' });
    await user.click(within(card).getByRole('button', { name: 'Play sample of Remote Voice' }));
    expect(audios[0]!.src).toBe('https://example.com/sample.mp3');
    act(() => void audios[0]!.dispatchEvent(new Event('error')));
    expect(within(card).getByRole('status')).toHaveTextContent(
      'This sample cannot be played: its address did not answer with audio this browser can play.',
    );
    expect(within(screen.getByRole('article', { name: 'John Reader' })).queryByRole('status')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Play sample of John Reader' }));
    expect(within(card).queryByRole('status')).not.toBeInTheDocument();
  });

  it('says a sample cannot be played in Portuguese', async () => {
    const { audios } = mockAudio();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderVoices({ 'GET /voices/': list(ana) }, { language: 'pt' });

    const card = await screen.findByRole('article', { name: 'Ana Narradora' });
    await user.click(within(card).getByRole('button', { name: 'Ouvir amostra de Ana Narradora' }));
    act(() => void audios[0]!.dispatchEvent(new Event('error')));
    expect(within(card).getByRole('status')).toHaveTextContent(/^Não foi possível reproduzir esta amostra/);
  });

  it('stops the sample when leaving the page', async () => {
    const { pause } = mockAudio();
    const { user, unmount } = renderVoices({ 'GET /voices/': list(ana) });

    await user.click(await screen.findByRole('button', { name: 'Play sample of Ana Narradora' }));
    unmount();

    expect(pause).toHaveBeenCalledTimes(1);
  });

  it('speaks Portuguese', async () => {
    renderVoices({ 'GET /voices/': list(ana, off) }, { language: 'pt' });

    const card = await screen.findByRole('article', { name: 'Ana Narradora' });
    expect(screen.getByRole('heading', { level: 1, name: 'Vozes' })).toBeInTheDocument();
    expect(within(card).getByText('Ativa')).toBeInTheDocument();
    expect(within(card).getByTitle('Idioma')).toHaveTextContent(/^Português$/);
    expect(within(card).getByTitle('Gênero')).toHaveTextContent('Feminina');
    expect(within(card).getByRole('button', { name: 'Ouvir amostra de Ana Narradora' })).toBeInTheDocument();
  });

  it('has an empty state; an admin is pointed to the settings', async () => {
    const { unmount } = renderVoices({ 'GET /voices/': list() });
    expect(await screen.findByText('No voice in the catalog yet.')).toBeInTheDocument();
    expect(counter('Total')).toBe('0');
    unmount();

    renderVoices({ 'GET /voices/': list() }, { user: adminUser });
    expect(await screen.findByText(/Add the first one in Settings › Voices/)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Manage voices' })[0]).toHaveAttribute('href', '/settings?tab=voices');
  });

  it('empties the gallery with an error and a retry when the list fails to load', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderVoices({ 'GET /voices/': reply(500, {}) });

    expect(await screen.findByText('The voices could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Failed to load voices', expect.anything());

    server.on({ 'GET /voices/': list(ana) });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Ana Narradora' })).toBeInTheDocument();
  });
});
