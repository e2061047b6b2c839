import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import type { MessageKey } from '../messages';

/** Files for players (rendered videos, music): their signed links' query and Range answers. */

/** `?expires=…&signature=…` of a signed link (lib/signedLinks.ts). */
export const signedLinkQuery = {
  type: 'object',
  required: ['expires', 'signature'],
  properties: { expires: { type: 'integer', minimum: 0, maximum: 1e14 }, signature: { type: 'string', maxLength: 100 } },
} as const;

/** `bytes=start-end`, `bytes=start-` or `bytes=-suffix` of a file of `size` bytes; undefined when unsatisfiable. */
export function parseRange(header: string, size: number): { start: number; end: number } | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : undefined;
}

/**
 * Answers a file of `size` bytes for a player: all of it, or the part a Range header asks for
 * (206, so the player can seek; 416 with the size when the range is unsatisfiable, as `notFound`).
 * `open` streams the whole file or the inclusive byte range. The content type and caching are
 * the caller's.
 */
export function sendRanged(
  request: FastifyRequest,
  reply: FastifyReply,
  size: number,
  open: (range?: { start: number; end: number }) => Readable,
  notFound: MessageKey,
) {
  reply.header('accept-ranges', 'bytes');
  const rangeHeader = request.headers.range;
  if (rangeHeader) {
    const range = parseRange(rangeHeader, size);
    if (!range) throw new AppError(416, notFound, {}, { 'content-range': `bytes */${size}` });
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1)
      .send(open(range));
  }
  return reply.header('content-length', size).send(open());
}
