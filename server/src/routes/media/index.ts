import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { typed } from '../typeProvider';
import { AppError } from '../../errors';
import type { MessageKey } from '../../messages';
import { MEDIA_FILES } from '../../services/executions';
import { detailSchema, errorResponses } from '../schemas';

const TYPES: Record<string, string> = { [MEDIA_FILES.video]: 'video/mp4', [MEDIA_FILES.thumbnail]: 'image/jpeg' };

const mediaParams = {
  type: 'object',
  required: ['execution', 'file'],
  properties: {
    execution: { type: 'string', format: 'uuid' },
    file: { type: 'string', enum: Object.keys(TYPES) },
  },
} as const;

const mediaQuery = {
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

/**
 * The rendered files of executions, for the preview. A `<video>` element sends no bearer token, so
 * access is by a signed link that expires (the execution's answer hands them out); Range requests
 * are answered so the player can seek.
 */
export default async function mediaRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { executions } = app.services;

  app.get(
    '/:execution/:file',
    {
      schema: {
        params: mediaParams,
        querystring: mediaQuery,
        response: {
          200: { description: 'The file', type: 'string', format: 'binary' },
          206: { description: 'Part of the file', type: 'string', format: 'binary' },
          ...errorResponses,
          416: detailSchema,
        },
      },
    },
    async (request, reply) => {
      const { execution, file } = request.params;
      if (!executions.verifyMediaLink(execution, file, request.query.expires, request.query.signature)) {
        throw new AppError(403, 'media.linkInvalid');
      }
      const size = await executions.storage.size(execution, file);
      if (size === undefined) throw new AppError(404, 'media.notFound');
      reply.type(TYPES[file] ?? 'application/octet-stream').header('cache-control', 'private, max-age=3600');
      return sendRanged(request, reply, size, (range) => executions.storage.read(execution, file, range), 'media.notFound');
    },
  );
}
