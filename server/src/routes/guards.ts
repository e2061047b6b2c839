import type { FastifyRequest } from 'fastify';
import { forbidden } from '../errors';

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1];
}

/** Pre-handler: a valid session token is required; sets request.user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  request.user = await request.server.services.auth.authenticate(bearer(request));
}

/** Pre-handler: the signed-in user must be an admin (ADMIN_EMAIL). */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  await requireUser(request);
  if (!request.server.services.auth.isAdmin(request.user)) throw forbidden('auth.adminOnly');
}
