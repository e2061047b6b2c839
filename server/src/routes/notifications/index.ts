import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireUser, throttle } from '../guards';
import { errorResponses } from '../../contracts/common';
import { settingsBody, settingsSchema } from '../../contracts/notifications';

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
        body: settingsBody,
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
