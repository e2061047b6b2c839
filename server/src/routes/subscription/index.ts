import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireUser } from '../guards';
import { errorResponses } from '../../contracts/common';
import { planChangeBody, subscriptionSchema } from '../../contracts/subscription';

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
        body: planChangeBody,
        response: { 200: subscriptionSchema, ...errorResponses },
      },
    },
    async (request) => subscription.change(request.user, request.body),
  );
}
