import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireAdmin, requireUser } from '../guards';
import { deleteResultSchema, errorResponses, idParams, listQuery, listResponse } from '../../contracts/common';
import { basicBody, fullBody, promptSchema, promptSummarySchema, updateDescriptionBody } from '../../contracts/prompts';

/** Prompts: every signed-in user reads; only administrators write (403 otherwise). */
export default async function promptRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { prompts } = app.services;

  app.get(
    '/',
    {
      onRequest: requireUser,
      schema: {
        querystring: listQuery('active_only'),
        response: {
          200: listResponse('prompts', promptSummarySchema),
          ...errorResponses,
        },
      },
    },
    async (request) => prompts.list(request.query),
  );

  app.get(
    '/:id',
    { onRequest: requireUser, schema: { params: idParams, response: { 200: promptSchema, ...errorResponses } } },
    async (request) => prompts.get(request.params.id),
  );

  app.post(
    '/',
    { onRequest: requireAdmin, schema: { body: basicBody, response: { 201: promptSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await prompts.create(request.user.id, request.body)),
  );

  app.post(
    '/full',
    { onRequest: requireAdmin, schema: { body: fullBody, response: { 201: promptSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await prompts.createFull(request.user.id, request.body)),
  );

  app.put(
    '/:id',
    {
      onRequest: requireAdmin,
      schema: {
        params: idParams,
        body: updateDescriptionBody,
        response: { 200: promptSchema, ...errorResponses },
      },
    },
    async (request) => prompts.updateDescription(request.params.id, request.body),
  );

  app.put(
    '/:id/full',
    {
      onRequest: requireAdmin,
      schema: { params: idParams, body: fullBody, response: { 200: promptSchema, ...errorResponses } },
    },
    async (request) => prompts.updateFull(request.params.id, request.body),
  );

  app.put(
    '/:id/toggle',
    { onRequest: requireAdmin, schema: { params: idParams, response: { 200: promptSchema, ...errorResponses } } },
    async (request) => prompts.toggle(request.params.id),
  );

  app.delete(
    '/:id',
    { onRequest: requireAdmin, schema: { params: idParams, response: { 200: deleteResultSchema, ...errorResponses } } },
    async (request) => prompts.remove(request.params.id, request.language),
  );
}
