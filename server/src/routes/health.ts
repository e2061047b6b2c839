import type { FastifyInstance } from 'fastify';
import { translate } from '../messages';

const toolSchema = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string' }, source: { type: 'string' }, version: { type: 'string' } },
} as const;

const healthSchema = {
  type: 'object',
  required: ['status', 'database', 'queue', 'media'],
  properties: {
    status: { type: 'string' },
    database: { type: 'string' },
    queue: { type: 'string' },
    media: {
      type: 'object',
      required: ['ffmpeg', 'ffprobe', 'local_voice'],
      properties: { ffmpeg: toolSchema, ffprobe: toolSchema, local_voice: toolSchema },
    },
    detail: { type: 'string' },
  },
} as const;

/**
 * Health for people and for orchestrators: /health (what this server found, always 200),
 * /health/live (the process answers) and /health/ready (503 while the database is unreachable,
 * the queue stopped or a media tool missing). No session: a load balancer calls them.
 */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/health', { schema: { response: { 200: healthSchema } } }, async () => {
    const { ready: _ready, ...health } = await app.services.health();
    return health;
  });

  app.get(
    '/health/live',
    { schema: { response: { 200: { type: 'object', properties: { status: { type: 'string' } } } } } },
    async () => ({
      status: 'ok',
    }),
  );

  app.get('/health/ready', { schema: { response: { 200: healthSchema, 503: healthSchema } } }, async (request, reply) => {
    const { ready, ...health } = await app.services.health();
    if (ready) return health;
    return reply.code(503).send({ ...health, detail: translate(request.language, 'common.notReady') });
  });
}
