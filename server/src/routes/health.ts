import type { FastifyInstance, FastifyRequest } from 'fastify';
import { translate } from '../messages';
import { bearer } from './guards';

const toolSchema = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string' }, source: { type: 'string' }, version: { type: 'string' } },
} as const;

const healthSchema = {
  type: 'object',
  required: ['status', 'database', 'queue'],
  properties: {
    status: { type: 'string' },
    database: { type: 'string' },
    queue: { type: 'string' },
    /** Only for a signed-in admin: which tools this server found, and their versions. */
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
 * the queue stopped or a media tool missing). No session needed: a load balancer calls them and
 * gets `{status, database, queue}`. Which media tools were found, and their versions, are only
 * for a signed-in admin (a bearer token); any other caller, a bad token included, gets the short
 * answer (issue 28: versions tell an attacker which flaws to try).
 */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  /** True for a valid session of an admin; false for everybody else (never an error). */
  async function callerIsAdmin(request: FastifyRequest): Promise<boolean> {
    const token = bearer(request);
    if (!token) return false;
    try {
      const { user } = await app.services.auth.authenticateSession(token);
      return app.services.auth.isAdmin(user);
    } catch {
      return false;
    }
  }

  async function healthFor(request: FastifyRequest) {
    const [{ ready, media, ...health }, admin] = await Promise.all([app.services.health(), callerIsAdmin(request)]);
    return { ready, health: admin ? { ...health, media } : health };
  }

  app.get('/health', { schema: { response: { 200: healthSchema } } }, async (request) => (await healthFor(request)).health);

  app.get(
    '/health/live',
    { schema: { response: { 200: { type: 'object', properties: { status: { type: 'string' } } } } } },
    async () => ({
      status: 'ok',
    }),
  );

  app.get('/health/ready', { schema: { response: { 200: healthSchema, 503: healthSchema } } }, async (request, reply) => {
    const { ready, health } = await healthFor(request);
    if (ready) return health;
    return reply.code(503).send({ ...health, detail: translate(request.language, 'common.notReady') });
  });
}
