import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireAdmin, throttle } from '../guards';
import { errorResponses, idParams, listQuery, listResponse } from '../../contracts/common';
import { createProxyBody, proxySchema, testResultSchema, updateProxyBody } from '../../contracts/proxies';

/** Outbound proxies: administrators only (403 for everyone else). */
export default async function proxyRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { proxies } = app.services;
  app.addHook('preHandler', requireAdmin);

  app.get(
    '/',
    {
      schema: {
        querystring: listQuery('active_only'),
        response: {
          200: listResponse('proxies', proxySchema),
          ...errorResponses,
        },
      },
    },
    async (request) => proxies.list(request.query),
  );

  app.get('/:id', { schema: { params: idParams, response: { 200: proxySchema, ...errorResponses } } }, async (request) =>
    proxies.get(request.params.id),
  );

  app.post(
    '/',
    {
      schema: {
        body: createProxyBody,
        response: { 201: proxySchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await proxies.create(request.user.id, request.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        params: idParams,
        body: updateProxyBody,
        response: { 200: proxySchema, ...errorResponses },
      },
    },
    async (request) => proxies.update(request.params.id, request.body ?? {}),
  );

  app.put('/:id/toggle', { schema: { params: idParams, response: { 200: proxySchema, ...errorResponses } } }, async (request) =>
    proxies.toggle(request.params.id),
  );

  app.post(
    '/:id/test',
    { preHandler: throttle('test'), schema: { params: idParams, response: { 200: testResultSchema, ...errorResponses } } },
    async (request) => proxies.test(request.params.id, request.language),
  );

  app.delete(
    '/:id',
    { schema: { params: idParams, response: { 204: { type: 'null' }, ...errorResponses } } },
    async (request, reply) => {
      await proxies.remove(request.params.id);
      return reply.code(204).send();
    },
  );
}
