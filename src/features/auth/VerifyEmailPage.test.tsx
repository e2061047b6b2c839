import { screen, waitFor } from '@testing-library/react';
import { deferred, mockApi, renderApp, reply, signedInState, testLocation, testUser } from '../../testing';

// Full screens on a busy 2-core machine: generous time per test.
jest.setTimeout(90_000);

const VERIFY = 'POST /auth/verify-email';
const refused = reply(422, {
  detail: 'This confirmation link is invalid, was already used or has expired. Ask for a new one in the console.',
});

describe('VerifyEmailPage', () => {
  it('sends the token once, shows the wait, then the confirmation and a way to sign in', async () => {
    const answer = deferred();
    const server = mockApi({ [VERIFY]: answer.handler });
    renderApp('/verify-email?token=tok-123');

    expect(await screen.findByRole('progressbar', { name: 'Confirming your email address…' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Confirm your email' })).toBeInTheDocument();
    answer.resolve(reply(200, { detail: 'Your email address is confirmed.' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Your email is confirmed.');
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(server.calls(VERIFY)).toHaveLength(1);
    expect(server.calls(VERIFY)[0]!.body).toEqual({ token: 'tok-123' });
  });

  it('sends the token only once under React’s StrictMode', async () => {
    const server = mockApi({ [VERIFY]: reply(200, { detail: 'Your email address is confirmed.' }) });
    renderApp('/verify-email?token=strict', { reactStrictMode: true });

    expect(await screen.findByText('Your email is confirmed.')).toBeInTheDocument();
    expect(server.calls(VERIFY)).toHaveLength(1);
  });

  it('offers the dashboard to a signed-in visitor, and stays on the page', async () => {
    const server = mockApi({
      [VERIFY]: reply(200, { detail: 'Your email address is confirmed.' }),
      'GET /auth/me': reply(200, testUser),
    });
    renderApp('/verify-email?token=tok-123', { preloadedState: signedInState });

    expect(await screen.findByText('Your email is confirmed.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(testLocation().pathname).toBe('/verify-email');
    expect(server.calls(VERIFY)).toHaveLength(1);
  });

  it('shows the server’s detail for a used, expired or unknown link, with a link to sign in', async () => {
    mockApi({ [VERIFY]: refused });
    renderApp('/verify-email?token=used');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This confirmation link is invalid, was already used or has expired. Ask for a new one in the console.',
    );
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('offers another try when the server could not answer', async () => {
    let down = true;
    const server = mockApi({
      [VERIFY]: () => (down ? reply(503, 'unavailable', { contentType: 'text/plain' }) : reply(200, { detail: 'ok' })),
    });
    const { user } = renderApp('/verify-email?token=tok-123');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your email could not be confirmed. Check your connection and try again.',
    );
    down = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByText('Your email is confirmed.')).toBeInTheDocument();
    expect(server.calls(VERIFY)).toHaveLength(2);
  });

  it('explains a link without a token, without asking the server', async () => {
    const server = mockApi();
    renderApp('/verify-email');

    expect(await screen.findByText(/This confirmation link is incomplete/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    await waitFor(() => expect(server.requests).toHaveLength(0));
  });

  it('asks for the account’s password for an administrator address, and sends it with the same link', async () => {
    const server = mockApi({
      [VERIFY]: (request) => {
        const { password } = request.body as { password?: string };
        if (!password) {
          return reply(422, {
            detail: 'This link confirms an administrator address. Enter the password of the account to confirm it.',
            password_required: true,
          });
        }
        if (password !== 'right-one') {
          return reply(422, {
            detail: "That is not the password of this account. Only the account's owner can confirm an administrator address.",
            password_required: true,
          });
        }
        return reply(200, { detail: 'Your email address is confirmed.' });
      },
    });
    const { user } = renderApp('/verify-email?token=admin-link');

    const field = await screen.findByLabelText(/^The account's password/);
    expect(screen.getByText(/This link confirms an administrator address/)).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(field).toHaveAttribute('type', 'password');

    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(server.calls(VERIFY)).toHaveLength(1);

    await user.type(field, 'a-guess');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(/That is not the password of this account/)).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, 'right-one');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your email is confirmed.');
    expect(server.calls(VERIFY).map((call) => call.body)).toEqual([
      { token: 'admin-link' },
      { token: 'admin-link', password: 'a-guess' },
      { token: 'admin-link', password: 'right-one' },
    ]);
  });

  it('asks for the password in Portuguese too', async () => {
    mockApi({
      [VERIFY]: reply(422, {
        detail: 'Este link confirma um endereço de administrador. Digite a senha da conta para confirmá-lo.',
        password_required: true,
      }),
    });
    renderApp('/verify-email?token=admin-link', { preloadedState: { preferences: { language: 'pt' } } });

    expect(await screen.findByLabelText(/^A senha da conta/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Confirmar' })).toBeInTheDocument();
    expect(screen.getByText(/Este link confirma um endereço de administrador/)).toBeInTheDocument();
  });

  it('speaks Portuguese', async () => {
    mockApi({ [VERIFY]: reply(200, { detail: 'Seu endereço de e-mail está confirmado.' }) });
    renderApp('/verify-email?token=tok-123', { preloadedState: { preferences: { language: 'pt' } } });

    expect(await screen.findByRole('heading', { level: 1, name: 'Confirme seu e-mail' })).toBeInTheDocument();
    expect(await screen.findByText('Seu e-mail está confirmado.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ir para o login' })).toHaveAttribute('href', '/login');
  });
});
