import { screen, within } from '@testing-library/react';
import type { User } from '../../../api';
import { reply, testUser } from '../../../testing';
import { renderSettings } from '../testing';

// Full screens on a busy 2-core machine: generous time per test.
jest.setTimeout(90_000);

describe('Profile panel', () => {
  it('shows the name, email and time zone, and saves them through PUT /auth/profile', async () => {
    const { user, server } = renderSettings('profile', {
      'PUT /auth/profile': (request) => reply(200, { ...testUser, ...(request.body as object) }),
    });

    const name = await screen.findByLabelText(/^Full name/);
    expect(name).toHaveValue(testUser.name);
    expect(screen.getByLabelText(/^Email/)).toHaveValue(testUser.email);
    const zone = screen.getByRole('combobox', { name: /^Time zone/ });
    expect((zone as HTMLInputElement).value).toMatch(/^America\/Sao Paulo/);

    await user.clear(name);
    await user.type(name, 'Ana Souza');
    await user.click(zone);
    await user.clear(zone);
    await user.type(zone, 'Lisbon');
    await user.click(await screen.findByRole('option', { name: /^Europe\/Lisbon/ }));
    await user.click(screen.getByRole('button', { name: 'Save profile' }));

    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    expect(server.calls('PUT /auth/profile')[0]!.body).toEqual({
      name: 'Ana Souza',
      email: testUser.email,
      time_zone: 'Europe/Lisbon',
    });
  });

  it('requires name and email, and sends nothing until they are there', async () => {
    const { user, server } = renderSettings('profile');

    const name = await screen.findByLabelText(/^Full name/);
    await user.clear(name);
    const email = screen.getByLabelText(/^Email/);
    await user.clear(email);
    await user.type(email, 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(screen.getAllByText('Please fill in all fields')).toHaveLength(1);
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(server.calls('PUT /auth/profile')).toHaveLength(0);
  });

  it('shows the server’s message when the save fails (a taken email), in Portuguese too', async () => {
    const { user } = renderSettings(
      'profile',
      { 'PUT /auth/profile': reply(409, { detail: 'Já existe uma conta com este e-mail' }) },
      { language: 'pt' },
    );

    const email = await screen.findByLabelText(/^E-mail/);
    await user.clear(email);
    await user.type(email, 'taken@example.com');
    await user.type(await screen.findByLabelText(/^Senha atual/), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Salvar perfil' }));

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Já existe uma conta com este e-mail');
  });

  it('falls back to the generic failure message without one from the server', async () => {
    const { user } = renderSettings('profile', { 'PUT /auth/profile': reply(500, 'oops', { contentType: 'text/plain' }) });

    await screen.findByLabelText(/^Full name/);
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update profile');
  });

  it('clears the banner before each submit', async () => {
    let fail = true;
    const { user } = renderSettings('profile', {
      'PUT /auth/profile': () => (fail ? reply(422, { detail: 'Unknown time zone: Mars/Base' }) : reply(200, testUser)),
    });
    await screen.findByLabelText(/^Full name/);
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unknown time zone: Mars/Base');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    const banner = await screen.findByRole('status');
    expect(within(banner).getByText('Profile updated successfully')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  describe('changing the email', () => {
    it('asks for the current password only while the email differs, and sends it', async () => {
      let me: User = testUser;
      const { user, server } = renderSettings('profile', {
        'GET /auth/me': () => reply(200, me),
        'PUT /auth/profile': (request) => {
          const { current_password: _password, ...body } = request.body as Record<string, string>;
          me = { ...testUser, ...body, email_verified: false };
          return reply(200, me);
        },
      });

      const email = await screen.findByLabelText(/^Email/);
      expect(screen.queryByLabelText(/^Current password/)).not.toBeInTheDocument();
      await user.clear(email);
      await user.type(email, 'ANA@example.com ');
      // The same address in other letters is no change (the server compares it so).
      expect(screen.queryByLabelText(/^Current password/)).not.toBeInTheDocument();

      await user.clear(email);
      await user.type(email, 'ana.new@example.com');
      const password = await screen.findByLabelText(/^Current password/);
      expect(password).toHaveAttribute('type', 'password');
      expect(password).toBeRequired();
      expect(screen.getByText(/We will send a confirmation link to the new address/)).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Save profile' }));
      expect(await screen.findByText('Enter your current password to change your email address')).toBeInTheDocument();
      expect(server.calls('PUT /auth/profile')).toHaveLength(0);

      await user.type(password, 'secret1');
      await user.click(screen.getByRole('button', { name: 'Save profile' }));

      expect(
        await screen.findByText('Profile updated. Confirm your new address with the link we sent to ana.new@example.com.'),
      ).toBeInTheDocument();
      expect(server.calls('PUT /auth/profile')[0]!.body).toEqual({
        name: testUser.name,
        email: 'ana.new@example.com',
        time_zone: testUser.time_zone,
        current_password: 'secret1',
      });
      // Saved: the field goes away, and the refetched profile brings the confirmation banner.
      expect(screen.queryByLabelText(/^Current password/)).not.toBeInTheDocument();
      const banner = await screen.findByRole('region', { name: 'Email confirmation' });
      expect(banner).toHaveTextContent('we sent a confirmation link to ana.new@example.com');
    });

    it('shows the server’s answer to a wrong password', async () => {
      const { user } = renderSettings('profile', {
        'PUT /auth/profile': reply(422, { detail: 'The current password is incorrect' }),
      });

      const email = await screen.findByLabelText(/^Email/);
      await user.clear(email);
      await user.type(email, 'ana.new@example.com');
      await user.type(await screen.findByLabelText(/^Current password/), 'wrong');
      await user.click(screen.getByRole('button', { name: 'Save profile' }));

      expect(await screen.findByRole('alert')).toHaveTextContent('The current password is incorrect');
      expect(screen.getByLabelText(/^Email/)).toHaveValue('ana.new@example.com');
    });

    it('forgets the password field when the email goes back to the current one', async () => {
      const { user, server } = renderSettings('profile', { 'PUT /auth/profile': reply(200, testUser) });

      const email = await screen.findByLabelText(/^Email/);
      await user.clear(email);
      await user.type(email, 'other@example.com');
      await user.type(await screen.findByLabelText(/^Current password/), 'secret1');
      await user.clear(email);
      await user.type(email, testUser.email);
      expect(screen.queryByLabelText(/^Current password/)).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Save profile' }));

      expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
      expect(server.calls('PUT /auth/profile')[0]!.body).not.toHaveProperty('current_password');
    });
  });
});
