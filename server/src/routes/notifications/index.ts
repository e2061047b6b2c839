import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireUser, throttle } from '../guards';
import { errorResponses } from '../schemas';

const settingsSchema = {
  type: 'object',
  required: ['run_failed', 'authorization', 'quota', 'review', 'webhook_url', 'has_webhook_secret', 'webhook_secret_masked'],
  properties: {
    run_failed: { type: 'boolean' },
    authorization: { type: 'boolean' },
    quota: { type: 'boolean' },
    review: { type: 'boolean' },
    webhook_url: { type: ['string', 'null'] },
    has_webhook_secret: { type: 'boolean' },
    webhook_secret_masked: { type: 'string' },
  },
} as const;

/** What the signed-in user is told and where: email causes and an optional webhook (docs/engine.md, "Alerts"). */
export default async function notificationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { alerts } = app.services;
  app.addHook('preHandler', requireUser);

  app.get('/', { schema: { response: { 200: settingsSchema, ...errorResponses } } }, async (request) =>
    alerts.get(request.user.id),
  );

  app.put(
    '/',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            run_failed: { type: 'boolean' },
            authorization: { type: 'boolean' },
            quota: { type: 'boolean' },
            review: { type: 'boolean' },
            webhook_url: { type: ['string', 'null'], maxLength: 4000 },
            webhook_secret: { type: ['string', 'null'], maxLength: 1000 },
          },
        },
        response: { 200: settingsSchema, ...errorResponses },
      },
    },
    async (request) => alerts.update(request.user.id, request.body),
  );

  app.post(
    '/test',
    {
      preHandler: throttle('test'),
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['delivered', 'detail'],
            properties: { delivered: { type: 'boolean' }, detail: { type: 'string' } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => alerts.testWebhook(request.user.id, request.language),
  );
}
