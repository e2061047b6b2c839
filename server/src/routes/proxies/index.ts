import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireAdmin, throttle } from '../guards';
import { dateTime, errorResponses, idParams, nullableDateTime, listQuery, listResponse } from '../schemas';

/** A proxy as answered: the password is never there, only masked in `url` and as `has_password`. */
const proxySchema = {
  type: 'object',
  required: ['id', 'name', 'url', 'has_password', 'is_active', 'is_connected', 'last_tested', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    url: { type: 'string' },
    has_password: { type: 'boolean' },
    is_active: { type: 'boolean' },
    is_connected: { type: 'boolean' },
    last_tested: nullableDateTime,
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;

const testResultSchema = {
  type: 'object',
  required: ['is_connected', 'last_tested', 'detail', 'latency_ms'],
  properties: {
    is_connected: { type: 'boolean' },
    last_tested: dateTime,
    detail: { type: 'string' },
    latency_ms: { type: ['integer', 'null'] },
  },
} as const;

const name = { type: 'string', maxLength: 500 } as const;
const url = { type: 'string', maxLength: 2048 } as const;

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
        body: { type: 'object', required: ['name', 'url'], additionalProperties: false, properties: { name, url } },
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
        body: { type: 'object', additionalProperties: false, properties: { name, url } },
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
