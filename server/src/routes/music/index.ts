import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { AppError } from '../../errors';
import { requireAdmin, requireUser } from '../guards';
import { sendRanged, signedLinkQuery } from '../files';
import { MUSIC_MAX_BYTES } from '../../services/music';
import { deleteResultSchema, detailSchema, errorResponses, idParams, listQuery, listResponse } from '../../contracts/common';
import { musicBody, musicSchema, musicUploadQuery } from '../../contracts/music';

/** The types an upload is documented with (any is read; its bytes decide). */
export const UPLOAD_CONTENT_TYPES = [
  'audio/mpeg',
  'audio/mp3',
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/vnd.wave',
  'audio/ogg',
  'application/ogg',
  'application/octet-stream',
];

/**
 * Background music (docs/api-catalogue.md): every signed-in user reads the list; administrators
 * upload (the file's bytes as the body, its name and mood in the query), rename, switch and delete.
 * The file itself is served by signed link, since an `<audio>` element sends no bearer token.
 */
export default async function musicRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { music } = app.services;

  // The upload's body is the file, kept as bytes up to the limit (a larger one is 413 before it is
  // read whole), whatever type the request says: the bytes decide, so a file of another kind gets
  // the music's own 415 rather than the API's "send JSON". JSON bodies (PUT) keep their parser.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MUSIC_MAX_BYTES }, (_request, body, done) => done(null, body));

  app.get(
    '/',
    {
      onRequest: requireUser,
      schema: { querystring: listQuery('active_only'), response: { 200: listResponse('music', musicSchema), ...errorResponses } },
    },
    async (request) => music.list(request.query),
  );

  app.get(
    '/:id',
    { onRequest: requireUser, schema: { params: idParams, response: { 200: musicSchema, ...errorResponses } } },
    async (request) => music.get(request.params.id),
  );

  app.post(
    '/',
    {
      onRequest: requireAdmin,
      bodyLimit: MUSIC_MAX_BYTES,
      schema: {
        description: `The body is the audio file itself (MP3, WAV or Ogg, at most ${MUSIC_MAX_BYTES / 1024 / 1024} MB), sent as audio/mpeg, audio/wav, audio/ogg or application/octet-stream; what it really is is read from its bytes.`,
        consumes: UPLOAD_CONTENT_TYPES,
        querystring: musicUploadQuery,
        response: { 201: musicSchema, ...errorResponses, 413: detailSchema, 415: detailSchema, 503: detailSchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError(422, 'music.fileRequired');
      return reply.code(201).send(await music.create(request.user.id, request.query, body));
    },
  );

  app.put(
    '/:id',
    {
      onRequest: requireAdmin,
      schema: {
        params: idParams,
        body: musicBody,
        response: { 200: musicSchema, ...errorResponses },
      },
    },
    async (request) => music.update(request.params.id, request.body ?? {}),
  );

  app.put(
    '/:id/toggle',
    { onRequest: requireAdmin, schema: { params: idParams, response: { 200: musicSchema, ...errorResponses } } },
    async (request) => music.toggle(request.params.id),
  );

  app.delete(
    '/:id',
    { onRequest: requireAdmin, schema: { params: idParams, response: { 200: deleteResultSchema, ...errorResponses } } },
    async (request) => music.remove(request.params.id, request.language),
  );

  app.get(
    '/:id/audio',
    {
      schema: {
        params: idParams,
        querystring: signedLinkQuery,
        response: {
          200: { description: 'The track', type: 'string', format: 'binary' },
          206: { description: 'Part of the track', type: 'string', format: 'binary' },
          ...errorResponses,
          416: detailSchema,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!music.verifyLink(id, request.query.expires, request.query.signature)) throw new AppError(403, 'music.linkInvalid');
      const track = await music.audio(id);
      reply.type(track.contentType).header('cache-control', 'private, max-age=3600');
      return sendRanged(request, reply, track.size, (range) => fs.createReadStream(track.file, range ?? {}), 'music.notFound');
    },
  );
}
