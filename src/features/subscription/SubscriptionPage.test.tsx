import { screen, waitFor, within } from '@testing-library/react';
import type { Subscription, User } from '../../api';
import { mockApi, renderApp, reply, signedInState, testUser } from '../../testing';

function subscriptionFixture(overrides: Partial<Subscription> = {}): Subscription {
  return {
    plan: 'starter',
    plan_name: 'Starter',
    billing_period: 'monthly',
    channels_limit: 1,
    period_start: '2026-11-15T12:00:00.000Z',
    next_billing_date: '2026-12-15T12:00:00.000Z',
    usage: { channels: 1, videos_this_month: 7, api_calls_this_month: 1247, month_start: '2026-11-01T03:00:00.000Z' },
    ...overrides,
  };
}

/** Prices use the locale's no-break space after R$. */
const spaced = (text: string | null) => (text ?? '').replace(/\u00a0/g, ' ');
/** The price line, e.g. "R$ 49,90/month" (the period is a nested span). */
const priceOf = (card: HTMLElement) =>
  spaced(
    within(card).getByText(
      (_text, element) => element?.tagName === 'P' && /^R\$.*\/(month|year|mês|ano)$/.test(element.textContent ?? ''),
    ).textContent,
  );

function renderSubscription(
  handlers: Parameters<typeof mockApi>[0] = {},
  { language = 'en', user = testUser }: { language?: 'en' | 'pt'; user?: User } = {},
) {
  const server = mockApi({
    'GET /auth/me': reply(200, user),
    'GET /subscription/': reply(200, subscriptionFixture()),
    ...handlers,
  });
  return { server, ...renderApp('/subscription', { preloadedState: { ...signedInState, preferences: { language } } }) };
}

describe('SubscriptionPage', () => {
  it('shows the current plan, real usage, the next billing date and the five plans in R$', async () => {
    renderSubscription();

    const current = await screen.findByRole('region', { name: 'Current plan' });
    expect(within(current).getByText('Starter')).toBeInTheDocument();
    expect(spaced(current.textContent)).toContain('PriceR$ 49,90/month');
    expect(await within(current).findByText('12/15/2026')).toBeInTheDocument();
    const usage = screen.getByRole('region', { name: 'Usage' });
    expect(within(usage).getByText('1 of 1')).toBeInTheDocument();
    expect(within(usage).getByText('7')).toBeInTheDocument();
    expect(within(usage).getByText('1,247')).toBeInTheDocument();

    const cards = ['Starter', 'Basic', 'Professional', 'Business', 'Enterprise'].map((name) =>
      screen.getByRole('region', { name }),
    );
    expect(cards.map(priceOf)).toEqual([
      'R$ 49,90/month',
      'R$ 74,90/month',
      'R$ 89,90/month',
      'R$ 119,90/month',
      'R$ 160,90/month',
    ]);
    expect(within(cards[2]!).getByText('Most popular')).toBeInTheDocument();
    expect(within(cards[2]!).getByText('5 channels')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('1 channel')).toBeInTheDocument();
    expect(within(cards[4]!).getByText('Unlimited processes')).toBeInTheDocument();
    expect(within(cards[0]!).getByRole('button', { name: 'Your current plan' })).toBeDisabled();
    expect(screen.getByRole('region', { name: 'What’s included in every plan' })).toBeInTheDocument();
  });

  it('switches the cards to annual prices: twelve months less 20 percent', async () => {
    const { user } = renderSubscription();
    await screen.findByRole('region', { name: 'Professional' });
    await user.click(screen.getByRole('button', { name: 'Annual (save 20%)' }));

    const professional = screen.getByRole('region', { name: 'Professional' });
    expect(priceOf(professional)).toBe('R$ 863,04/year');
    expect(within(professional).getByText(/71,92 a month, billed once a year$/)).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Starter' })).getByRole('button', { name: 'Switch to annual billing' }),
    ).toBeEnabled();
  });

  it('confirms a plan change, says nothing is charged, and records it', async () => {
    const changed = subscriptionFixture({
      plan: 'professional',
      plan_name: 'Professional',
      billing_period: 'annual',
      channels_limit: 5,
    });
    const { user, server } = renderSubscription({ 'PUT /subscription/': reply(200, changed) });
    await screen.findByRole('region', { name: 'Professional' });
    await user.click(screen.getByRole('button', { name: 'Annual (save 20%)' }));
    await user.click(screen.getByRole('button', { name: 'Choose this plan: Professional, annual' }));

    const dialog = await screen.findByRole('dialog', { name: 'Change to Professional (annual)?' });
    expect(spaced(within(dialog).getByText(/^New price:/).textContent)).toMatch(
      /^New price: R\$ 863,04 a year\. It includes 5 channels\.$/,
    );
    expect(within(dialog).getByText(/Nothing is charged: StoryFlow has no payment provider yet/)).toBeInTheDocument();
    server.on({ 'GET /subscription/': reply(200, changed) });
    await user.click(within(dialog).getByRole('button', { name: 'Change plan' }));

    expect(await screen.findByText('You are now on the Professional plan (annual). Nothing was charged.')).toBeInTheDocument();
    expect(server.calls('PUT /subscription/')[0]!.body).toEqual({ plan: 'professional', billing_period: 'annual' });
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'Professional' })).getByRole('button', { name: 'Your current plan' }),
      ).toBeDisabled(),
    );
  });

  it('warns when the chosen plan includes fewer channels than are in use', async () => {
    const { user } = renderSubscription(
      {
        'GET /subscription/': reply(
          200,
          subscriptionFixture({
            plan: 'business',
            plan_name: 'Business',
            channels_limit: 10,
            usage: { channels: 3, videos_this_month: 0, api_calls_this_month: 0, month_start: '2026-11-01T00:00:00.000Z' },
          }),
        ),
      },
      { user: { ...testUser, plan: 'business', plan_name: 'Business' } },
    );
    await user.click(await screen.findByRole('button', { name: 'Choose this plan: Starter, monthly' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('You have 3 enabled channels and Starter includes 1. They keep working.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  });

  it('shows the billing details honestly: no payment method, no invoices', async () => {
    const { user } = renderSubscription();
    await screen.findByRole('region', { name: 'Usage' });
    await user.click(screen.getByRole('button', { name: 'Manage billing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Billing' });
    expect(within(dialog).getByText('None: StoryFlow does not charge yet')).toBeInTheDocument();
    expect(within(dialog).getByText('12/15/2026')).toBeInTheDocument();
  });

  it('says when the usage cannot be loaded, with a retry, and still shows the plans', async () => {
    const { server, user } = renderSubscription({ 'GET /subscription/': reply(500, { detail: 'Database unavailable' }) });
    expect(await screen.findByText('Your subscription details could not be loaded. Database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Enterprise' })).toBeInTheDocument();
    server.on({ 'GET /subscription/': reply(200, subscriptionFixture()) });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await within(screen.getByRole('region', { name: 'Usage' })).findByText('1,247')).toBeInTheDocument();
  });

  it('speaks Portuguese, with comma decimals', async () => {
    renderSubscription({}, { language: 'pt' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Assinatura' })).toBeInTheDocument();
    const professional = screen.getByRole('region', { name: 'Professional' });
    expect(priceOf(professional)).toBe('R$ 89,90/mês');
    expect(within(professional).getByText('5 canais')).toBeInTheDocument();
    expect(within(professional).getByText('Mais popular')).toBeInTheDocument();
    expect(await screen.findByText('15/12/2026')).toBeInTheDocument();
  });
});
