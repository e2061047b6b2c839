import type { FastifyInstance } from 'fastify';
import authRoutes from './auth';
import channelRoutes from './channels';
import healthRoutes from './health';

/** Every route of the API, mounted under /api/v1. */
export async function registerApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(channelRoutes, { prefix: '/channels' });
}
