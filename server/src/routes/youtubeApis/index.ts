import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { translate } from '../../messages';
import { requireUser, throttle } from '../guards';
import { errorResponses, idParams, listQuery } from '../../contracts/common';
import {
  createYoutubeApiBody,
  updateYoutubeApiBody,
  youtubeApiListSchema,
  youtubeApiSchema,
  youtubeApiTestSchema,
} from '../../contracts/youtubeApis';

export default async function youtubeApiRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { youtubeApis } = app.services;
  app.addHook('preHandler', requireUser);

  app.get(
    '/',
    {
      schema: {
        querystring: listQuery('enabled_only'),
        response: {
          200: youtubeApiListSchema,
          ...errorResponses,
        },
      },
    },
    async (request) => youtubeApis.list(request.user.id, request.query),
  );

  app.get('/:id', { schema: { params: idParams, response: { 200: youtubeApiSchema, ...errorResponses } } }, async (request) =>
    youtubeApis.get(request.user.id, request.params.id),
  );

  app.post(
    '/',
    {
      schema: {
        body: createYoutubeApiBody,
        response: { 201: youtubeApiSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await youtubeApis.create(request.user.id, request.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        params: idParams,
        body: updateYoutubeApiBody,
        response: { 200: youtubeApiSchema, ...errorResponses },
      },
    },
    async (request) => youtubeApis.update(request.user.id, request.params.id, request.body),
  );

  app.put(
    '/:id/toggle',
    { schema: { params: idParams, response: { 200: youtubeApiSchema, ...errorResponses } } },
    async (request) => youtubeApis.toggle(request.user.id, request.params.id),
  );

  app.put(
    '/:id/set-active',
    { schema: { params: idParams, response: { 200: youtubeApiSchema, ...errorResponses } } },
    async (request) => youtubeApis.setActive(request.user.id, request.params.id),
  );

  app.post(
    '/:id/test',
    {
      preHandler: throttle('test'),
      schema: {
        params: idParams,
        response: {
          200: youtubeApiTestSchema,
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { message, ...result } = await youtubeApis.test(request.user.id, request.params.id, (error) =>
        request.log.warn({ err: error }, 'YouTube connection test failed'),
      );
      return { ...result, detail: translate(request.language, message.key, message.params) };
    },
  );

  app.post(
    '/:id/authorize',
    {
      schema: {
        params: idParams,
        response: { 200: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } }, ...errorResponses },
      },
    },
    async (request, reply) => {
      // The cookie binds the window's state to this browser (a same-origin fetch stores it).
      const { url, setCookie } = await youtubeApis.authorizeUrl(request.user, request.params.id);
      reply.header('set-cookie', setCookie).header('cache-control', 'no-store');
      return { url };
    },
  );

  app.delete(
    '/:id',
    { schema: { params: idParams, response: { 204: { type: 'null' }, ...errorResponses } } },
    async (request, reply) => {
      await youtubeApis.remove(request.user.id, request.params.id);
      return reply.code(204).send();
    },
  );
}
