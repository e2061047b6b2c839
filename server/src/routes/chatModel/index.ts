import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireUser, throttle } from '../guards';
import { errorResponses } from '../../contracts/common';
import { chatModelBody, chatModelTestBody, configSchema, testResultSchema } from '../../contracts/chatModel';

/** The caller's chat-model configuration (one at most) and its connection test, under /chatgpt. */
export default async function chatModelRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { chatModel } = app.services;
  app.addHook('preHandler', requireUser);

  app.get('/config', { schema: { response: { 200: configSchema, ...errorResponses } } }, async (request) =>
    chatModel.get(request.user.id),
  );

  app.post(
    '/config',
    {
      schema: {
        // A missing key is the service's 422 "Please enter your ChatGPT API Key", not a 400.
        body: chatModelBody,
        response: { 201: configSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await chatModel.create(request.user.id, request.body)),
  );

  app.put(
    '/config',
    {
      schema: {
        body: chatModelBody,
        response: { 200: configSchema, ...errorResponses },
      },
    },
    async (request) => chatModel.update(request.user.id, request.body),
  );

  app.delete('/config', { schema: { response: { 204: { type: 'null' }, ...errorResponses } } }, async (request, reply) => {
    await chatModel.remove(request.user.id);
    return reply.code(204).send();
  });

  app.post(
    '/test',
    {
      preHandler: throttle('test'),
      // The body is optional: none means "test the stored key".
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        body: chatModelTestBody,
        response: { 200: testResultSchema, ...errorResponses },
      },
    },
    async (request) => chatModel.test(request.user.id, request.body, request.language),
  );
}
