import { act, screen, waitFor, within } from '@testing-library/react';
import { OAUTH_REDIRECT_URI, reply, youtubeApiFixture, youtubeApiList, invalidControls } from '../../../testing';
import { isDimmed, renderSettings } from '../testing';

// Full screens on a busy 2-core machine: generous time per test.
jest.setTimeout(90_000);

const main = youtubeApiFixture();
const backup = youtubeApiFixture({
  id: 'yt-2',
  name: 'Backup',
  channel_id: 'UCbackup000000000000002',
  is_active: false,
  is_enabled: false,
  is_connected: true,
  has_refresh_token: false,
  last_tested: null,
});

function renderPanel(...args: Parameters<typeof renderSettings> extends [unknown, ...infer Rest] ? Rest : never) {
  return renderSettings('youtube-api', ...args);
}

describe('YouTube API panel', () => {
  it('lists the configurations: connected only if enabled, the active badge, and disabled ones dimmed', async () => {
    renderPanel({ 'GET /youtube-apis/': reply(200, youtubeApiList([main, backup])) });

    const list = await screen.findByRole('list', { name: 'YouTube API' });
    const first = within(list).getByRole('listitem', { name: 'Main OAuth' });
    expect(within(first).getByText('Channel ID: UCmainchannel000000000001')).toBeInTheDocument();
    expect(within(first).getByText('Connected')).toBeInTheDocument();
    expect(within(first).getByText('Active')).toBeInTheDocument();
    expect(within(first).getByText(/^Last tested \d\d\/\d\d\/2025 \d\d:\d\d$/)).toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: /Set active/ })).not.toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Test Main OAuth' })).toHaveTextContent('Test');
    expect(isDimmed(within(first).getByRole('heading'), first)).toBe(false);

    const second = within(list).getByRole('listitem', { name: 'Backup' });
    expect(within(second).getByText('Disconnected')).toBeInTheDocument(); // connected, but disabled
    expect(within(second).getByText('Disabled')).toBeInTheDocument();
    expect(within(second).getByText('Never tested')).toBeInTheDocument();
    expect(within(second).queryByText('Active')).not.toBeInTheDocument();
    expect(within(second).getByRole('button', { name: 'Authorize Backup' })).toHaveTextContent('Authorize');
    expect(within(second).getByRole('button', { name: 'Enable Backup' })).toBeInTheDocument();
    expect(isDimmed(within(second).getByRole('heading'), second)).toBe(true);
  });

  it('shows an empty state with the add button', async () => {
    const { user } = renderPanel({ 'GET /youtube-apis/': reply(200, youtubeApiList([])) });

    expect(await screen.findByText(/No YouTube API configuration yet/)).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Add configuration' })[1]);
    expect(await screen.findByRole('dialog', { name: 'Add a YouTube API configuration' })).toBeInTheDocument();
  });

  it('adds a configuration: setup hint, required fields, masked secrets', async () => {
    let configs = [main];
    const created = youtubeApiFixture({ id: 'yt-3', name: 'Second', is_active: false, has_refresh_token: false });
    const { user, server } = renderPanel({
      'GET /youtube-apis/': () => reply(200, youtubeApiList(configs)),
      'POST /youtube-apis/': () => {
        configs = [main, created];
        return reply(201, created);
      },
    });
    await screen.findByRole('listitem', { name: 'Main OAuth' });

    await user.click(screen.getByRole('button', { name: 'Add configuration' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a YouTube API configuration' });
    expect(within(dialog).getByText(OAUTH_REDIRECT_URI)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: /Google Cloud Console credentials/ })).toHaveAttribute(
      'href',
      'https://console.cloud.google.com/apis/credentials',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(within(dialog).getAllByText('Please fill in all fields')).toHaveLength(1);
    expect(invalidControls(dialog)).toHaveLength(4);
    for (const label of [/^Name/, /^Channel ID/, /^OAuth client ID/, /^OAuth client secret/]) {
      expect(within(dialog).getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
    }
    expect(within(dialog).getByLabelText(/^API key/)).toHaveAttribute('aria-invalid', 'false');
    expect(server.calls('POST /youtube-apis/')).toHaveLength(0);

    const secret = within(dialog).getByLabelText(/^OAuth client secret/);
    expect(secret).toHaveAttribute('type', 'password');
    expect(within(dialog).getByLabelText(/^API key/)).toHaveAttribute('type', 'password');
    await user.type(secret, 'shh-secret');
    await user.click(within(dialog).getByRole('button', { name: 'Show OAuth client secret' }));
    expect(secret).toHaveAttribute('type', 'text');
    expect(within(dialog).getByRole('button', { name: 'Hide OAuth client secret' })).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/^Name/), 'Second');
    await user.type(within(dialog).getByLabelText(/^Channel ID/), 'UCsecond');
    await user.type(within(dialog).getByLabelText(/^OAuth client ID/), ' client-2 ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('YouTube API configuration saved')).toBeInTheDocument();
    expect(server.calls('POST /youtube-apis/')[0].body).toEqual({
      name: 'Second',
      channel_id: 'UCsecond',
      client_id: 'client-2',
      client_secret: 'shh-secret',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('listitem', { name: 'Second' })).toBeInTheDocument();
  });

  it('edits with the secrets blank (masked placeholders) and keeps them when left blank', async () => {
    const withKey = { ...main, has_api_key: true, api_key_masked: '••••••••akey' };
    const { user, server } = renderPanel({
      'GET /youtube-apis/': reply(200, youtubeApiList([withKey])),
      'PUT /youtube-apis/yt-1': reply(200, { ...withKey, name: 'Renamed' }),
    });

    await user.click(await screen.findByRole('button', { name: 'Edit Main OAuth' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the YouTube API configuration' });
    const secret = within(dialog).getByLabelText(/^OAuth client secret/);
    expect(secret).toHaveValue('');
    expect(secret).toHaveAttribute('placeholder', '••••••••cret');
    expect(within(dialog).getByLabelText(/^API key/)).toHaveAttribute('placeholder', '••••••••akey');
    expect(within(dialog).getAllByText('Leave blank to keep the current value.').length).toBeGreaterThanOrEqual(2);

    const name = within(dialog).getByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, 'Renamed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(server.calls('PUT /youtube-apis/yt-1')).toHaveLength(1));
    expect(server.calls('PUT /youtube-apis/yt-1')[0].body).toEqual({
      name: 'Renamed',
      channel_id: 'UCmainchannel000000000001',
      client_id: 'client-1.apps.googleusercontent.com',
    });
  });

  it('shows the server’s detail, else the generic message, when saving fails', async () => {
    const { user, server } = renderPanel({
      'GET /youtube-apis/': reply(200, youtubeApiList([main])),
      'PUT /youtube-apis/yt-1': reply(422, { detail: 'Name, channel id, client id and client secret are required' }),
    });

    await user.click(await screen.findByRole('button', { name: 'Edit Main OAuth' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Name, channel id, client id and client secret are required',
    );

    server.on({ 'PUT /youtube-apis/yt-1': reply(500, {}) });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to save YouTube API configuration'));
  });

  it('sets a configuration active and refreshes the whole list', async () => {
    let configs = [main, { ...backup, is_enabled: true }];
    const { user, server } = renderPanel({
      'GET /youtube-apis/': () => reply(200, youtubeApiList(configs)),
      'PUT /youtube-apis/yt-2/set-active': () => {
        configs = [
          { ...main, is_active: false },
          { ...backup, is_enabled: true, is_active: true },
        ];
        return reply(200, configs[1]);
      },
    });
    const second = await screen.findByRole('listitem', { name: 'Backup' });

    await user.click(within(second).getByRole('button', { name: 'Set active: Backup' }));

    expect(await screen.findByText('“Backup” is now the active configuration')).toBeInTheDocument();
    expect(server.calls('PUT /youtube-apis/yt-2/set-active')).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByRole('listitem', { name: 'Backup' })).getByText('Active')).toBeInTheDocument());
    expect(within(screen.getByRole('listitem', { name: 'Main OAuth' })).queryByText('Active')).not.toBeInTheDocument();
    expect(server.calls('GET /youtube-apis/')).toHaveLength(2);
  });

  describe('test / authorize', () => {
    let open: jest.SpyInstance;
    beforeEach(() => {
      open = jest.spyOn(window, 'open').mockReturnValue({ closed: false } as Window);
    });
    afterEach(() => open.mockRestore());

    it('without a refresh token, opens the consent window and shows what it reports', async () => {
      let configs = [{ ...main, has_refresh_token: false, is_connected: false }];
      const { user, server } = renderPanel({
        'GET /youtube-apis/': () => reply(200, youtubeApiList(configs)),
        'POST /youtube-apis/yt-1/authorize': reply(200, { url: 'http://localhost/api/v1/youtube-auth?state=abc' }),
      });

      await user.click(await screen.findByRole('button', { name: 'Authorize Main OAuth' }));

      await waitFor(() =>
        expect(open).toHaveBeenCalledWith(
          'http://localhost/api/v1/youtube-auth?state=abc',
          'youtube-auth',
          'width=520,height=680',
        ),
      );
      expect(server.calls('POST /youtube-apis/yt-1/test')).toHaveLength(0);

      // A message from another origin is ignored.
      act(() => {
        window.dispatchEvent(
          new MessageEvent('message', {
            origin: 'https://evil.example',
            data: { type: 'youtube-auth', ok: true, config_id: 'yt-1', message: 'Forged' },
          }),
        );
      });
      expect(screen.queryByText('Forged')).not.toBeInTheDocument();

      configs = [{ ...main, has_refresh_token: true, is_connected: true }];
      act(() => {
        window.dispatchEvent(
          new MessageEvent('message', {
            origin: window.location.origin,
            data: { type: 'youtube-auth', ok: true, config_id: 'yt-1', message: 'Connected to YouTube channel “Stories”.' },
          }),
        );
      });

      expect(await screen.findByText('Connected to YouTube channel “Stories”.')).toBeInTheDocument();
      expect(await screen.findByRole('button', { name: 'Test Main OAuth' })).toBeInTheDocument();
      expect(server.calls('GET /youtube-apis/')).toHaveLength(2);
    });

    it('refreshes the list when the window closes without a word', async () => {
      const popup = { closed: false };
      open.mockReturnValue(popup as Window);
      const { user, server } = renderPanel({
        'GET /youtube-apis/': reply(200, youtubeApiList([{ ...main, has_refresh_token: false }])),
        'POST /youtube-apis/yt-1/authorize': reply(200, { url: 'http://localhost/api/v1/youtube-auth?state=abc' }),
      });

      await user.click(await screen.findByRole('button', { name: 'Authorize Main OAuth' }));
      await waitFor(() => expect(open).toHaveBeenCalled());
      popup.closed = true;

      await waitFor(() => expect(server.calls('GET /youtube-apis/')).toHaveLength(2), { timeout: 2000 });
    });

    it('says so when the browser blocks the window', async () => {
      open.mockReturnValue(null);
      const { user } = renderPanel({
        'GET /youtube-apis/': reply(200, youtubeApiList([{ ...main, has_refresh_token: false }])),
        'POST /youtube-apis/yt-1/authorize': reply(200, { url: 'http://localhost/api/v1/youtube-auth?state=abc' }),
      });

      await user.click(await screen.findByRole('button', { name: 'Authorize Main OAuth' }));

      expect(await screen.findByText(/The authorization window was blocked/)).toBeInTheDocument();
    });

    it('with a refresh token, tests the connection and shows a failure', async () => {
      const { user, server } = renderPanel({
        'GET /youtube-apis/': reply(200, youtubeApiList([main])),
        'POST /youtube-apis/yt-1/test': reply(200, {
          is_connected: false,
          last_tested: '2025-03-08T10:00:00.000Z',
          needs_authorization: false,
          detail: null,
          channel: null,
        }),
      });

      await user.click(await screen.findByRole('button', { name: 'Test Main OAuth' }));

      expect(await screen.findByRole('alert')).toHaveTextContent(
        'Failed to connect to YouTube API. Please check your credentials.',
      );
      expect(open).not.toHaveBeenCalled();
      await waitFor(() => expect(server.calls('GET /youtube-apis/')).toHaveLength(2));

      server.on({ 'POST /youtube-apis/yt-1/test': reply(404, { detail: 'Configuration not found' }) });
      jest.spyOn(console, 'error').mockImplementationOnce(() => undefined);
      await user.click(screen.getByRole('button', { name: 'Test Main OAuth' }));
      expect(await screen.findByText('Configuration not found')).toBeInTheDocument();
    });

    it('shows the server’s detail of a successful test and offers to authorize again when needed', async () => {
      const { user, server } = renderPanel({
        'GET /youtube-apis/': reply(200, youtubeApiList([main])),
        'POST /youtube-apis/yt-1/test': reply(200, {
          is_connected: true,
          last_tested: '2025-03-08T10:00:00.000Z',
          needs_authorization: false,
          detail: 'Connected to YouTube channel “Stories”.',
          channel: { id: 'UCmain', title: 'Stories', subscriber_count: 1, video_count: 1, view_count: 1 },
        }),
      });

      await user.click(await screen.findByRole('button', { name: 'Test Main OAuth' }));
      expect(await screen.findByRole('status')).toHaveTextContent('Connected to YouTube channel “Stories”.');

      server.on({
        'POST /youtube-apis/yt-1/test': reply(200, {
          is_connected: false,
          last_tested: '2025-03-08T10:00:00.000Z',
          needs_authorization: true,
          detail: 'Authorize access to the channel first',
          channel: null,
        }),
      });
      await user.click(screen.getByRole('button', { name: 'Test Main OAuth' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Authorize access to the channel first');
      expect(await screen.findByRole('button', { name: 'Authorize Main OAuth' })).toBeInTheDocument();
    });
  });

  it('deletes after a confirmation, and reports a failure in Portuguese', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderPanel(
      {
        'GET /youtube-apis/': reply(200, youtubeApiList([main])),
        'DELETE /youtube-apis/yt-1': reply(500, {}),
      },
      { language: 'pt' },
    );

    await user.click(await screen.findByRole('button', { name: 'Excluir Main OAuth' }));
    const confirm = await screen.findByRole('dialog', { name: 'Excluir a configuração “Main OAuth”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Excluir' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Erro ao excluir configuração');
    expect(server.calls('DELETE /youtube-apis/yt-1')).toHaveLength(1);

    server.on({ 'DELETE /youtube-apis/yt-1': reply(204), 'GET /youtube-apis/': reply(200, youtubeApiList([])) });
    await user.click(screen.getByRole('button', { name: 'Excluir Main OAuth' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Configuração “Main OAuth” excluída')).toBeInTheDocument();
    expect(await screen.findByText(/Nenhuma configuração da API do YouTube ainda/)).toBeInTheDocument();
    log.mockRestore();
  });

  it('reports a failed toggle with the spec’s message', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderPanel(
      {
        'GET /youtube-apis/': reply(200, youtubeApiList([main])),
        'PUT /youtube-apis/yt-1/toggle': reply(500, {}),
      },
      { language: 'pt' },
    );

    await user.click(await screen.findByRole('button', { name: 'Desativar Main OAuth' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Erro ao alterar status da configuração');
    expect(server.calls('PUT /youtube-apis/yt-1/toggle')).toHaveLength(1);
    log.mockRestore();
  });

  describe('a stored secret that can no longer be read', () => {
    const unreadable = youtubeApiFixture({ has_client_secret: false, client_secret_masked: '', secret_unreadable: true });

    it('is announced on the card, which opens the dialog to enter it again', async () => {
      const { user, server } = renderPanel({
        'GET /youtube-apis/': reply(200, youtubeApiList([unreadable, backup])),
        'PUT /youtube-apis/yt-1': reply(200, youtubeApiFixture()),
      });

      const card = await screen.findByRole('listitem', { name: 'Main OAuth' });
      expect(within(card).getByRole('note')).toHaveTextContent(
        'A stored secret of this configuration can no longer be read (the server’s secret key changed). Enter the client secret again, then authorize again.',
      );
      expect(within(screen.getByRole('listitem', { name: 'Backup' })).queryByRole('note')).not.toBeInTheDocument();

      await user.click(within(card).getByRole('button', { name: 'Enter the secrets of Main OAuth again' }));
      const dialog = await screen.findByRole('dialog', { name: 'Edit the YouTube API configuration' });
      expect(within(dialog).getByText(/The stored secrets can no longer be read/)).toBeInTheDocument();
      const secret = within(dialog).getByLabelText(/^OAuth client secret/);
      expect(secret).toBeRequired();

      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all fields');
      expect(server.calls('PUT /youtube-apis/yt-1')).toHaveLength(0);

      await user.type(secret, 'new-secret');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(server.calls('PUT /youtube-apis/yt-1')).toHaveLength(1));
      expect(server.calls('PUT /youtube-apis/yt-1')[0]!.body).toMatchObject({ client_secret: 'new-secret' });
    });

    it('speaks Portuguese', async () => {
      renderPanel({ 'GET /youtube-apis/': reply(200, youtubeApiList([unreadable])) }, { language: 'pt' });

      const card = await screen.findByRole('listitem', { name: 'Main OAuth' });
      expect(within(card).getByRole('note')).toHaveTextContent(
        /^Um segredo armazenado desta configuração não pode mais ser lido/,
      );
      expect(within(card).getByRole('button', { name: 'Informar novamente os segredos de Main OAuth' })).toHaveTextContent(
        'Informar novamente',
      );
    });
  });
});
