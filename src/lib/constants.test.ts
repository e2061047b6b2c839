import {
  ANNUAL_PRICE_USD,
  DEFAULT_PAGE,
  DEFAULT_PLAN,
  MONTHLY_PRICE_USD,
  PASSWORD_MIN_LENGTH,
  PLAN_IDS,
  PLANS,
  annualPlanPrice,
  planById,
  planPrice,
} from './constants';

describe('constants (spec §9)', () => {
  it('prices the annual sign-up plan at 12 months less 20 percent, rounded', () => {
    expect(MONTHLY_PRICE_USD).toBe(29);
    expect(ANNUAL_PRICE_USD).toBe(278);
  });

  it('has the limits the forms check', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(6);
    expect(DEFAULT_PAGE).toEqual({ skip: 0, limit: 100 });
  });

  it('has the plan catalogue with professional as the popular plan', () => {
    expect(PLANS.map((plan) => [plan.id, plan.price, plan.channels])).toEqual([
      ['starter', 49.9, 1],
      ['basic', 74.9, 2],
      ['professional', 89.9, 5],
      ['business', 119.9, 10],
      ['enterprise', 160.9, 20],
    ]);
    expect(PLANS.filter((plan) => plan.popular).map((plan) => plan.id)).toEqual(['professional']);
    // One card per plan of the server's catalogue (PLAN_IDS, generated from the API's document), in its order.
    expect(PLANS.map((plan) => plan.id)).toEqual([...PLAN_IDS]);
    expect(DEFAULT_PLAN).toBe('starter');
  });

  it('prices annual plans at twelve months less 20 percent, to the cent', () => {
    expect(PLANS.map(annualPlanPrice)).toEqual([479.04, 719.04, 863.04, 1151.04, 1544.64]);
    expect(planPrice(planById('basic'), 'monthly')).toBe(74.9);
    expect(planPrice(planById('basic'), 'annual')).toBe(719.04);
    expect(planById('no-such-plan').id).toBe('starter');
  });
});
