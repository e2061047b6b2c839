import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireUser } from '../guards';
import { errorResponses, idParams, listQuery, listResponse } from '../../contracts/common';
import { channelSchema, createChannelBody, updateChannelBody } from '../../contracts/channels';

export default async function channelRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { channels } = app.services;
  app.addHook('preHandler', requireUser);

  app.get(
    '/',
    {
      schema: {
        querystring: listQuery(),
        response: {
          200: listResponse('channels', channelSchema),
          ...errorResponses,
        },
      },
    },
    async (request) => channels.list(request.user.id, request.query),
  );

  app.get('/:id', { schema: { params: idParams, response: { 200: channelSchema, ...errorResponses } } }, async (request) =>
    channels.get(request.user.id, request.params.id),
  );

  app.post(
    '/',
    {
      schema: {
        body: createChannelBody,
        response: { 201: channelSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await channels.create(request.user.id, request.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        params: idParams,
        body: updateChannelBody,
        response: { 200: channelSchema, ...errorResponses },
      },
    },
    async (request) => channels.update(request.user.id, request.params.id, request.body),
  );

  app.put('/:id/toggle', { schema: { params: idParams, response: { 200: channelSchema, ...errorResponses } } }, async (request) =>
    channels.toggle(request.user.id, request.params.id),
  );

  app.delete(
    '/:id',
    { schema: { params: idParams, response: { 204: { type: 'null' }, ...errorResponses } } },
    async (request, reply) => {
      await channels.remove(request.user.id, request.params.id);
      return reply.code(204).send();
    },
  );
}
