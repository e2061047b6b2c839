import type { FastifyRequest } from 'fastify';
import { forbidden } from '../errors';
import { addressKey } from '../lib/clientAddress';

export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1];
}

/** Pre-handler: a valid session token is required; sets request.user and request.sessionId. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  const { user, sessionId } = await request.server.services.auth.authenticateSession(bearer(request));
  request.user = user;
  request.sessionId = sessionId;
}

/**
 * Pre-handler: counts the request against the limit of `what` per client address (an IPv6
 * address by its /64: lib/clientAddress) and, for a
 * signed-in caller, per account (429 with Retry-After beyond it). Runs after requireUser.
 */
export function throttle(what: 'signup' | 'reset' | 'verify' | 'test') {
  return async (request: FastifyRequest): Promise<void> => {
    const { config, services } = request.server;
    const limit = what === 'test' ? config.testRateLimitPerHour : config.authRateLimitPerHour;
    const keys = [`${what}:address:${addressKey(request.ip)}`];
    if (request.user) keys.push(`${what}:user:${request.user.id}`);
    const email = (request.body as { email?: unknown } | undefined)?.email;
    if (what === 'reset' && typeof email === 'string') keys.push(`${what}:email:${email.trim().toLowerCase()}`);
    await services.rateLimits.take(keys, limit);
  };
}

/** Pre-handler: the signed-in user must be an admin (ADMIN_EMAIL). */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  await requireUser(request);
  if (!request.server.services.auth.isAdmin(request.user)) throw forbidden('auth.adminOnly');
}
