import type { FastifyInstance } from 'fastify';

export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/health',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['status', 'database', 'queue', 'media'],
            properties: {
              status: { type: 'string' },
              database: { type: 'string' },
              queue: { type: 'string' },
              media: {
                type: 'object',
                required: ['ffmpeg', 'ffprobe', 'local_voice'],
                properties: Object.fromEntries(
                  ['ffmpeg', 'ffprobe', 'local_voice'].map((name) => [
                    name,
                    {
                      type: 'object',
                      required: ['status'],
                      properties: { status: { type: 'string' }, source: { type: 'string' }, version: { type: 'string' } },
                    },
                  ]),
                ),
              },
            },
          },
        },
      },
    },
    async () => app.services.health(),
  );
}
