import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireUser } from '../guards';
import { dateTime, errorResponses } from '../schemas';

/** The signed-in user's subscription: plan, billing period, next billing date and usage. */
const subscriptionSchema = {
  type: 'object',
  required: ['plan', 'plan_name', 'billing_period', 'channels_limit', 'period_start', 'next_billing_date', 'usage'],
  properties: {
    plan: { type: 'string' },
    plan_name: { type: 'string' },
    billing_period: { type: 'string', enum: ['monthly', 'annual'] },
    channels_limit: { type: 'integer' },
    period_start: dateTime,
    next_billing_date: dateTime,
    usage: {
      type: 'object',
      required: ['channels', 'videos_this_month', 'api_calls_this_month', 'month_start'],
      properties: {
        channels: { type: 'integer' },
        videos_this_month: { type: 'integer' },
        api_calls_this_month: { type: 'integer' },
        month_start: dateTime,
      },
    },
  },
} as const;

export default async function subscriptionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { subscription } = app.services;
  app.addHook('preHandler', requireUser);

  app.get('/', { schema: { response: { 200: subscriptionSchema, ...errorResponses } } }, async (request) =>
    subscription.get(request.user),
  );

  // A plan change is recorded; nothing is charged (there is no payment provider).
  app.put(
    '/',
    {
      schema: {
        body: {
          type: 'object',
          required: ['plan'],
          additionalProperties: false,
          properties: { plan: { type: 'string', maxLength: 40 }, billing_period: { type: 'string', maxLength: 20 } },
        },
        response: { 200: subscriptionSchema, ...errorResponses },
      },
    },
    async (request) => subscription.change(request.user, request.body),
  );
}
