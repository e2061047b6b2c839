import { screen, within } from '@testing-library/react';
import type { User } from '../../api';
import { adminUser, deferred, mockApi, renderApp, reply, signedInState, testUser, type MockHandler } from '../../testing';

// Full screens on a busy 2-core machine: generous time per test.
jest.setTimeout(90_000);

const unverified: User = { ...testUser, email_verified: false };
const RESEND = 'POST /auth/verify-email/resend';

/** A signed-in page that asks the server for nothing else (the not-found page). */
function renderSignedIn(user: User, handlers: Record<string, MockHandler> = {}, language: 'en' | 'pt' = 'en') {
  const server = mockApi({ 'GET /auth/me': reply(200, user), ...handlers });
  const rendered = renderApp('/nowhere', { preloadedState: { ...signedInState, preferences: { language } } });
  return { server, ...rendered };
}

describe('the banner of an unconfirmed address', () => {
  it('says where the link went, above the page', async () => {
    renderSignedIn(unverified);

    const banner = await screen.findByRole('region', { name: 'Email confirmation' });
    expect(banner).toHaveTextContent('Confirm your email address: we sent a confirmation link to ana@example.com.');
    expect(banner).not.toHaveTextContent(/administrator/);
    expect(within(banner).getByRole('button', { name: 'Send it again' })).toBeEnabled();
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });

  it('is not there once the address is confirmed', async () => {
    renderSignedIn(testUser);

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Email confirmation' })).not.toBeInTheDocument();
  });

  it('sends the link again: disabled while sending, then the server’s answer', async () => {
    const answer = deferred();
    const { user, server } = renderSignedIn(unverified, { [RESEND]: answer.handler });
    const banner = await screen.findByRole('region', { name: 'Email confirmation' });

    await user.click(within(banner).getByRole('button', { name: 'Send it again' }));
    expect(await within(banner).findByRole('button', { name: 'Sending…' })).toBeDisabled();
    answer.resolve(reply(202, { detail: 'We sent a confirmation link to ana@example.com.' }));

    expect(await within(banner).findByRole('status')).toHaveTextContent('We sent a confirmation link to ana@example.com.');
    expect(within(banner).getByRole('button', { name: 'Send it again' })).toBeEnabled();
    expect(server.calls(RESEND)).toHaveLength(1);
  });

  it('shows the server’s refusal when asked too often, else a generic failure', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderSignedIn(unverified, {
      [RESEND]: reply(429, { detail: 'Too many requests. Try again in 1 minutes.' }),
    });
    const banner = await screen.findByRole('region', { name: 'Email confirmation' });

    await user.click(within(banner).getByRole('button', { name: 'Send it again' }));
    expect(await within(banner).findByRole('alert')).toHaveTextContent('Too many requests. Try again in 1 minutes.');

    server.on({ [RESEND]: reply(500, 'oops', { contentType: 'text/plain' }) });
    await user.click(within(banner).getByRole('button', { name: 'Send it again' }));
    expect(await within(banner).findByText('The link could not be sent. Please try again.')).toBeInTheDocument();
    log.mockRestore();
  });

  it('tells an administrator address that the rights come with the confirmation, in Portuguese too', async () => {
    const pending: User = {
      ...adminUser,
      is_admin: false,
      email: 'root@example.com',
      email_verified: false,
      is_admin_pending: true,
    };
    renderSignedIn(pending, {}, 'pt');

    const banner = await screen.findByRole('region', { name: 'Confirmação de e-mail' });
    expect(banner).toHaveTextContent('enviamos um link de confirmação para root@example.com');
    expect(banner).toHaveTextContent(
      'Este é um endereço de administrador: os direitos de administrador chegam quando ele for confirmado.',
    );
    expect(within(banner).getByRole('button', { name: 'Enviar novamente' })).toBeInTheDocument();
  });
});
