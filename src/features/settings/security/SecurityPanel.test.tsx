import { screen, waitFor } from '@testing-library/react';
import { reply, testUser, type MockHandler } from '../../../testing';
import { renderSettings as renderAnySettings } from '../testing';

/** The Security tab with this device's session listed (SessionsCard.test.tsx covers the list). */
const renderSettings = (
  tab: string,
  handlers: Record<string, MockHandler> = {},
  options?: Parameters<typeof renderAnySettings>[2],
) => renderAnySettings(tab, { 'GET /auth/sessions': reply(200, { sessions: [] }), ...handlers }, options);

async function fill(
  user: ReturnType<typeof renderSettings>['user'],
  values: [string, string, string],
  labels = ['Current password', 'New password', 'Confirm the new password'],
) {
  const fields = await Promise.all(labels.map((label) => screen.findByLabelText(new RegExp(`^${label}`))));
  for (const [index, value] of values.entries()) if (value) await user.type(fields[index]!, value);
  return fields;
}

describe('Security panel', () => {
  it('changes the password through PUT /auth/password and empties the form', async () => {
    const { user, server, store } = renderSettings('security', {
      'PUT /auth/password': reply(200, {
        access_token: 'new-token',
        token_type: 'bearer',
        user: testUser,
        detail: 'Password updated successfully',
      }),
    });

    const fields = await fill(user, ['old-secret', 'new-secret', 'new-secret']);
    expect(fields[0]).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show New password' }));
    expect(fields[1]).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText('Password updated successfully')).toBeInTheDocument();
    expect(server.calls('PUT /auth/password')[0]!.body).toEqual({ current_password: 'old-secret', new_password: 'new-secret' });
    expect(store.getState().auth.token).toBe('new-token');
    for (const field of fields) expect(field).toHaveValue('');
    // The session list is fetched again with the new token: the old one answers 401 by now, and a
    // 401 would sign this browser out.
    await waitFor(() => expect(server.calls('GET /auth/sessions').length).toBeGreaterThan(1));
    for (const call of server.calls('GET /auth/sessions').slice(1)) {
      expect(call.headers.get('authorization')).toBe('Bearer new-token');
    }
    expect(store.getState().auth.token).toBe('new-token');
  });

  it('refuses a mismatch and a short password with the spec’s messages, and sends nothing', async () => {
    const { user, server } = renderSettings('security');

    await fill(user, ['old-secret', 'abc', 'abd']);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(server.calls('PUT /auth/password')).toHaveLength(0);
  });

  it('asks for every field once, at the top, and marks the three', async () => {
    const { user, server } = renderSettings('security', {}, { language: 'pt' });
    await screen.findByLabelText(/^Senha atual/);
    await user.click(screen.getByRole('button', { name: 'Alterar senha' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Por favor, preencha todos os campos');
    expect(screen.getAllByText('Por favor, preencha todos os campos')).toHaveLength(1);
    for (const label of [/^Senha atual/, /^Nova senha/, /^Confirme a nova senha/]) {
      expect(screen.getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
    }
    expect(server.calls('PUT /auth/password')).toHaveLength(0);
  });

  it('shows the server’s refusal (a wrong current password)', async () => {
    const { user } = renderSettings('security', {
      'PUT /auth/password': reply(422, { detail: 'The current password is incorrect' }),
    });
    await fill(user, ['wrong-one', 'new-secret', 'new-secret']);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The current password is incorrect');
  });
});
