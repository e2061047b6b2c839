import { act, screen, waitFor, within } from '@testing-library/react';
import { authResult, mockApi, prerenderedCard, removePrerenderedCards, renderApp, reply, testLocation } from '../../testing';

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

  describe('taking over the card served already rendered (/signup before the app ran)', () => {
    /** The prerendered sign-up card as public/preferences.js leaves it: `typed` in its fields, `plan` checked. */
    function signUpCard(
      typed: { name: string; email: string; password: string; plan: 'monthly' | 'annual' },
      options: { submitted?: boolean } = {},
    ) {
      return prerenderedCard(
        [
          { name: 'name', type: 'text', value: typed.name },
          { name: 'email', type: 'email', value: typed.email },
          { name: 'password', type: 'password', value: typed.password },
          { name: 'plan', type: 'radio', value: 'monthly', checked: typed.plan === 'monthly' },
          { name: 'plan', type: 'radio', value: 'annual', checked: typed.plan === 'annual' },
        ],
        options,
      ).inputs;
    }

    afterEach(removePrerenderedCards);

    it('keeps every field typed and the plan chosen, and the focus and caret where the visitor was', async () => {
      const card = signUpCard({ name: 'Ana Souza', email: 'ana@example.com', password: 'secr', plan: 'annual' });
      card.password!.focus();
      card.password!.setSelectionRange(2, 2);

      renderApp('/signup');
      await screen.findByRole('heading', { level: 1 });

      expect(fields().name).toHaveValue('Ana Souza');
      expect(fields().email).toHaveValue('ana@example.com');
      expect(fields().password).toHaveValue('secr');
      expect(screen.getByRole('radio', { name: /Annual/ })).toBeChecked();
      expect(screen.getByRole('radio', { name: /Monthly/ })).not.toBeChecked();
      await waitFor(() => expect(fields().password).toHaveFocus());
      expect((fields().password as HTMLInputElement).selectionStart).toBe(2);
    });

    it('draws the field the visitor was in focused from the first render, and as any other once it loses the focus', async () => {
      const card = signUpCard({ name: 'Ana Souza', email: 'ana@', password: '', plan: 'monthly' });
      card.email!.focus();
      const label = (name: string) => screen.getByText(name, { selector: 'label' });

      renderApp('/signup');
      await screen.findByRole('heading', { level: 1 });

      await waitFor(() => expect(fields().email).toHaveFocus());
      expect(label('Email')).toHaveClass('Mui-focused');
      expect(label('Full name')).not.toHaveClass('Mui-focused');

      act(() => (fields().password as HTMLInputElement).focus());

      expect(label('Email')).not.toHaveClass('Mui-focused');
      expect(label('Password')).toHaveClass('Mui-focused');
    });

    it('gives the focus back to the field the visitor moved to while React rendered, drawn focused', async () => {
      const card = signUpCard({ name: 'Ana Souza', email: '', password: '', plan: 'monthly' });
      card.name!.focus();
      // The visitor goes on to the email field while React renders the screen: it is there when
      // the screen is in the page (its heading), and types into it.
      const rendered = () => document.querySelector('h1') !== null;
      Object.defineProperty(card.email, 'value', {
        configurable: true,
        get: () => {
          if (rendered() && document.activeElement === card.name) card.email!.focus();
          return rendered() ? 'ana@' : '';
        },
      });

      renderApp('/signup');
      await screen.findByRole('heading', { level: 1 });

      await waitFor(() => expect(fields().email).toHaveFocus());
      expect(fields().email).toHaveValue('ana@');
      expect(screen.getByText('Email', { selector: 'label' })).toHaveClass('Mui-focused');
      expect(screen.getByText('Full name', { selector: 'label' })).not.toHaveClass('Mui-focused');
    });

    it('takes what was typed while React rendered, read again at the commit', async () => {
      const card = signUpCard({ name: 'An', email: '', password: '', plan: 'monthly' });
      card.name!.focus();
      // The visitor goes on typing, and picks a plan, while React renders the screen: the card's
      // fields hold more once the screen is in the page (its heading) than when React first read them.
      const rendered = () => document.querySelector('h1') !== null;
      Object.defineProperty(card.name, 'value', { get: () => (rendered() ? 'Ana Souza' : 'An') });
      Object.defineProperty(card.password, 'value', { get: () => (rendered() ? 'secret1' : '') });
      Object.defineProperty(card['plan=monthly'], 'checked', { get: () => !rendered() });
      Object.defineProperty(card['plan=annual'], 'checked', { get: () => rendered() });

      renderApp('/signup');
      await screen.findByRole('heading', { level: 1 });

      expect(fields().name).toHaveValue('Ana Souza');
      expect(fields().password).toHaveValue('secret1');
      expect(screen.getByRole('radio', { name: /Annual/ })).toBeChecked();
      await waitFor(() => expect(fields().name).toHaveFocus());
    });

    it('sends a sign-up the visitor asked for before the app ran, with what was typed', async () => {
      const server = mockApi({ 'POST /auth/register': reply(201, authResult()) });
      signUpCard({ name: 'Ana Souza', email: 'ana@example.com', password: 'secret1', plan: 'annual' }, { submitted: true });

      const { store } = renderApp('/signup');

      expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
      expect(server.calls('POST /auth/register')).toHaveLength(1);
      expect(server.calls('POST /auth/register')[0].body).toMatchObject({
        name: 'Ana Souza',
        email: 'ana@example.com',
        password: 'secret1',
        plan: 'annual',
      });
      expect(store.getState().auth.token).toBe('token-123');
    });

    it('checks an early submit like any other: nothing is sent while a field is empty', async () => {
      const server = mockApi();
      signUpCard({ name: 'Ana Souza', email: '', password: 'secret1', plan: 'monthly' }, { submitted: true });

      renderApp('/signup');

      expect(await screen.findByRole('alert')).toHaveTextContent('Please fill in all fields');
      expect(fields().email).toHaveAttribute('aria-invalid', 'true');
      expect(server.requests).toHaveLength(0);
    });

    it('starts empty, monthly chosen and the name focused, when the page was not prerendered', async () => {
      renderApp('/signup');
      await screen.findByRole('heading', { level: 1 });

      expect(fields().name).toHaveValue('');
      expect(fields().name).toHaveFocus();
      expect(screen.getByRole('radio', { name: /Monthly/ })).toBeChecked();
    });
  });
});
