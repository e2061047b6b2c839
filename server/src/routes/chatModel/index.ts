import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireUser, throttle } from '../guards';
import { dateTime, errorResponses, nullableDateTime, nullableString } from '../schemas';

const configSchema = {
  type: 'object',
  required: [
    'has_api_key',
    'secret_unreadable',
    'api_key_masked',
    'base_url',
    'model',
    'speech_base_url',
    'speech_model',
    'image_base_url',
    'image_model',
    'is_connected',
    'last_tested',
    'created_at',
    'updated_at',
  ],
  properties: {
    has_api_key: { type: 'boolean' },
    secret_unreadable: { type: 'boolean' },
    api_key_masked: { type: 'string' },
    base_url: nullableString,
    model: { type: 'string' },
    speech_base_url: nullableString,
    speech_model: nullableString,
    image_base_url: nullableString,
    image_model: nullableString,
    is_connected: { type: 'boolean' },
    last_tested: nullableDateTime,
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;

const testResultSchema = {
  type: 'object',
  required: ['is_connected', 'last_tested', 'detail'],
  properties: {
    is_connected: { type: 'boolean' },
    last_tested: dateTime,
    detail: { type: 'string' },
  },
} as const;

// Generous bounds here (400 beyond them); the service applies the real limits with a 422.
const apiKey = { type: ['string', 'null'], maxLength: 2000 } as const;
const baseUrl = { type: ['string', 'null'], maxLength: 2000 } as const;
const model = { type: ['string', 'null'], maxLength: 1000 } as const;
/** The configuration's fields; speech and images may use other OpenAI-compatible servers and models. */
const configBody = {
  api_key: apiKey,
  base_url: baseUrl,
  model,
  speech_base_url: baseUrl,
  speech_model: model,
  image_base_url: baseUrl,
  image_model: model,
} as const;

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
        body: {
          type: 'object',
          // A missing key is the service's 422 "Please enter your ChatGPT API Key", not a 400.
          additionalProperties: false,
          properties: configBody,
        },
        response: { 201: configSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await chatModel.create(request.user.id, request.body)),
  );

  app.put(
    '/config',
    {
      schema: {
        body: { type: 'object', additionalProperties: false, properties: configBody },
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
        body: { type: 'object', additionalProperties: false, properties: { api_key: apiKey, base_url: baseUrl } },
        response: { 200: testResultSchema, ...errorResponses },
      },
    },
    async (request) => chatModel.test(request.user.id, request.body, request.language),
  );
}
