import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type { MusicTrack } from '../../../api';
import {
  adminUser,
  mockApi,
  musicFixture,
  renderWithProviders,
  reply,
  signedInState,
  testUser,
  invalidControls,
} from '../../../testing';
import { isDimmed, renderSettings } from '../testing';
import { MusicPanel } from './MusicPanel';

const piano = musicFixture();
const off = musicFixture({
  id: 'mu-3',
  name: 'Retired waltz',
  mood: 'romantic',
  is_active: false,
  process_count: 0,
  format: 'ogg',
});

function list(...music: MusicTrack[]) {
  return reply(200, { music, total: music.length });
}

const noBanner = { show: () => undefined, clear: () => undefined };

/** A file the picker hands over: `size` bytes of name `name`. */
function audioFile(name: string, size: number, type = 'audio/mpeg'): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('Music panel', () => {
  afterEach(() => {
    cleanup();
    jest.restoreAllMocks();
  });

  it('renders nothing, and asks nothing, for a user who is not an admin', async () => {
    const server = mockApi({ 'GET /auth/me': reply(200, testUser) });
    const { container } = renderWithProviders(<MusicPanel banner={noBanner} />, { preloadedState: signedInState });
    await waitFor(() => expect(server.calls('GET /auth/me')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container).toBeEmptyDOMElement();
    expect(server.calls('GET /music/')).toHaveLength(0);
  });

  it('lists name, mood, length, format, size, use and state; plays a track by its signed link', async () => {
    const play = jest.spyOn(window.HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    jest.spyOn(window.HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    const { user } = renderSettings('music', { 'GET /music/': list(piano, off) }, { user: adminUser });

    const items = await screen.findByRole('list', { name: 'Music' });
    const first = within(items).getByRole('listitem', { name: 'Quiet piano' });
    expect(first).toHaveTextContent('Calm');
    expect(first).toHaveTextContent('2:34 · MP3 · 3 MB · 1 process uses it');
    const retired = within(items).getByRole('listitem', { name: 'Retired waltz' });
    expect(retired).toHaveTextContent('Disabled');
    expect(retired).toHaveTextContent('no process uses it');
    expect(isDimmed(within(retired).getByRole('heading'), retired)).toBe(true);

    await user.click(within(first).getByRole('button', { name: 'Listen to Quiet piano' }));
    expect((play.mock.contexts[0] as HTMLAudioElement).src).toBe(
      'http://localhost/api/v1/music/mu-1/audio?expires=1741350000000&signature=abc',
    );
    expect(within(first).getByRole('button', { name: 'Pause Quiet piano' })).toBeInTheDocument();
  });

  it('uploads a track: asks for name, mood and file, refuses a file over 20 MB, sends the file itself', async () => {
    const created = musicFixture({ id: 'mu-9', name: 'Night drive' });
    const { user, server } = renderSettings(
      'music',
      { 'GET /music/': list(), 'POST /music/': reply(201, created) },
      { user: adminUser },
    );

    expect(await screen.findByText(/No music yet/)).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Upload music' })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Upload music' });
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(within(dialog).getAllByText('Please fill in all fields')).toHaveLength(1);
    expect(invalidControls(dialog)).toHaveLength(3);
    expect(server.calls('POST /music/')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/^Name/), 'Night drive');
    await user.click(within(dialog).getByRole('combobox', { name: /^Mood/ }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Mysterious' }));
    const input = within(dialog).getByLabelText('Audio file');
    await user.upload(input, audioFile('huge.mp3', 21 * 1024 * 1024));
    expect(await within(dialog).findByText('The file must be 20 MB or smaller')).toBeInTheDocument();
    // The picker offers audio files only (the schema refuses another kind too: schema.test.ts).
    expect(input).toHaveAttribute('accept', expect.stringContaining('.mp3'));

    await user.upload(input, audioFile('night.mp3', 3 * 1024 * 1024));
    expect(within(dialog).getByText('night.mp3 · 3 MB')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));

    expect(await screen.findByText('Music uploaded successfully!')).toBeInTheDocument();
    const [sent] = server.calls('POST /music/');
    expect(Object.fromEntries(sent.url.searchParams)).toEqual({ name: 'Night drive', mood: 'mysterious' });
    expect(sent.headers.get('content-type')).toBe('audio/mpeg');
  });

  it('shows the server’s refusal of a file in the dialog, in Portuguese', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderSettings(
      'music',
      {
        'GET /music/': list(),
        'POST /music/': reply(422, { detail: 'Não foi possível ler o arquivo como áudio: ele pode estar corrompido' }),
      },
      { user: adminUser, language: 'pt' },
    );
    await user.click((await screen.findAllByRole('button', { name: 'Enviar música' }))[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Enviar música' });
    await user.type(within(dialog).getByLabelText(/^Nome/), 'Quebrada');
    await user.click(within(dialog).getByRole('combobox', { name: /^Clima/ }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Sombria' }));
    await user.upload(within(dialog).getByLabelText('Arquivo de áudio'), audioFile('quebrada.mp3', 5000));
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Não foi possível ler o arquivo como áudio');
  });

  it('renames a track, switches it off and deletes it after saying what happens to its processes', async () => {
    let tracks = [piano];
    const { user, server } = renderSettings(
      'music',
      {
        'GET /music/': () => list(...tracks),
        'PUT /music/mu-1': (request) => {
          tracks = [{ ...piano, ...(request.body as object) }];
          return reply(200, tracks[0]);
        },
        'PUT /music/mu-1/toggle': () => {
          tracks = [{ ...tracks[0], is_active: false }];
          return reply(200, tracks[0]);
        },
        'DELETE /music/mu-1': () => {
          tracks = [];
          return reply(200, {
            detail: 'Music track deleted successfully! 1 process that used it now runs without music.',
            affected_processes: 1,
          });
        },
      },
      { user: adminUser },
    );

    await user.click(await screen.findByRole('button', { name: 'Edit Quiet piano' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the music' });
    expect(within(dialog).queryByLabelText('Audio file')).not.toBeInTheDocument();
    const name = within(dialog).getByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, 'Soft piano');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Music updated successfully!')).toBeInTheDocument();
    expect(server.calls('PUT /music/mu-1')[0].body).toEqual({ name: 'Soft piano', mood: 'calm' });

    await user.click(await screen.findByRole('button', { name: 'Disable Soft piano' }));
    expect(await screen.findByRole('button', { name: 'Enable Soft piano' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Soft piano' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the music “Soft piano”?' });
    expect(confirm).toHaveTextContent('Processes that use it will go on without music. 1 process uses it.');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('Music track deleted successfully! 1 process that used it now runs without music.'),
    ).toBeInTheDocument();
    expect(await screen.findByText(/No music yet/)).toBeInTheDocument();
  });
});
