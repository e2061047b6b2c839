import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireAdmin, requireUser } from '../guards';
import { dateTime, errorResponses, idParams, nullableString, listQuery, listResponse } from '../schemas';

const voiceSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'type',
    'sample_url',
    'description',
    'language',
    'gender',
    'provider',
    'provider_voice_id',
    'is_active',
    'process_count',
    'active_process_count',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string' },
    sample_url: { type: 'string' },
    description: { type: 'string' },
    language: nullableString,
    gender: nullableString,
    provider: { type: 'string' },
    provider_voice_id: { type: 'string' },
    is_active: { type: 'boolean' },
    process_count: { type: 'integer' },
    active_process_count: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;

const deleteResultSchema = {
  type: 'object',
  required: ['detail', 'affected_processes'],
  properties: { detail: { type: 'string' }, affected_processes: { type: 'integer' } },
} as const;

/** Text without NUL characters, which PostgreSQL text cannot store. */
const NO_NUL = '^[^\\u0000]*$';

/** Enumerations (provider, language, gender) are checked by the service, which answers 422 with the choices. */
const voiceProperties = {
  name: { type: 'string', maxLength: 500, pattern: NO_NUL },
  type: { type: 'string', maxLength: 500, pattern: NO_NUL },
  sample_url: { type: 'string', maxLength: 4096 },
  description: { type: ['string', 'null'], maxLength: 5_000, pattern: NO_NUL },
  language: { type: ['string', 'null'], maxLength: 100 },
  gender: { type: ['string', 'null'], maxLength: 100 },
  provider: { type: ['string', 'null'], maxLength: 100 },
  provider_voice_id: { type: ['string', 'null'], maxLength: 500 },
} as const;

/** Voices: every signed-in user reads; only administrators write (403 otherwise). */
export default async function voiceRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { voices } = app.services;

  app.get(
    '/',
    {
      onRequest: requireUser,
      schema: {
        querystring: listQuery('active_only'),
        response: {
          200: listResponse('voices', voiceSchema),
          ...errorResponses,
        },
      },
    },
    async (request) => voices.list(request.query),
  );

  app.get(
    '/:id',
    { onRequest: requireUser, schema: { params: idParams, response: { 200: voiceSchema, ...errorResponses } } },
    async (request) => voices.get(request.params.id),
  );

  app.post(
    '/',
    {
      onRequest: requireAdmin,
      schema: {
        body: {
          type: 'object',
          required: ['name', 'type', 'sample_url'],
          additionalProperties: false,
          properties: voiceProperties,
        },
        response: { 201: voiceSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await voices.create(request.user.id, request.body)),
  );

  app.put(
    '/:id',
    {
      onRequest: requireAdmin,
      schema: {
        params: idParams,
        body: { type: 'object', additionalProperties: false, properties: voiceProperties },
        response: { 200: voiceSchema, ...errorResponses },
      },
    },
    async (request) => voices.update(request.params.id, request.body ?? {}),
  );

  app.put(
    '/:id/toggle',
    { onRequest: requireAdmin, schema: { params: idParams, response: { 200: voiceSchema, ...errorResponses } } },
    async (request) => voices.toggle(request.params.id),
  );

  app.delete(
    '/:id',
    { onRequest: requireAdmin, schema: { params: idParams, response: { 200: deleteResultSchema, ...errorResponses } } },
    async (request) => voices.remove(request.params.id, request.language),
  );
}
