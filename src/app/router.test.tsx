import { screen, waitFor, within } from '@testing-library/react';
import { api } from '../api';
import { mockApi, never, renderApp, reply, testLocation, testUser } from '../testing';

const signedIn = { auth: { token: 'stored-token' } };

describe('guards', () => {
  it('sends a signed-out visitor of a protected page to /login', async () => {
    const server = mockApi();
    renderApp('/processes');

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(testLocation().pathname).toBe('/login');
    expect(server.requests).toHaveLength(0);
  });

  it('sends a signed-out visitor of an unknown page to /login', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('shows a full-screen spinner while the stored token is validated', async () => {
    const server = mockApi({ 'GET /auth/me': never() });
    renderApp('/dashboard', { preloadedState: signedIn });

    expect(await screen.findByRole('progressbar', { name: 'Checking your session…' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).not.toBeInTheDocument();
    expect(server.calls('GET /auth/me')[0].headers.get('authorization')).toBe('Bearer stored-token');
  });

  it('clears a token the server refuses and goes to /login', async () => {
    mockApi({ 'GET /auth/me': reply(401, { detail: 'Your session has expired; please sign in again' }) });
    const { store } = renderApp('/dashboard', { preloadedState: signedIn });

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(store.getState().auth.token).toBeNull();
    expect(screen.getByText('Your session has ended. Please sign in again.')).toBeInTheDocument();
  });

  it('clears the token when /auth/me fails for any other reason', async () => {
    mockApi({ 'GET /auth/me': reply(503, { detail: 'The service is starting' }) });
    const { store } = renderApp('/settings', { preloadedState: signedIn });

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(store.getState().auth.token).toBeNull();
  });

  it('sends a signed-in visitor of /login, /signup or /forgot-password to /dashboard', async () => {
    for (const path of ['/login', '/signup', '/forgot-password']) {
      mockApi({ 'GET /auth/me': reply(200, testUser) });
      const { unmount } = renderApp(path, { preloadedState: signedIn });
      expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
      expect(testLocation().pathname).toBe('/dashboard');
      unmount();
    }
  });

  it('redirects the index to /dashboard', async () => {
    mockApi({ 'GET /auth/me': reply(200, testUser) });
    renderApp('/', { preloadedState: signedIn });

    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(testLocation().pathname).toBe('/dashboard');
  });

  it('shows a not-found page for an unknown path of a signed-in visitor', async () => {
    mockApi({ 'GET /auth/me': reply(200, testUser) });
    renderApp('/nowhere', { preloadedState: signedIn });

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('There is nothing at /nowhere.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/dashboard');
  });
});

describe('feature pages', () => {
  it('the language toggle switches a page at once (the subscription page)', async () => {
    mockApi({ 'GET /auth/me': reply(200, testUser), 'GET /subscription/': reply(500, { detail: 'down' }) });
    const { user } = renderApp('/subscription', { preloadedState: signedIn });

    expect(await screen.findByRole('heading', { level: 1, name: 'Subscription' })).toBeInTheDocument();
    expect(screen.getByText('Most popular')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Language: EN. Switch to Portuguese' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Assinatura' })).toBeInTheDocument();
    expect(screen.getByText('Mais popular')).toBeInTheDocument();
  });
});

describe('signed-in layout', () => {
  async function renderSignedIn(path = '/dashboard') {
    const calls = mockApi({
      'GET /auth/me': reply(200, testUser),
      'GET /channels/': reply(200, { channels: [], total: 0 }),
      'GET /voices/': reply(200, { voices: [], total: 0 }),
      'POST /auth/logout': reply(200, { detail: 'Signed out.' }),
    });
    const rendered = renderApp(path, { preloadedState: signedIn });
    await screen.findByRole('heading', { level: 1 });
    return { ...rendered, calls };
  }

  it('lists the eight sections in order and highlights the current one', async () => {
    await renderSignedIn('/channels');

    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Dashboard',
      'Processes',
      'Channels',
      'Prompts',
      'Voices',
      'History',
      'Subscription',
      'Settings',
    ]);
    expect(within(nav).getByRole('link', { name: 'Channels' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('navigates from the sidebar', async () => {
    const { user } = await renderSignedIn('/dashboard');

    await user.click(within(screen.getByRole('navigation')).getByRole('link', { name: 'Voices' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Voices' })).toBeInTheDocument();
    expect(testLocation().pathname).toBe('/voices');
  });

  it('shows the user’s name and plan in the top bar', async () => {
    await renderSignedIn();

    const bar = screen.getByRole('banner');
    expect(within(bar).getByText('Ana Souza')).toBeInTheDocument();
    expect(within(bar).getByText('Starter plan')).toBeInTheDocument();
  });

  it('switches the language of the whole page and of <html lang>', async () => {
    const { user, store } = await renderSignedIn();
    expect(document.documentElement.lang).toBe('en');

    await user.click(screen.getByRole('button', { name: 'Language: EN. Switch to Portuguese' }));

    expect(await screen.findByRole('button', { name: 'Idioma: PT. Mudar para inglês' })).toHaveTextContent('PT');
    expect(within(screen.getByRole('navigation')).getByRole('link', { name: 'Configurações' })).toBeInTheDocument();
    expect(screen.getByText('Plano Starter')).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('pt-BR');
    expect(store.getState().preferences.language).toBe('pt');
  });

  it('toggles the theme', async () => {
    const { user, store } = await renderSignedIn();

    await user.click(screen.getByRole('button', { name: 'Switch to the light theme' }));

    expect(store.getState().preferences.theme).toBe('light');
    expect(screen.getByRole('button', { name: 'Switch to the dark theme' })).toBeInTheDocument();
  });

  it('signs out: token and cache cleared, back to /login', async () => {
    const { user, store, calls } = await renderSignedIn();

    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    // The server is told to forget the token, which the request still names.
    await waitFor(() => expect(calls.calls('POST /auth/logout')).toHaveLength(1));
    expect(calls.calls('POST /auth/logout')[0]!.headers.get('authorization')).toMatch(/^Bearer /);

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(testLocation().pathname).toBe('/login');
    expect(testLocation().state).toBeNull();
    expect(store.getState().auth.token).toBeNull();
    expect(api.endpoints.me.select()(store.getState()).data).toBeUndefined();
    expect(screen.queryByText('Your session has ended. Please sign in again.')).not.toBeInTheDocument();
  });

  it('uses a drawer opened from a menu button on narrow screens', async () => {
    const width = window.innerWidth;
    window.innerWidth = 600;
    try {
      const { user } = await renderSignedIn('/dashboard');

      expect(screen.queryByRole('navigation', { name: 'Main navigation' })).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Open the navigation menu' }));
      const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
      await user.click(within(nav).getByRole('link', { name: 'History' }));

      expect(await screen.findByRole('heading', { level: 1, name: 'History' })).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Main navigation' })).not.toBeInTheDocument());
    } finally {
      window.innerWidth = width;
    }
  });

  it('has no menu button on wide screens', async () => {
    await renderSignedIn();
    expect(screen.queryByRole('button', { name: 'Open the navigation menu' })).not.toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  });
});
