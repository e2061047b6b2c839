import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireUser } from '../guards';
import { detailSchema, errorResponses, idParams } from '../../contracts/common';
import { executionSchema, startedSchema } from '../../contracts/processes';

/**
 * One execution; retrying a failed one from its checkpoint; cancelling a running one; approving or
 * rejecting a video that waits for review (docs/api-processes.md).
 */
export default async function executionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { executions, processes, runControl } = app.services;
  app.addHook('preHandler', requireUser);

  app.get('/:id', { schema: { params: idParams, response: { 200: executionSchema, ...errorResponses } } }, async (request) =>
    executions.get(request.user.id, request.params.id, request.language),
  );

  app.post(
    '/:id/retry',
    { schema: { params: idParams, response: { 202: startedSchema, ...errorResponses, 503: detailSchema } } },
    async (request, reply) => {
      const started = await executions.retry(request.user.id, request.params.id);
      return reply.code(202).send({
        execution_id: started.execution_id,
        process: await processes.get(request.user.id, started.process_id, request.language),
      });
    },
  );

  app.post(
    '/:id/cancel',
    { schema: { params: idParams, response: { 200: executionSchema, ...errorResponses } } },
    async (request) => runControl.cancel(request.user.id, request.params.id, request.language),
  );

  app.post(
    '/:id/approve',
    {
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { when: { type: 'string', enum: ['now', 'scheduled'] } },
        },
        response: { 200: executionSchema, ...errorResponses, 502: detailSchema },
      },
    },
    async (request) => runControl.approve(request.user.id, request.params.id, request.body.when ?? 'scheduled', request.language),
  );

  app.post(
    '/:id/reject',
    { schema: { params: idParams, response: { 200: executionSchema, ...errorResponses, 502: detailSchema } } },
    async (request) => runControl.reject(request.user.id, request.params.id, request.language),
  );
}
