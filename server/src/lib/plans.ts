/** The plan catalogue of spec section 9 (prices in BRL per month). */
export const PLANS = {
  starter: { name: 'Starter', channels: 1, price: 49.9 },
  basic: { name: 'Basic', channels: 2, price: 74.9 },
  professional: { name: 'Professional', channels: 5, price: 89.9 },
  business: { name: 'Business', channels: 10, price: 119.9 },
  enterprise: { name: 'Enterprise', channels: 20, price: 160.9 },
} as const;

export type PlanId = keyof typeof PLANS;
/** The plans' ids, in the catalogue's order (the API's enum of a plan). */
export const PLAN_IDS = Object.keys(PLANS) as PlanId[];
export const DEFAULT_PLAN: PlanId = 'starter';
export const BILLING_PERIODS = ['monthly', 'annual'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export function isBillingPeriod(value: string): value is BillingPeriod {
  return (BILLING_PERIODS as readonly string[]).includes(value);
}

/** True for a key of the catalogue itself (never an inherited property such as "constructor"). */
export function isPlanId(plan: string): plan is PlanId {
  return Object.hasOwn(PLANS, plan);
}

export function planName(plan: string): string {
  return isPlanId(plan) ? PLANS[plan].name : PLANS[DEFAULT_PLAN].name;
}
