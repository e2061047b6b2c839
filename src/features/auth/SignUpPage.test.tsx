import { screen, within } from '@testing-library/react';
import { authResult, mockApi, renderApp, reply, testLocation } from '../../testing';

function fields() {
  return {
    name: screen.getByLabelText('Full name'),
    email: screen.getByLabelText('Email'),
    password: screen.getByLabelText('Password'),
    submit: screen.getByRole('button', { name: 'Create account' }),
  };
}

describe('SignUpPage', () => {
  it('offers monthly ($29/month) and annual ($278/year) billing, monthly chosen', async () => {
    renderApp('/signup');

    const plans = await screen.findByRole('radiogroup', { name: 'Billing' });
    const monthly = within(plans).getByRole('radio', { name: /Monthly/ });
    const annual = within(plans).getByRole('radio', { name: /Annual/ });
    expect(monthly).toBeChecked();
    expect(annual).not.toBeChecked();
    expect(within(plans).getByText('$29/month')).toBeInTheDocument();
    expect(within(plans).getByText('$278/year')).toBeInTheDocument();
    expect(within(plans).getByText('Save 20%')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });

  it('asks to fill in all fields', async () => {
    const server = mockApi();
    const { user } = renderApp('/signup');

    await user.type(await screen.findByLabelText('Full name'), 'Ana Souza');
    await user.click(fields().submit);

    expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields');
    expect(server.requests).toHaveLength(0);
  });

  it('needs a password of at least 6 characters, in the active language', async () => {
    const { user } = renderApp('/signup', { preloadedState: { preferences: { language: 'pt' } } });

    await user.type(await screen.findByLabelText('Nome completo'), 'Ana Souza');
    await user.type(screen.getByLabelText('E-mail'), 'ana@example.com');
    await user.type(screen.getByLabelText('Senha'), '12345');
    await user.click(screen.getByRole('button', { name: 'Criar conta' }));

    expect(await screen.findByText('A senha deve ter pelo menos 6 caracteres')).toBeInTheDocument();
    expect(screen.getByLabelText('Senha')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('US$ 29/mês')).toBeInTheDocument();
  });

  it('creates the account with the chosen plan and time zone, then opens the dashboard', async () => {
    const server = mockApi({ 'POST /auth/register': reply(201, authResult()) });
    const { user, store } = renderApp('/signup');

    await user.type(await screen.findByLabelText('Full name'), 'Ana Souza');
    await user.type(fields().email, 'ana@example.com');
    await user.type(fields().password, 'secret1');
    await user.click(screen.getByRole('radio', { name: /Annual/ }));
    await user.click(fields().submit);

    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(testLocation().pathname).toBe('/dashboard');
    expect(store.getState().auth.token).toBe('token-123');
    expect(server.calls('POST /auth/register')[0].body).toEqual({
      name: 'Ana Souza',
      email: 'ana@example.com',
      password: 'secret1',
      plan: 'annual',
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });

  it('shows the server’s detail when the account cannot be created', async () => {
    mockApi({ 'POST /auth/register': reply(409, { detail: 'An account with this email already exists' }) });
    const { user } = renderApp('/signup');

    await user.type(await screen.findByLabelText('Full name'), 'Ana Souza');
    await user.type(fields().email, 'ana@example.com');
    await user.type(fields().password, 'secret1');
    await user.click(fields().submit);

    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists');
    expect(testLocation().pathname).toBe('/signup');
  });

  it('says the account could not be created when the server gives no detail', async () => {
    mockApi({ 'POST /auth/register': reply(502, 'Bad gateway', { contentType: 'text/plain' }) });
    const { user } = renderApp('/signup');

    await user.type(await screen.findByLabelText('Full name'), 'Ana Souza');
    await user.type(fields().email, 'ana@example.com');
    await user.type(fields().password, 'secret1');
    await user.click(fields().submit);

    expect(await screen.findByRole('alert')).toHaveTextContent('Your account could not be created. Please try again.');
  });
});
