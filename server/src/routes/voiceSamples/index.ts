import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { detailSchema, errorResponses } from '../../contracts/common';

/** `<uuid>.wav`: nothing else (no dots, slashes or other names) can reach the file system. */
const sampleParams = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\.wav$' },
  },
} as const;

/**
 * Samples of espeak-ng voices, spoken on first request and cached. No session: audio elements
 * send no bearer token, and a sample reveals nothing but the voice.
 */
export default async function voiceSampleRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { voices } = app.services;

  app.get(
    '/:file',
    {
      schema: {
        params: sampleParams,
        response: {
          200: { description: 'The sample (audio/wav)', type: 'string', format: 'binary' },
          304: { description: 'Not modified', type: 'null' },
          ...errorResponses,
          502: detailSchema,
          503: detailSchema,
        },
      },
    },
    async (request, reply) => {
      const id = request.params.file.slice(0, -'.wav'.length).toLowerCase();
      const sample = await voices.sample(id);
      const etag = `"${sample.data.length.toString(16)}-${sample.modifiedAt.getTime().toString(16)}"`;
      // Revalidated on each play, so an edited voice is heard at once; unchanged ones answer 304.
      reply
        .header('cache-control', 'public, no-cache')
        .header('etag', etag)
        .header('last-modified', sample.modifiedAt.toUTCString())
        .header('x-sample-cache', sample.cached ? 'hit' : 'miss');
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
        return reply.code(304).send();
      }
      return reply.type('audio/wav').send(sample.data);
    },
  );
}
