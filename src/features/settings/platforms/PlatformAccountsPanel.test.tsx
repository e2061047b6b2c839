import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import {
  PLATFORM_REDIRECT_URIS,
  invalidControls,
  deferred,
  platformAccountFixture,
  platformAccountList,
  reply,
} from '../../../testing';
import { isDimmed, renderSettings } from '../testing';

// Full screens on a busy 2-core machine: generous time per test.
jest.setTimeout(90_000);

const tiktok = platformAccountFixture();
const instagram = platformAccountFixture({
  id: 'pa-2',
  platform: 'instagram',
  name: 'Reels',
  username: null,
  display_name: null,
  avatar_url: null,
  external_id: null,
  is_connected: false,
  needs_authorization: true,
  client_id: 'meta-app-id',
  last_tested: null,
});

function renderPanel(...args: Parameters<typeof renderSettings> extends [unknown, ...infer Rest] ? Rest : never) {
  return renderSettings('platforms', ...args);
}

function postAuthMessage(data: object, origin = window.location.origin) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { origin, data }));
  });
}

async function choosePlatform(user: UserEvent, dialog: HTMLElement, platform: string) {
  await user.click(within(dialog).getByRole('combobox', { name: /^Platform|^Plataforma/ }));
  await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: platform }));
}

describe('Platforms panel', () => {
  it('lists the accounts: platform, profile, state, private-only note, and switched-off ones dimmed', async () => {
    const off = platformAccountFixture({
      id: 'pa-3',
      name: 'Old TikTok',
      is_active: false,
      is_connected: false,
      private_only: true,
      disconnect_reason: 'TikTok revoked the access: authorize again.',
    });
    renderPanel({ 'GET /platform-accounts/': reply(200, platformAccountList([tiktok, instagram, off])) });

    const list = await screen.findByRole('list', { name: 'Platforms' });
    const first = within(list).getByRole('listitem', { name: 'Stories on TikTok' });
    expect(within(first).getByTitle('TikTok')).toBeInTheDocument();
    expect(within(first).getByText('Night Stories · @nightstories')).toBeInTheDocument();
    expect(within(first).getByText('Connected')).toBeInTheDocument();
    expect(within(first).getByText(/^Last checked \d\d\/\d\d\/2025 \d\d:\d\d$/)).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Check Stories on TikTok' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Authorize Stories on TikTok' })).toHaveTextContent('Authorize again');
    expect(within(first).queryByRole('note')).not.toBeInTheDocument();
    expect(isDimmed(within(first).getByRole('heading'), first)).toBe(false);

    const second = within(list).getByRole('listitem', { name: 'Reels' });
    expect(within(second).getByTitle('Instagram')).toBeInTheDocument();
    expect(within(second).getByText('Needs authorization')).toBeInTheDocument();
    expect(within(second).getByText('Not authorized yet')).toBeInTheDocument();
    expect(within(second).getByText('Never checked')).toBeInTheDocument();
    expect(within(second).queryByRole('button', { name: 'Check Reels' })).not.toBeInTheDocument();
    expect(within(second).getByRole('button', { name: 'Authorize Reels' })).toHaveTextContent(/^Authorize$/);

    const third = within(list).getByRole('listitem', { name: 'Old TikTok' });
    expect(within(third).getByText('Switched off')).toBeInTheDocument();
    expect(within(third).getByText('Disconnected')).toBeInTheDocument();
    expect(within(third).getByText('Private only')).toBeInTheDocument();
    expect(within(third).getByRole('note')).toHaveTextContent(
      'TikTok posts will be private (visible only to you) until TikTok audits the app.',
    );
    expect(within(third).getByText('TikTok revoked the access: authorize again.')).toBeInTheDocument();
    expect(within(third).getByRole('button', { name: 'Enable Old TikTok' })).toBeInTheDocument();
    expect(within(third).getByRole('button', { name: 'Remove Old TikTok' })).toBeInTheDocument();
    expect(isDimmed(within(third).getByRole('heading'), third)).toBe(true);
  });

  it('shows a skeleton while loading, then the empty state with the add button', async () => {
    const answer = deferred();
    const { user } = renderPanel({ 'GET /platform-accounts/': answer.handler });
    expect(await screen.findByRole('heading', { level: 2, name: 'Platforms' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Platforms' })).not.toBeInTheDocument();
    expect(screen.queryByText(/No platform accounts yet/)).not.toBeInTheDocument();

    answer.resolve(reply(200, platformAccountList([])));
    expect(await screen.findByText(/No platform accounts yet/)).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Add account' })[1]);
    expect(await screen.findByRole('dialog', { name: 'Add a platform account' })).toBeInTheDocument();
  });

  it('leaves the list empty, with a retry that loads it again, when it fails to load', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderPanel({ 'GET /platform-accounts/': reply(500, {}) });

    expect(await screen.findByText(/Your platform accounts could not be loaded/)).toBeInTheDocument();
    expect(within(screen.getByRole('tabpanel')).queryByRole('listitem')).not.toBeInTheDocument();

    server.on({ 'GET /platform-accounts/': reply(200, platformAccountList([tiktok])) });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem', { name: 'Stories on TikTok' })).toBeInTheDocument();
    log.mockRestore();
  });

  describe('adding an account', () => {
    it('requires the app credentials when the server has no app of its own, with the help for each platform', async () => {
      const created = platformAccountFixture({ id: 'pa-9', platform: 'instagram', name: 'My Reels' });
      let accounts = [tiktok];
      const { user, server } = renderPanel({
        'GET /platform-accounts/': () => reply(200, platformAccountList(accounts)),
        'POST /platform-accounts/': () => {
          accounts = [tiktok, created];
          return reply(201, created);
        },
      });
      await user.click(await screen.findByRole('button', { name: 'Add account' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add a platform account' });

      expect(within(dialog).getByText(PLATFORM_REDIRECT_URIS.tiktok)).toBeInTheDocument();
      expect(within(dialog).getByRole('link', { name: /Open TikTok for Developers/ })).toHaveAttribute(
        'href',
        'https://developers.tiktok.com/apps',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all fields');
      expect(invalidControls(dialog)).toHaveLength(3);
      for (const label of [/^Name/, /^Client key/, /^Client secret/]) {
        expect(within(dialog).getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
      }
      expect(server.calls('POST /platform-accounts/')).toHaveLength(0);

      await choosePlatform(user, dialog, 'Instagram');
      expect(within(dialog).getByText(PLATFORM_REDIRECT_URIS.instagram)).toBeInTheDocument();
      expect(within(dialog).queryByText(PLATFORM_REDIRECT_URIS.tiktok)).not.toBeInTheDocument();
      expect(within(dialog).getByRole('link', { name: /Open Meta for Developers/ })).toHaveAttribute(
        'href',
        'https://developers.facebook.com/apps',
      );
      const secret = within(dialog).getByLabelText(/^App secret/);
      expect(secret).toHaveAttribute('type', 'password');
      await user.type(within(dialog).getByLabelText(/^Name/), 'My Reels');
      await user.type(within(dialog).getByLabelText(/^App ID/), ' 1234567890 ');
      await user.type(secret, 'meta-secret');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Platform account saved')).toBeInTheDocument();
      expect(server.calls('POST /platform-accounts/')[0]!.body).toEqual({
        platform: 'instagram',
        name: 'My Reels',
        client_id: '1234567890',
        client_secret: 'meta-secret',
      });
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(await screen.findByRole('listitem', { name: 'My Reels' })).toBeInTheDocument();
    });

    it('says so in Portuguese', async () => {
      const { user, server } = renderPanel(
        { 'GET /platform-accounts/': reply(200, platformAccountList([])) },
        { language: 'pt' },
      );
      await user.click((await screen.findAllByRole('button', { name: 'Adicionar conta' }))[0]!);
      const dialog = await screen.findByRole('dialog', { name: 'Adicionar conta de plataforma' });
      expect(within(dialog).getByRole('note')).toHaveTextContent(/^Crie um app no TikTok for Developers/);

      await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Por favor, preencha todos os campos');
      expect(invalidControls(dialog)).toHaveLength(3);
      await choosePlatform(user, dialog, 'Instagram');
      expect(within(dialog).getByLabelText(/^ID do app/)).toHaveAttribute('aria-invalid', 'true');
      expect(within(dialog).getByLabelText(/^Chave secreta do app/)).toHaveAttribute('aria-invalid', 'true');
      expect(server.calls('POST /platform-accounts/')).toHaveLength(0);
    });

    it('leaves the credentials optional for a platform whose app the server provides', async () => {
      const { user, server } = renderPanel({
        'GET /platform-accounts/': reply(200, platformAccountList([], { tiktok: true, instagram: false })),
        'POST /platform-accounts/': reply(201, platformAccountFixture({ uses_operator_app: true, client_id: null })),
      });
      await user.click((await screen.findAllByRole('button', { name: 'Add account' }))[0]!);
      const dialog = await screen.findByRole('dialog', { name: 'Add a platform account' });

      expect(within(dialog).getByLabelText(/^Client key/)).not.toBeRequired();
      expect(within(dialog).getAllByText('Optional: leave blank to use this server’s app.')).toHaveLength(2);
      await user.type(within(dialog).getByLabelText(/^Name/), 'Stories');
      // Both credentials or neither: a key alone asks for its secret.
      await user.type(within(dialog).getByLabelText(/^Client key/), 'own-key');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all fields');
      expect(within(dialog).getByLabelText(/^Client secret/)).toHaveAttribute('aria-invalid', 'true');
      expect(server.calls('POST /platform-accounts/')).toHaveLength(0);

      await user.clear(within(dialog).getByLabelText(/^Client key/));
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(server.calls('POST /platform-accounts/')).toHaveLength(1));
      expect(server.calls('POST /platform-accounts/')[0]!.body).toEqual({ platform: 'tiktok', name: 'Stories' });
      // Instagram has no operator app here: its credentials stay required.
      await user.click(screen.getAllByRole('button', { name: 'Add account' })[0]!);
      const again = await screen.findByRole('dialog', { name: 'Add a platform account' });
      await choosePlatform(user, again, 'Instagram');
      expect(within(again).getByLabelText(/^App ID/)).toBeRequired();
      expect(within(again).queryByText('Optional: leave blank to use this server’s app.')).not.toBeInTheDocument();
    });

    it('shows the server’s detail when saving fails', async () => {
      const { user } = renderPanel({
        'GET /platform-accounts/': reply(200, platformAccountList([], { tiktok: true, instagram: true })),
        'POST /platform-accounts/': reply(422, { detail: 'This server has no TikTok app: enter your client key and secret' }),
      });
      await user.click((await screen.findAllByRole('button', { name: 'Add account' }))[0]!);
      const dialog = await screen.findByRole('dialog');
      await user.type(within(dialog).getByLabelText(/^Name/), 'Stories');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(
        'This server has no TikTok app: enter your client key and secret',
      );
    });
  });

  it('renames an account with its name alone', async () => {
    const { user, server } = renderPanel({
      'GET /platform-accounts/': reply(200, platformAccountList([tiktok])),
      'PUT /platform-accounts/pa-1': reply(200, { ...tiktok, name: 'Renamed' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Stories on TikTok' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename the platform account' });
    expect(within(dialog).queryByLabelText(/^Client key/)).not.toBeInTheDocument();
    const name = within(dialog).getByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, 'Renamed');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.calls('PUT /platform-accounts/pa-1')).toHaveLength(1));
    expect(server.calls('PUT /platform-accounts/pa-1')[0]!.body).toEqual({ name: 'Renamed' });
  });

  describe('authorize and check', () => {
    let open: jest.SpyInstance;
    beforeEach(() => {
      open = jest.spyOn(window, 'open').mockReturnValue({ closed: false } as Window);
    });
    afterEach(() => open.mockRestore());

    it('opens the consent window and refetches the row when it reports back', async () => {
      let accounts = [instagram];
      const url = 'http://localhost/api/v1/platform-auth/instagram/?state=abc';
      const { user, server } = renderPanel({
        'GET /platform-accounts/': () => reply(200, platformAccountList(accounts)),
        'POST /platform-accounts/pa-2/authorize': reply(200, { url }),
      });

      await user.click(await screen.findByRole('button', { name: 'Authorize Reels' }));
      await waitFor(() => expect(open).toHaveBeenCalledWith(url, 'platform-auth', 'width=520,height=680'));

      // Another origin, or the YouTube window's message, is not this panel's.
      postAuthMessage(
        { type: 'platform-auth', platform: 'instagram', ok: true, account_id: 'pa-2', message: 'Forged' },
        'https://evil.example',
      );
      postAuthMessage({ type: 'youtube-auth', ok: true, config_id: 'pa-2', message: 'Wrong flow' });
      expect(screen.queryByText('Forged')).not.toBeInTheDocument();
      expect(screen.queryByText('Wrong flow')).not.toBeInTheDocument();
      expect(server.calls('GET /platform-accounts/')).toHaveLength(1);

      accounts = [{ ...instagram, username: 'reels.daily', external_id: 'ig-1', is_connected: true, needs_authorization: false }];
      postAuthMessage({
        type: 'platform-auth',
        ok: true,
        account_id: 'pa-2',
        message: 'Connected to Instagram as @reels.daily.',
      });

      expect(await screen.findByText('Connected to Instagram as @reels.daily.')).toBeInTheDocument();
      const row = await screen.findByRole('listitem', { name: 'Reels' });
      await waitFor(() => expect(within(row).getByText('@reels.daily')).toBeInTheDocument());
      expect(within(row).getByRole('button', { name: 'Check Reels' })).toBeInTheDocument();
      expect(server.calls('GET /platform-accounts/')).toHaveLength(2);
    });

    it('shows a failed or refused authorization in the banner, and a blocked window', async () => {
      const { user, server } = renderPanel({
        'GET /platform-accounts/': reply(200, platformAccountList([instagram])),
        'POST /platform-accounts/pa-2/authorize': reply(200, { url: 'http://localhost/x' }),
      });
      await user.click(await screen.findByRole('button', { name: 'Authorize Reels' }));
      await waitFor(() => expect(open).toHaveBeenCalled());
      postAuthMessage({ type: 'platform-auth', platform: 'instagram', ok: false, account_id: 'pa-2' });
      expect(await screen.findByRole('alert')).toHaveTextContent('The authorization did not complete');
      await waitFor(() => expect(server.calls('GET /platform-accounts/')).toHaveLength(2));

      // A refused window (its state came from another browser) knows no account: the list refetches.
      postAuthMessage({
        type: 'platform-auth',
        platform: 'instagram',
        ok: false,
        account_id: null,
        message: 'The authorization link expired or was already used. Start again from Settings.',
      });
      expect(await screen.findByRole('alert')).toHaveTextContent('The authorization link expired or was already used.');
      await waitFor(() => expect(server.calls('GET /platform-accounts/')).toHaveLength(3));

      open.mockReturnValue(null);
      await user.click(screen.getByRole('button', { name: 'Authorize Reels' }));
      expect(await screen.findByText(/The authorization window was blocked/)).toBeInTheDocument();
    });

    it('shows a failed check’s detail and refetches the row', async () => {
      const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      const { user, server } = renderPanel({
        'GET /platform-accounts/': reply(200, platformAccountList([tiktok])),
        'POST /platform-accounts/pa-1/test': reply(200, {
          is_connected: false,
          last_tested: '2025-03-08T10:00:00.000Z',
          needs_authorization: true,
          detail: 'TikTok no longer accepts the stored access: authorize the account again.',
        }),
      });

      await user.click(await screen.findByRole('button', { name: 'Check Stories on TikTok' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'TikTok no longer accepts the stored access: authorize the account again.',
      );
      expect(open).not.toHaveBeenCalled();
      await waitFor(() => expect(server.calls('GET /platform-accounts/')).toHaveLength(2));

      server.on({
        'POST /platform-accounts/pa-1/test': reply(200, {
          is_connected: false,
          last_tested: '2025-03-08T10:05:00.000Z',
          needs_authorization: false,
          detail: '',
        }),
      });
      await user.click(screen.getByRole('button', { name: 'Check Stories on TikTok' }));
      await waitFor(() =>
        expect(screen.getByRole('alert')).toHaveTextContent('The account could not be reached. Authorize it again.'),
      );

      server.on({ 'POST /platform-accounts/pa-1/test': reply(429, { detail: 'Wait a minute before checking again' }) });
      await user.click(screen.getByRole('button', { name: 'Check Stories on TikTok' }));
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Wait a minute before checking again'));
      log.mockRestore();
    });
  });

  it('lets the owner pick one of the Instagram accounts the login manages', async () => {
    const pending = platformAccountFixture({
      ...instagram,
      needs_authorization: false,
      choices: [
        { external_id: 'ig-1', username: 'reels.daily', page_name: 'Daily Reels', picture_url: 'https://cdn.example/1.jpg' },
        { external_id: 'ig-2', username: 'night.tales', page_name: 'Night Tales', picture_url: null },
        { external_id: 'ig-3', username: null, page_name: 'Unnamed Page', picture_url: null },
      ],
    });
    let accounts = [pending];
    const { user, server } = renderPanel({
      'GET /platform-accounts/': () => reply(200, platformAccountList(accounts)),
      'PUT /platform-accounts/pa-2': () => {
        accounts = [
          {
            ...instagram,
            choices: null,
            needs_authorization: false,
            is_connected: true,
            username: 'night.tales',
            external_id: 'ig-2',
          },
        ];
        return reply(200, accounts[0]);
      },
    });

    const row = await screen.findByRole('listitem', { name: 'Reels' });
    expect(within(row).getByText('Choose an account')).toBeInTheDocument();
    const choices = within(row).getByRole('list', { name: 'Instagram accounts of Reels' });
    expect(within(choices).getAllByRole('listitem')).toHaveLength(3);
    expect(within(choices).getByText('Daily Reels')).toBeInTheDocument();
    expect(within(choices).getByText('@night.tales')).toBeInTheDocument();
    // Meta may answer no username: the Page's name stands for it.
    expect(within(choices).getByRole('button', { name: 'Publish as Unnamed Page' })).toBeInTheDocument();
    expect(within(choices).queryByText('@')).not.toBeInTheDocument();

    await user.click(within(choices).getByRole('button', { name: 'Publish as @night.tales' }));

    expect(await screen.findByText('Publishing as @night.tales')).toBeInTheDocument();
    expect(server.calls('PUT /platform-accounts/pa-2')[0]!.body).toEqual({ external_id: 'ig-2' });
    await waitFor(() =>
      expect(within(screen.getByRole('listitem', { name: 'Reels' })).queryByRole('list')).not.toBeInTheDocument(),
    );
    expect(within(screen.getByRole('listitem', { name: 'Reels' })).getByText('@night.tales')).toBeInTheDocument();
  });

  it('removes after a confirmation, and reports a failure, in Portuguese', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderPanel(
      {
        'GET /platform-accounts/': reply(200, platformAccountList([tiktok])),
        'DELETE /platform-accounts/pa-1': reply(500, {}),
      },
      { language: 'pt' },
    );

    await user.click(await screen.findByRole('button', { name: 'Remover Stories on TikTok' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remover a conta “Stories on TikTok”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remover' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Erro ao remover a conta');
    expect(server.calls('DELETE /platform-accounts/pa-1')).toHaveLength(1);

    server.on({ 'DELETE /platform-accounts/pa-1': reply(204), 'GET /platform-accounts/': reply(200, platformAccountList([])) });
    await user.click(screen.getByRole('button', { name: 'Remover Stories on TikTok' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remover' }));
    expect(await screen.findByText('Conta “Stories on TikTok” removida')).toBeInTheDocument();
    expect(await screen.findByText(/Nenhuma conta de plataforma ainda/)).toBeInTheDocument();
    expect(server.calls('DELETE /platform-accounts/pa-1')).toHaveLength(2);
    log.mockRestore();
  });

  it('switches an account off', async () => {
    const { user, server } = renderPanel({
      'GET /platform-accounts/': reply(200, platformAccountList([tiktok])),
      'PUT /platform-accounts/pa-1/toggle': reply(200, { ...tiktok, is_active: false }),
    });
    await user.click(await screen.findByRole('button', { name: 'Disable Stories on TikTok' }));
    await waitFor(() => expect(server.calls('PUT /platform-accounts/pa-1/toggle')).toHaveLength(1));
    await waitFor(() => expect(server.calls('GET /platform-accounts/')).toHaveLength(2));
  });

  it('fits a 375 px phone: the menu becomes a row of tabs and long values wrap', async () => {
    const width = window.innerWidth;
    window.innerWidth = 375;
    try {
      const long = platformAccountFixture({ name: 'A'.repeat(80), username: 'u'.repeat(60), disconnect_reason: 'x'.repeat(200) });
      const { user } = renderPanel({ 'GET /platform-accounts/': reply(200, platformAccountList([long])) });
      const menu = await screen.findByRole('tablist', { name: 'Settings sections' });
      expect(menu).not.toHaveAttribute('aria-orientation');
      expect(within(menu).getByRole('tab', { name: 'Platforms' })).toHaveAttribute('aria-selected', 'true');
      const row = await screen.findByRole('listitem', { name: long.name });
      for (const text of [long.name, `Night Stories · @${long.username!}`, long.disconnect_reason!]) {
        expect(window.getComputedStyle(within(row).getByText(text)).overflowWrap).toBe('anywhere');
      }
      await user.click(screen.getByRole('button', { name: 'Add account' }));
      const dialog = await screen.findByRole('dialog');
      expect(window.getComputedStyle(within(dialog).getByText(PLATFORM_REDIRECT_URIS.tiktok)).overflowWrap).toBe('anywhere');
    } finally {
      window.innerWidth = width;
    }
  });
});
