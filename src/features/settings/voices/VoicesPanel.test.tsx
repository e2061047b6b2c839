import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import type { Voice } from '../../../api';
import {
  adminUser,
  mockApi,
  renderWithProviders,
  reply,
  signedInState,
  testUser,
  voiceFixture,
  invalidControls,
} from '../../../testing';
import { isDimmed, renderSettings } from '../testing';
import { VoicesPanel } from './VoicesPanel';

const ana = voiceFixture();
const off = voiceFixture({
  id: 'vo-3',
  name: 'Old Voice',
  type: 'Feminina',
  is_active: false,
  process_count: 0,
  created_at: '2025-02-10T12:00:00.000Z',
});

function list(...voices: Voice[]) {
  return reply(200, { voices, total: voices.length });
}

const noBanner = { show: () => undefined, clear: () => undefined };

function mockAudio() {
  const audios: HTMLMediaElement[] = [];
  jest.spyOn(window.HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    audios.push(this);
    return Promise.resolve();
  });
  const pause = jest.spyOn(window.HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  return { audios, pause };
}

describe('Voices panel', () => {
  afterEach(() => {
    // Unmount first: a screen that goes away stops its sample, with the mocked pause().
    cleanup();
    jest.restoreAllMocks();
  });

  it('renders nothing, and asks nothing, for a user who is not an admin', async () => {
    const server = mockApi({ 'GET /auth/me': reply(200, testUser) });
    const { container } = renderWithProviders(<VoicesPanel banner={noBanner} />, { preloadedState: signedInState });

    await waitFor(() => expect(server.calls('GET /auth/me')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container).toBeEmptyDOMElement();
    expect(server.calls('GET /voices/')).toHaveLength(0);
  });

  it('lists name, type, state, ID and dates, with listen disabled for an inactive voice', async () => {
    renderSettings('voices', { 'GET /voices/': list(ana, off) }, { user: adminUser });

    const items = await screen.findByRole('list', { name: 'Voices' });
    const first = within(items).getByRole('listitem', { name: 'Ana Narradora' });
    expect(within(first).getByText('Narrador')).toBeInTheDocument();
    expect(within(first).getByText('ID: vo-1')).toBeInTheDocument();
    expect(within(first).getByText('Created 01/03/2025 · Updated 07/03/2025')).toBeInTheDocument();
    expect(within(first).queryByText('Disabled')).not.toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Listen to Ana Narradora' })).toBeEnabled();

    const old = within(items).getByRole('listitem', { name: 'Old Voice' });
    expect(within(old).getByText('Disabled')).toBeInTheDocument();
    expect(isDimmed(within(old).getByRole('heading'), old)).toBe(true);
    expect(within(old).getByRole('button', { name: 'Listen to Old Voice' })).toBeDisabled();
    expect(within(old).getByRole('button', { name: 'Enable Old Voice' })).toBeInTheDocument();
  });

  it('listens and pauses a sample', async () => {
    const { audios } = mockAudio();
    const { user } = renderSettings('voices', { 'GET /voices/': list(ana) }, { user: adminUser });

    await user.click(await screen.findByRole('button', { name: 'Listen to Ana Narradora' }));
    expect((audios[0] as HTMLAudioElement).src).toBe('http://localhost/api/v1/voice-samples/vo-1.wav');
    await user.click(screen.getByRole('button', { name: 'Pause Ana Narradora' }));
    expect(screen.getByRole('button', { name: 'Listen to Ana Narradora' })).toBeInTheDocument();
  });

  it('says when a sample cannot be played instead of silently going back to Listen', async () => {
    const { audios } = mockAudio();
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const remote = { ...ana, sample_url: 'https://example.com/sample.mp3' };
    const { user } = renderSettings('voices', { 'GET /voices/': list(remote) }, { user: adminUser });

    await user.click(await screen.findByRole('button', { name: 'Listen to Ana Narradora' }));
    expect((audios[0] as HTMLAudioElement).src).toBe('https://example.com/sample.mp3');
    act(() => void audios[0]!.dispatchEvent(new Event('error')));
    expect(await screen.findByRole('status')).toHaveTextContent(/^This sample cannot be played/);
  });

  it('stops the sample of a voice that gets disabled', async () => {
    const { pause } = mockAudio();
    let voices = [ana];
    const { user } = renderSettings(
      'voices',
      {
        'GET /voices/': () => list(...voices),
        'PUT /voices/vo-1/toggle': () => {
          voices = [{ ...ana, is_active: false }];
          return reply(200, voices[0]);
        },
      },
      { user: adminUser },
    );

    await user.click(await screen.findByRole('button', { name: 'Listen to Ana Narradora' }));
    await user.click(screen.getByRole('button', { name: 'Disable Ana Narradora' }));

    expect(await screen.findByRole('button', { name: 'Listen to Ana Narradora' })).toBeDisabled();
    expect(pause).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('listitem', { name: 'Ana Narradora' })).toHaveTextContent('Disabled');
  });

  it('adds a voice: checks the sample URL, then sends every field', async () => {
    const created = voiceFixture({ id: 'vo-9', name: 'Nova' });
    const { user, server } = renderSettings(
      'voices',
      { 'GET /voices/': list(), 'POST /voices/': reply(201, created) },
      { user: adminUser },
    );

    expect(await screen.findByText(/No voice yet/)).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Add voice' })[1]);
    const dialog = await screen.findByRole('dialog', { name: 'Add a voice' });
    expect(within(dialog).queryByRole('button', { name: 'Play the sample URL' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(within(dialog).getAllByText('Please fill in all fields')).toHaveLength(1);
    expect(invalidControls(dialog)).toHaveLength(3);

    await user.type(within(dialog).getByLabelText(/^Name/), 'Nova');
    await user.type(within(dialog).getByLabelText(/^Type/), 'Feminina');
    await user.type(within(dialog).getByLabelText(/^Sample URL/), 'cdn.example.com/nova.mp3');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter an http(s) URL, or a path on this server starting with /')).toBeInTheDocument();
    expect(server.calls('POST /voices/')).toHaveLength(0);

    const url = within(dialog).getByLabelText(/^Sample URL/);
    await user.clear(url);
    await user.type(url, 'https://cdn.example.com/nova.mp3');
    expect(within(dialog).getByRole('combobox', { name: /^Provider/ })).toHaveTextContent('eSpeak NG');
    await user.click(within(dialog).getByRole('combobox', { name: /^Provider/ }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'OpenAI' }));
    await user.click(within(dialog).getByRole('combobox', { name: /^Language/ }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Spanish' }));
    await user.click(within(dialog).getByRole('combobox', { name: /^Gender/ }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Female' }));
    await user.type(within(dialog).getByLabelText('Provider voice ID'), 'nova');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Voice created successfully!');
    expect(server.calls('POST /voices/')[0].body).toEqual({
      name: 'Nova',
      type: 'Feminina',
      sample_url: 'https://cdn.example.com/nova.mp3',
      description: '',
      language: 'es',
      gender: 'female',
      provider: 'openai',
      provider_voice_id: 'nova',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('previews the sample URL while editing, and plays what is typed', async () => {
    const { audios } = mockAudio();
    const { user, server } = renderSettings(
      'voices',
      { 'GET /voices/': list(ana), 'PUT /voices/vo-1': reply(500, {}) },
      { user: adminUser },
    );

    await user.click(await screen.findByRole('button', { name: 'Edit Ana Narradora' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the voice' });
    const url = within(dialog).getByLabelText(/^Sample URL/);
    expect(url).toHaveValue('/api/v1/voice-samples/vo-1.wav');

    await user.click(within(dialog).getByRole('button', { name: 'Play the sample URL' }));
    expect((audios[0] as HTMLAudioElement).src).toBe('http://localhost/api/v1/voice-samples/vo-1.wav');
    await user.click(within(dialog).getByRole('button', { name: 'Stop the preview' }));
    expect(within(dialog).getByRole('button', { name: 'Play the sample URL' })).toBeInTheDocument();

    await user.clear(url);
    expect(within(dialog).getByRole('button', { name: 'Play the sample URL' })).toBeDisabled();
    await user.type(url, 'https://cdn.example.com/new.wav');
    await user.click(within(dialog).getByRole('button', { name: 'Play the sample URL' }));
    expect((audios[1] as HTMLAudioElement).src).toBe('https://cdn.example.com/new.wav');

    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to save voice');
    expect(server.calls('PUT /voices/vo-1')[0].body).toMatchObject({
      sample_url: 'https://cdn.example.com/new.wav',
      language: 'pt',
    });

    server.on({ 'PUT /voices/vo-1': reply(422, { detail: 'Unknown espeak-ng voice' }) });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Unknown espeak-ng voice'));
    log.mockRestore();
  });

  it('reports failed toggles and deletions with the spec’s messages', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderSettings(
      'voices',
      { 'GET /voices/': list(ana), 'PUT /voices/vo-1/toggle': reply(500, {}), 'DELETE /voices/vo-1': reply(500, {}) },
      { user: adminUser, language: 'pt' },
    );

    await user.click(await screen.findByRole('button', { name: 'Desativar Ana Narradora' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Erro ao alterar status da voz');

    await user.click(screen.getByRole('button', { name: 'Excluir Ana Narradora' }));
    const confirm = await screen.findByRole('dialog', { name: 'Excluir a voz “Ana Narradora”?' });
    expect(within(confirm).getByText(/2 processos usam esta voz\./)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Erro ao excluir voz'));
    expect(server.calls('DELETE /voices/vo-1')).toHaveLength(1);

    server.on({ 'PUT /voices/vo-1/toggle': reply(404, {}) });
    await user.click(screen.getByRole('button', { name: 'Desativar Ana Narradora' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Voz não encontrada'));
    log.mockRestore();
  });

  it('deletes a voice and says how many processes were switched off', async () => {
    let voices = [ana, off];
    const detail = 'Voice deleted successfully! 2 processes that used it were switched off and need a new voice.';
    const { user } = renderSettings(
      'voices',
      {
        'GET /voices/': () => list(...voices),
        'DELETE /voices/vo-1': () => {
          voices = [off];
          return reply(200, { detail, affected_processes: 2 });
        },
      },
      { user: adminUser },
    );

    await user.click(await screen.findByRole('button', { name: 'Delete Ana Narradora' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the voice “Ana Narradora”?' });
    expect(within(confirm).getByRole('alert')).toHaveTextContent(
      'Processes using this voice will be switched off and need a new voice. 2 processes use this voice.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByRole('status')).toHaveTextContent(detail);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Ana Narradora' })).not.toBeInTheDocument());
  });

  it('leaves the list empty, with a retry, when it fails to load', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderSettings('voices', { 'GET /voices/': reply(500, {}) }, { user: adminUser });

    expect(await screen.findByText(/The voices could not be loaded/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(within(screen.getByRole('tabpanel')).queryByRole('listitem')).not.toBeInTheDocument();
    log.mockRestore();
  });
});
