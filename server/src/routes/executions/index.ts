import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import { detailSchema, errorResponses, idParams, type IdParams } from '../schemas';
import { executionSchema, startedSchema } from '../processes/executionSchemas';

/** One execution, and retrying a failed one from its checkpoint (docs/api-processes.md). */
export default async function executionRoutes(app: FastifyInstance): Promise<void> {
  const { executions, processes } = app.services;
  app.addHook('preHandler', requireUser);

  app.get<{ Params: IdParams }>(
    '/:id',
    { schema: { params: idParams, response: { 200: executionSchema, ...errorResponses } } },
    async (request) => executions.get(request.user.id, request.params.id, request.language),
  );

  app.post<{ Params: IdParams }>(
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
}
