import { screen } from '@testing-library/react';
import { mockApi, renderApp, reply } from '../../testing';

describe('ForgotPasswordPage', () => {
  it('asks for the email address', async () => {
    const server = mockApi();
    const { user } = renderApp('/forgot-password');

    await user.click(await screen.findByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter your email address');
    expect(server.requests).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });

  it('asks for the email address in Portuguese', async () => {
    const { user } = renderApp('/forgot-password', { preloadedState: { preferences: { language: 'pt' } } });

    await user.click(await screen.findByRole('button', { name: 'Enviar link de redefinição' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Por favor, informe seu endereço de e-mail');
  });

  it('confirms with the email, and "use another email" brings an empty form back', async () => {
    const server = mockApi({ 'POST /auth/reset-password': reply(202, { detail: 'sent' }) });
    const { user } = renderApp('/forgot-password');

    await user.type(await screen.findByLabelText('Email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account exists for ana@example.com, a link to reset the password is on its way.',
    );
    expect(server.calls('POST /auth/reset-password')[0].body).toEqual({ email: 'ana@example.com' });
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Use another email' }));

    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('says the email could not be sent when the call fails without detail', async () => {
    globalThis.fetch = jest.fn(() => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch;
    const { user } = renderApp('/forgot-password');

    await user.type(await screen.findByLabelText('Email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('The reset email could not be sent. Please try again.');
  });

  it('shows the server’s detail when there is one', async () => {
    mockApi({ 'POST /auth/reset-password': reply(422, { detail: 'Please enter a valid email address' }) });
    const { user } = renderApp('/forgot-password');

    await user.type(await screen.findByLabelText('Email'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a valid email address');
  });
});
