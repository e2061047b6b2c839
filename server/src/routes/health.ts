import type { FastifyInstance } from 'fastify';

export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/health',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['status', 'database', 'queue'],
            properties: { status: { type: 'string' }, database: { type: 'string' }, queue: { type: 'string' } },
          },
        },
      },
    },
    async () => app.services.health(),
  );
}
