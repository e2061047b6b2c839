import { screen, waitFor, within } from '@testing-library/react';
import {
  authResult,
  deferred,
  mockApi,
  prerenderedCard,
  removePrerenderedCards,
  renderApp,
  reply,
  testLocation,
  testUser,
} from '../../testing';

function fields() {
  return {
    email: screen.getByLabelText('Email'),
    password: screen.getByLabelText('Password'),
    submit: screen.getByRole('button', { name: 'Sign in' }),
  };
}

/** Opens /login and waits for the form (the screen is a chunk of its own). */
async function openLogin(options: Parameters<typeof renderApp>[1] = {}) {
  const rendered = renderApp('/login', options);
  await screen.findByRole('heading', { level: 1 });
  return rendered;
}

describe('LoginPage', () => {
  it('shows the form with the forgot-password and sign-up links', async () => {
    await openLogin();

    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(fields().email).toHaveAttribute('type', 'email');
    expect(fields().password).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
  });

  it('asks to fill in all fields and sends nothing when a field is empty', async () => {
    const server = mockApi();
    const { user } = await openLogin();

    await user.type(fields().email, 'ana@example.com');
    await user.click(fields().submit);

    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(fields().password).toHaveAttribute('aria-invalid', 'true');
    expect(fields().email).toHaveAttribute('aria-invalid', 'false');
    expect(server.requests).toHaveLength(0);
  });

  it('focuses the first missing field, and checks again as the visitor types', async () => {
    const { user } = await openLogin();

    await user.click(fields().submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(fields().email).toHaveFocus();
    expect(fields().email).toHaveAttribute('aria-invalid', 'true');

    await user.type(fields().email, 'ana@example.com');
    expect(fields().email).toHaveAttribute('aria-invalid', 'false');
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all fields');

    await user.type(fields().password, 'x');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('speaks Portuguese when that is the chosen language', async () => {
    const { user } = await openLogin({ preloadedState: { preferences: { language: 'pt' } } });

    expect(screen.getByRole('heading', { name: 'Entrar' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Entrar' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Por favor, preencha todos os campos');
    expect(screen.getByRole('link', { name: 'Esqueceu sua senha?' })).toBeInTheDocument();
  });

  it('shows and hides the password', async () => {
    const { user } = await openLogin();

    await user.type(fields().password, 'secret1');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(fields().password).toHaveAttribute('type', 'text');
    expect(fields().password).toHaveValue('secret1');

    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(fields().password).toHaveAttribute('type', 'password');
  });

  it('shows the translated invalid-credentials message on 401', async () => {
    mockApi({ 'POST /auth/login': reply(401, { detail: 'whatever the server says' }) });
    const { user, store } = await openLogin({ preloadedState: { preferences: { language: 'pt' } } });

    await user.type(screen.getByLabelText('E-mail'), 'ana@example.com');
    await user.type(screen.getByLabelText('Senha'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Credenciais inválidas');
    expect(store.getState().auth.token).toBeNull();
    expect(testLocation().pathname).toBe('/login');
  });

  it('shows the server’s detail for other failures', async () => {
    mockApi({ 'POST /auth/login': reply(429, { detail: 'Too many sign-in attempts. Try again in 15 minutes.' }) });
    const { user } = await openLogin();

    await user.type(fields().email, 'ana@example.com');
    await user.type(fields().password, 'secret1');
    await user.click(fields().submit);

    expect(await screen.findByRole('alert')).toHaveTextContent('Too many sign-in attempts. Try again in 15 minutes.');
  });

  it('disables the button and says it is signing in while the call runs', async () => {
    const pending = deferred();
    mockApi({ 'POST /auth/login': pending.handler, 'GET /auth/me': reply(200, testUser) });
    const { user } = await openLogin();

    await user.type(fields().email, 'ana@example.com');
    await user.type(fields().password, 'secret1');
    await user.click(fields().submit);

    const busy = await screen.findByRole('button', { name: 'Signing in…' });
    expect(busy).toBeDisabled();
    pending.resolve(reply(200, authResult()));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
  });

  it('signs in and lands on the dashboard, with the trimmed email sent', async () => {
    const server = mockApi({ 'POST /auth/login': reply(200, authResult(testUser, 'new-token')) });
    const { user, store } = await openLogin();

    await user.type(fields().email, '  ana@example.com ');
    await user.type(fields().password, 'secret1');
    await user.click(fields().submit);

    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(testLocation().pathname).toBe('/dashboard');
    expect(store.getState().auth.token).toBe('new-token');
    expect(server.calls('POST /auth/login')[0].body).toEqual({ email: 'ana@example.com', password: 'secret1' });
    // The login answer's user is used as is: no extra /auth/me round trip.
    expect(server.calls('GET /auth/me')).toHaveLength(0);
    expect(within(screen.getByRole('banner')).getByText(testUser.name)).toBeInTheDocument();
  });

  it('goes back to the page first asked for after signing in', async () => {
    mockApi({ 'POST /auth/login': reply(200, authResult()), 'GET /channels/': reply(200, { channels: [], total: 0 }) });
    const { user } = renderApp('/channels?tab=all');

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    await user.type(fields().email, 'ana@example.com');
    await user.type(fields().password, 'secret1');
    await user.click(fields().submit);

    expect(await screen.findByRole('heading', { level: 1, name: 'Channels' })).toBeInTheDocument();
    await waitFor(() => expect(testLocation()).toMatchObject({ pathname: '/channels', search: '?tab=all' }));
  });

  describe('taking over the card served already rendered (/login before the app ran)', () => {
    /** The prerendered card as public/preferences.js leaves it: `typed` in its fields. */
    function loginCard(typed: { email: string; password: string }, options: { submitted?: boolean } = {}) {
      const card = prerenderedCard(
        [
          { name: 'email', type: 'email', value: typed.email },
          { name: 'password', type: 'password', value: typed.password },
        ],
        options,
      );
      return { email: card.inputs.email!, password: card.inputs.password! };
    }

    afterEach(removePrerenderedCards);

    it('keeps what was typed, and the focus and caret in the field the visitor was in', async () => {
      const card = loginCard({ email: 'ana@example.com', password: 'secr' });
      card.password.focus();
      card.password.setSelectionRange(2, 2);

      await openLogin();

      expect(fields().email).toHaveValue('ana@example.com');
      expect(fields().password).toHaveValue('secr');
      await waitFor(() => expect(fields().password).toHaveFocus());
      expect((fields().password as HTMLInputElement).selectionStart).toBe(2);
    });

    it('sends a sign-in the visitor asked for before the app ran', async () => {
      const server = mockApi({ 'POST /auth/login': reply(200, authResult(testUser, 'early-token')) });
      loginCard({ email: 'ana@example.com', password: 'secret1' }, { submitted: true });

      const { store } = renderApp('/login');

      expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
      expect(server.calls('POST /auth/login')).toHaveLength(1);
      expect(server.calls('POST /auth/login')[0].body).toEqual({ email: 'ana@example.com', password: 'secret1' });
      expect(store.getState().auth.token).toBe('early-token');
    });

    it('checks an early submit like any other: an empty field is named, nothing is sent', async () => {
      const server = mockApi();
      loginCard({ email: 'ana@example.com', password: '' }, { submitted: true });

      await openLogin();

      expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields');
      expect(fields().password).toHaveFocus();
      expect(server.requests).toHaveLength(0);
    });

    it('starts empty when the page was not prerendered', async () => {
      await openLogin();

      expect(fields().email).toHaveValue('');
      expect(fields().email).toHaveFocus();
    });
  });
});
