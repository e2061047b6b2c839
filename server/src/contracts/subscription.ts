import { BILLING_PERIODS, PLAN_IDS } from '../lib/plans';
import { dateTime, type Shape } from './common';

/** The signed-in user's subscription: plan, billing period, next billing date and usage. */
export const subscriptionSchema = {
  type: 'object',
  required: ['plan', 'plan_name', 'billing_period', 'channels_limit', 'period_start', 'next_billing_date', 'usage'],
  properties: {
    plan: { type: 'string', enum: PLAN_IDS },
    plan_name: { type: 'string' },
    billing_period: { type: 'string', enum: BILLING_PERIODS },
    channels_limit: { type: 'integer' },
    /** When the current billing period started and when the next one starts (the next charge). */
    period_start: dateTime,
    next_billing_date: dateTime,
    usage: {
      type: 'object',
      required: ['channels', 'videos_this_month', 'api_calls_this_month', 'month_start'],
      properties: {
        /** Enabled channels, against channels_limit. */
        channels: { type: 'integer' },
        /** Executions started this calendar month (the user's time zone) that rendered a video. */
        videos_this_month: { type: 'integer' },
        /** Calls the engine and the history made to external APIs this month. */
        api_calls_this_month: { type: 'integer' },
        month_start: dateTime,
      },
    },
  },
} as const;
export type SubscriptionDto = Shape<typeof subscriptionSchema>;

/** PUT /subscription: a plan id and a billing period, checked by the service (a 422 names what is wrong). */
export const planChangeBody = {
  type: 'object',
  required: ['plan'],
  additionalProperties: false,
  properties: { plan: { type: 'string', maxLength: 40 }, billing_period: { type: 'string', maxLength: 20 } },
} as const;
export type PlanChangeInput = Shape<typeof planChangeBody>;
