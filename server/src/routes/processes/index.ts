import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { VersionedCache, stringBytes } from '../../lib/versionedCache';
import { requireUser } from '../guards';
import {
  createProcessBody,
  executionSchema,
  processSchema,
  startedSchema,
  statsSchema,
  updateProcessBody,
} from '../../contracts/processes';
import { detailSchema, errorResponses, idParams, listQuery, listResponse } from '../../contracts/common';

/** Processes (docs/api-processes.md), their executions and the execute action. */

export default async function processRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { processes, executions } = app.services;
  const listCache = new VersionedCache<string>({ maxBytes: app.config.listCacheBytes, sizeOf: stringBytes });
  app.addHook('preHandler', requireUser);

  app.get(
    '/',
    {
      schema: {
        querystring: listQuery('active_only'),
        response: { 200: listResponse('processes', processSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      // The list is the console's most polled call: its JSON is kept per user, query and language
      // while the user's data version holds (lib/versionedCache.ts, migration 0004).
      const { skip, limit, active_only: activeOnly } = request.query;
      const key = `${request.user.id}|${skip}|${limit}|${activeOnly ? 1 : 0}|${request.language}`;
      const json = await listCache.get(key, String(request.user.dataVersion), async () =>
        // The route's response schema serializer: always a string (no custom serializer is set).
        String(reply.serialize(await processes.list(request.user.id, request.query, request.language))),
      );
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );

  // Before '/:id', so "stats" is never taken for an id.
  app.get('/stats', { schema: { response: { 200: statsSchema, ...errorResponses } } }, async (request) =>
    processes.stats(request.user.id),
  );

  app.get('/:id', { schema: { params: idParams, response: { 200: processSchema, ...errorResponses } } }, async (request) =>
    processes.get(request.user.id, request.params.id, request.language),
  );

  app.post(
    '/',
    {
      schema: {
        body: createProcessBody,
        response: { 201: processSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await processes.create(request.user.id, request.body, request.language)),
  );

  app.put(
    '/:id',
    {
      schema: {
        params: idParams,
        body: updateProcessBody,
        response: { 200: processSchema, ...errorResponses },
      },
    },
    async (request) => processes.update(request.user.id, request.params.id, request.body, request.language),
  );

  app.put('/:id/toggle', { schema: { params: idParams, response: { 200: processSchema, ...errorResponses } } }, async (request) =>
    processes.toggle(request.user.id, request.params.id, request.language),
  );

  app.post(
    '/:id/execute',
    { schema: { params: idParams, response: { 202: startedSchema, ...errorResponses, 503: detailSchema } } },
    async (request, reply) => {
      const started = await executions.start(request.params.id, 'manual', request.user.id);
      return reply.code(202).send({
        execution_id: started.execution_id,
        process: await processes.get(request.user.id, started.process_id, request.language),
      });
    },
  );

  app.get(
    '/:id/executions',
    {
      schema: {
        params: idParams,
        querystring: listQuery(),
        response: { 200: listResponse('executions', executionSchema), ...errorResponses },
      },
    },
    async (request) => executions.list(request.user.id, request.params.id, request.query, request.language),
  );

  app.delete(
    '/:id',
    { schema: { params: idParams, response: { 204: { type: 'null' }, ...errorResponses } } },
    async (request, reply) => {
      await processes.remove(request.user.id, request.params.id);
      return reply.code(204).send();
    },
  );
}
