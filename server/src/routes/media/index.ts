import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { AppError } from '../../errors';
import { RUN_FILES } from '../../runLayout';
import { detailSchema, errorResponses } from '../../contracts/common';
import { sendRanged, signedLinkQuery } from '../files';

const TYPES: Record<string, string> = { [RUN_FILES.video]: 'video/mp4', [RUN_FILES.thumbnail]: 'image/jpeg' };

const mediaParams = {
  type: 'object',
  required: ['execution', 'file'],
  properties: {
    execution: { type: 'string', format: 'uuid' },
    file: { type: 'string', enum: Object.keys(TYPES) },
  },
} as const;

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
        querystring: signedLinkQuery,
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
