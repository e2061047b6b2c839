import { screen } from '@testing-library/react';
import { mockApi, renderApp, reply, testLocation, testUser } from '../../testing';

async function fillIn(user: ReturnType<typeof renderApp>['user'], password: string, confirmation: string) {
  await user.type(await screen.findByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm the new password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('ResetPasswordPage', () => {
  it('refuses a mismatched confirmation', async () => {
    const server = mockApi();
    const { user } = renderApp('/reset-password?token=abc');

    await fillIn(user, 'secret1', 'secret2');

    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a short password, in Portuguese too', async () => {
    const { user } = renderApp('/reset-password?token=abc', { preloadedState: { preferences: { language: 'pt' } } });

    await user.type(await screen.findByLabelText('Nova senha'), '123');
    await user.type(screen.getByLabelText('Confirme a nova senha'), '321');
    await user.click(screen.getByRole('button', { name: 'Alterar senha' }));

    expect(await screen.findByText('A senha deve ter pelo menos 6 caracteres')).toBeInTheDocument();
    expect(screen.getByText('As senhas não coincidem')).toBeInTheDocument();
  });

  it('changes the password and links to sign-in', async () => {
    const server = mockApi({ 'POST /auth/reset-password/confirm': reply(200, { detail: 'ok' }) });
    const { user } = renderApp('/reset-password?token=abc');

    await fillIn(user, 'secret1', 'secret1');

    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been changed. You can sign in now.');
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
    expect(server.calls('POST /auth/reset-password/confirm')[0].body).toEqual({ token: 'abc', new_password: 'secret1' });
  });

  it('says when the reset cleared the account’s webhook and server addresses', async () => {
    mockApi({
      'POST /auth/reset-password/confirm': reply(200, { detail: 'Your password has been changed.', urls_cleared: true }),
    });
    const { user } = renderApp('/reset-password?token=abc', { preloadedState: { preferences: { language: 'pt' } } });

    await user.type(await screen.findByLabelText('Nova senha'), 'secret1');
    await user.type(screen.getByLabelText('Confirme a nova senha'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Alterar senha' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Sua senha foi alterada. Você já pode entrar.');
    expect(
      screen.getByText(/Por segurança, o webhook e os endereços dos servidores de modelo, voz e imagens/),
    ).toBeInTheDocument();
  });

  it('shows the server’s detail for an invalid or expired link', async () => {
    mockApi({
      'POST /auth/reset-password/confirm': reply(422, {
        detail: 'This reset link is invalid or has expired. Ask for a new one.',
      }),
    });
    const { user } = renderApp('/reset-password?token=expired');

    await fillIn(user, 'secret1', 'secret1');

    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link is invalid or has expired. Ask for a new one.');
  });

  it('explains a link without a token', async () => {
    renderApp('/reset-password');

    expect(await screen.findByText(/This reset link is incomplete/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('stays open to a signed-in visitor', async () => {
    mockApi({ 'GET /auth/me': reply(200, testUser) });
    renderApp('/reset-password?token=abc', { preloadedState: { auth: { token: 'signed-in' } } });

    expect(await screen.findByLabelText('New password')).toBeInTheDocument();
    expect(testLocation().pathname).toBe('/reset-password');
  });
});
