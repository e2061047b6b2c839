import type { MessageKey, MessageParams } from './messages';

/**
 * An error a caller should see: an HTTP status and a message from the catalogue, answered as
 * `{ "detail": "..." }` in the caller's language (Accept-Language pt or en).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: MessageKey,
    readonly params: MessageParams = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(key);
    this.name = 'AppError';
  }
}

export const badRequest = (key: MessageKey, params?: MessageParams) => new AppError(400, key, params);
export const unauthorized = (key: MessageKey = 'auth.notAuthenticated') => new AppError(401, key);
export const forbidden = (key: MessageKey = 'auth.adminOnly') => new AppError(403, key);
export const notFound = (key: MessageKey = 'common.notFound') => new AppError(404, key);
export const conflict = (key: MessageKey, params?: MessageParams) => new AppError(409, key, params);
export const unprocessable = (key: MessageKey, params?: MessageParams) => new AppError(422, key, params);
