import { screen, waitFor, within } from '@testing-library/react';
import { reply, testUser } from '../../../testing';
import { renderSettings } from '../testing';

describe('Danger zone panel', () => {
  it('says what is lost, asks for the password in a dialog, and a wrong one keeps the account', async () => {
    const { user, server, store } = renderSettings('danger-zone', {
      'DELETE /auth/account': reply(422, { detail: 'The password is incorrect' }),
    });

    expect(await screen.findByText(/your processes, their executions/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: `Delete the account ${testUser.email}?` });
    const confirm = within(dialog).getByRole('button', { name: 'Delete account forever' });

    await user.click(confirm);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(server.calls('DELETE /auth/account')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/^Your password/), 'wrong');
    await user.click(confirm);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The password is incorrect');
    expect(server.calls('DELETE /auth/account')[0]!.body).toEqual({ password: 'wrong' });
    expect(store.getState().auth.token).not.toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('deletes the account with the right password and lands on the login screen saying so', async () => {
    const { user, store } = renderSettings('danger-zone', {
      'DELETE /auth/account': reply(200, { detail: 'Your account and everything in it were deleted' }),
    });

    await user.click(await screen.findByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Your password/), 'secret1');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account forever' }));

    expect(await screen.findByText('Your account and everything in it were deleted.')).toBeInTheDocument();
    expect(store.getState().auth.token).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });
});
