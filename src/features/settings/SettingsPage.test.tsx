import { screen, within } from '@testing-library/react';
import { adminUser, reply, testLocation } from '../../testing';
import { renderSettings } from './testing';

function menuItems(name = 'Settings sections') {
  return within(screen.getByRole('tablist', { name }))
    .getAllByRole('tab')
    .map((tab) => tab.textContent);
}

describe('SettingsPage', () => {
  it('lists profile, security, YouTube API, platforms, ChatGPT API, notifications and danger zone for a user', async () => {
    renderSettings(null);

    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(menuItems()).toEqual([
      'Profile',
      'Security',
      'YouTube API',
      'Platforms',
      'ChatGPT API',
      'Notifications',
      'Danger zone',
    ]);
    expect(screen.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  });

  it('inserts voices, music and proxies after the YouTube API for an admin', async () => {
    renderSettings(null, { 'GET /proxies/': reply(200, { proxies: [], total: 0 }) }, { user: adminUser });

    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    expect(menuItems()).toEqual([
      'Profile',
      'Security',
      'YouTube API',
      'Platforms',
      'Voices',
      'Music',
      'Proxies',
      'ChatGPT API',
      'Notifications',
      'Danger zone',
    ]);
  });

  it('keeps the selected panel in the address (?tab=), so a reload opens it again', async () => {
    const emptyList = reply(200, { youtube_apis: [], total: 0, oauth_redirect_uri: 'x' });
    const { user, unmount } = renderSettings('chat-model', {
      'GET /chatgpt/config': reply(404, { detail: 'Not found' }),
      'GET /youtube-apis/': emptyList,
    });

    expect(await screen.findByRole('heading', { level: 2, name: 'ChatGPT API' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'ChatGPT API' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'ChatGPT API' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'YouTube API' }));
    expect(testLocation().search).toBe('?tab=youtube-api');
    expect(await screen.findByText(/No YouTube API configuration yet/)).toBeInTheDocument();
    unmount();

    renderSettings('youtube-api', { 'GET /youtube-apis/': emptyList });
    expect(await screen.findByRole('heading', { level: 2, name: 'YouTube API' })).toBeInTheDocument();
  });

  it('opens the first panel for a tab the user may not see', async () => {
    const { server } = renderSettings('proxies');

    expect(await screen.findByRole('heading', { level: 2, name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Proxies' })).not.toBeInTheDocument();
    expect(server.calls('GET /proxies/')).toHaveLength(0);
  });

  it('speaks Portuguese', async () => {
    renderSettings(null, {}, { language: 'pt' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Configurações' })).toBeInTheDocument();
    expect(menuItems('Seções das configurações')).toEqual([
      'Perfil',
      'Segurança',
      'API do YouTube',
      'Plataformas',
      'API do ChatGPT',
      'Notificações',
      'Zona de perigo',
    ]);
  });

  it('shows the menu as a row of tabs on narrow screens', async () => {
    const width = window.innerWidth;
    window.innerWidth = 600;
    try {
      renderSettings(null);
      const menu = await screen.findByRole('tablist', { name: 'Settings sections' });
      // A tablist is horizontal unless it says otherwise.
      expect(menu).not.toHaveAttribute('aria-orientation');
      expect(screen.getAllByRole('tab')).toHaveLength(7);
    } finally {
      window.innerWidth = width;
    }
  });

  it('stacks the menu vertically on wide screens', async () => {
    renderSettings(null);
    expect(await screen.findByRole('tablist', { name: 'Settings sections' })).toHaveAttribute('aria-orientation', 'vertical');
  });
});
