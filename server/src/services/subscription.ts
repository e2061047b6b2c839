import { and, count, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { apiCalls, channels, executions, users } from '../db/schema';
import { unprocessable } from '../errors';
import { PLANS, isBillingPeriod, isPlanId, type BillingPeriod } from '../lib/plans';
import type { PlanChangeInput, SubscriptionDto } from '../contracts/subscription';
import { localParts, zonedTimeToUtc } from '../lib/timeZones';

type UserRow = typeof users.$inferSelect;

/** The anchor plus `months` calendar months, the day kept where the month has it, else its last day. */
export function addMonths(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
    ),
  );
}

/**
 * The billing period around `now`: periods of one month (or twelve, annual) counted from the
 * account's creation, so the next billing date is the first such boundary after now.
 */
export function billingPeriodAt(anchor: Date, billing: BillingPeriod, now: Date): { start: Date; next: Date } {
  const step = billing === 'annual' ? 12 : 1;
  let periods = 0;
  while (addMonths(anchor, (periods + 1) * step).getTime() <= now.getTime()) periods += 1;
  return { start: addMonths(anchor, periods * step), next: addMonths(anchor, (periods + 1) * step) };
}

/**
 * The subscription (docs/decisions.md, "Subscription"): the plan and billing period, the next
 * billing date and real usage. There is no payment provider: a plan change is recorded and
 * charges nothing.
 */
export function createSubscriptionService({ db, now }: { db: Db; now: () => Date }) {
  async function get(user: UserRow): Promise<SubscriptionDto> {
    const at = now();
    const local = localParts(at, user.timeZone);
    const monthStart = zonedTimeToUtc({ year: local.year, month: local.month, day: 1, hour: 0, minute: 0 }, user.timeZone);
    const [channelCount] = await db
      .select({ n: count() })
      .from(channels)
      .where(and(eq(channels.userId, user.id), eq(channels.isActive, true)));
    const [videoCount] = await db
      .select({ n: count() })
      .from(executions)
      .where(and(eq(executions.userId, user.id), gte(executions.createdAt, monthStart), sql`${executions.checkpoint} ? 'video'`));
    const [callCount] = await db
      .select({ n: count() })
      .from(apiCalls)
      .where(and(eq(apiCalls.userId, user.id), gte(apiCalls.createdAt, monthStart)));
    const plan = isPlanId(user.plan) ? PLANS[user.plan] : PLANS.starter;
    const billing: BillingPeriod = isBillingPeriod(user.billingPeriod) ? user.billingPeriod : 'monthly';
    const period = billingPeriodAt(user.createdAt, billing, at);
    return {
      plan: isPlanId(user.plan) ? user.plan : 'starter',
      plan_name: plan.name,
      billing_period: billing,
      channels_limit: plan.channels,
      period_start: period.start.toISOString(),
      next_billing_date: period.next.toISOString(),
      usage: {
        channels: channelCount?.n ?? 0,
        videos_this_month: videoCount?.n ?? 0,
        api_calls_this_month: callCount?.n ?? 0,
        month_start: monthStart.toISOString(),
      },
    };
  }

  /** Records a plan change (no charge: there is no payment provider). */
  async function change(user: UserRow, input: PlanChangeInput): Promise<SubscriptionDto> {
    if (!isPlanId(input.plan)) throw unprocessable('subscription.invalidPlan');
    const billing = input.billing_period ?? user.billingPeriod;
    if (!isBillingPeriod(billing)) throw unprocessable('subscription.invalidBilling');
    const [updated] = await db
      .update(users)
      .set({ plan: input.plan, billingPeriod: billing, updatedAt: now() })
      .where(eq(users.id, user.id))
      .returning();
    return get(updated!);
  }

  return { get, change };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
