import { causes } from '../lib/errorCause';

/** True when a database error (or one it wraps) is a unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  for (const cause of causes(error, Infinity)) {
    // The walk of the chain stops at the first cause that is not an object.
    if (typeof cause !== 'object') return false;
    if ((cause as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * SQLSTATE classes and codes, and Node socket errors, that mean the database server cannot be
 * reached right now (stopped, restarting, failing over), not that the statement was wrong.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery mode)/i;

/** True when a database error (or one it wraps) says the server is unreachable: worth waiting for, not failing on. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const cause of causes(error, Infinity)) {
    // The walk of the chain stops at the first cause that is not an object.
    if (typeof cause !== 'object') return false;
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    // AggregateError (a connection refused on every address of a host name)
    const errors = (cause as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}
