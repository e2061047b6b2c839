import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireAdmin, requireUser } from '../guards';
import { deleteResultSchema, errorResponses, idParams, listQuery, listResponse } from '../../contracts/common';
import { createVoiceBody, updateVoiceBody, voiceSchema } from '../../contracts/voices';

/** Voices: every signed-in user reads; only administrators write (403 otherwise). */
export default async function voiceRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { voices } = app.services;

  app.get(
    '/',
    {
      onRequest: requireUser,
      schema: {
        querystring: listQuery('active_only'),
        response: {
          200: listResponse('voices', voiceSchema),
          ...errorResponses,
        },
      },
    },
    async (request) => voices.list(request.query),
  );

  app.get(
    '/:id',
    { onRequest: requireUser, schema: { params: idParams, response: { 200: voiceSchema, ...errorResponses } } },
    async (request) => voices.get(request.params.id),
  );

  app.post(
    '/',
    {
      onRequest: requireAdmin,
      schema: {
        body: createVoiceBody,
        response: { 201: voiceSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await voices.create(request.user.id, request.body)),
  );

  app.put(
    '/:id',
    {
      onRequest: requireAdmin,
      schema: {
        params: idParams,
        body: updateVoiceBody,
        response: { 200: voiceSchema, ...errorResponses },
      },
    },
    async (request) => voices.update(request.params.id, request.body ?? {}),
  );

  app.put(
    '/:id/toggle',
    { onRequest: requireAdmin, schema: { params: idParams, response: { 200: voiceSchema, ...errorResponses } } },
    async (request) => voices.toggle(request.params.id),
  );

  app.delete(
    '/:id',
    { onRequest: requireAdmin, schema: { params: idParams, response: { 200: deleteResultSchema, ...errorResponses } } },
    async (request) => voices.remove(request.params.id, request.language),
  );
}
