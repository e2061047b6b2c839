import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireAdmin, requireUser } from '../guards';
import { dateTime, errorResponses, idParams, nullableString, listQuery, listResponse } from '../schemas';

/** The six texts of one language. */
const languageTextsSchema = {
  type: 'object',
  required: ['title', 'premise', 'narrative_prompt', 'chapter_1', 'next_chapters', 'final_chapter'],
  properties: {
    title: { type: 'string' },
    premise: { type: 'string' },
    narrative_prompt: { type: 'string' },
    chapter_1: { type: 'string' },
    next_chapters: { type: 'string' },
    final_chapter: { type: 'string' },
  },
} as const;

const summaryProperties = {
  id: { type: 'string' },
  user_id: nullableString,
  name: { type: 'string' },
  description: { type: 'string' },
  category: { type: 'string' },
  is_active: { type: 'boolean' },
  language_codes: { type: 'array', items: { type: 'string' } },
  text_language_codes: { type: 'array', items: { type: 'string' } },
  process_count: { type: 'integer' },
  active_process_count: { type: 'integer' },
  created_at: dateTime,
  updated_at: dateTime,
} as const;

const summaryRequired = [
  'id',
  'user_id',
  'name',
  'description',
  'category',
  'is_active',
  'language_codes',
  'text_language_codes',
  'process_count',
  'active_process_count',
  'created_at',
  'updated_at',
] as const;

const promptSummarySchema = { type: 'object', required: summaryRequired, properties: summaryProperties } as const;

const promptSchema = {
  type: 'object',
  required: [...summaryRequired, 'content', 'languages'],
  properties: {
    ...summaryProperties,
    content: { type: 'string' },
    /** Keyed by language code. */
    languages: { type: 'object', additionalProperties: languageTextsSchema },
  },
} as const;

const deleteResultSchema = {
  type: 'object',
  required: ['detail', 'affected_processes'],
  properties: { detail: { type: 'string' }, affected_processes: { type: 'integer' } },
} as const;

/** Text without NUL characters, which PostgreSQL text cannot store. */
const NO_NUL = '^[^\\u0000]*$';
const TEXT_MAX = 20_000;
const text = { type: ['string', 'null'], maxLength: TEXT_MAX, pattern: NO_NUL } as const;

/** A language's texts in a request: each optional (missing or null means empty). */
const languageTextsBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    title: text,
    premise: text,
    narrative_prompt: text,
    chapter_1: text,
    next_chapters: text,
    final_chapter: text,
  },
} as const;

const basicProperties = {
  name: { type: 'string', maxLength: 500, pattern: NO_NUL },
  description: { type: 'string', maxLength: 5_000, pattern: NO_NUL },
  content: { type: 'string', maxLength: 50_000, pattern: NO_NUL },
  category: { type: ['string', 'null'], maxLength: 100 },
} as const;

const basicBody = {
  type: 'object',
  required: ['name', 'description', 'content'],
  additionalProperties: false,
  properties: basicProperties,
} as const;

/** Codes are checked by the service, so an unknown one answers 422 with the list of the 20. */
const fullBody = {
  type: 'object',
  required: ['name', 'description', 'content', 'languages'],
  additionalProperties: false,
  properties: {
    ...basicProperties,
    languages: { type: 'object', maxProperties: 40, additionalProperties: languageTextsBody },
  },
} as const;

/** Prompts: every signed-in user reads; only administrators write (403 otherwise). */
export default async function promptRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { prompts } = app.services;

  app.get(
    '/',
    {
      onRequest: requireUser,
      schema: {
        querystring: listQuery('active_only'),
        response: {
          200: listResponse('prompts', promptSummarySchema),
          ...errorResponses,
        },
      },
    },
    async (request) => prompts.list(request.query),
  );

  app.get(
    '/:id',
    { onRequest: requireUser, schema: { params: idParams, response: { 200: promptSchema, ...errorResponses } } },
    async (request) => prompts.get(request.params.id),
  );

  app.post(
    '/',
    { onRequest: requireAdmin, schema: { body: basicBody, response: { 201: promptSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await prompts.create(request.user.id, request.body)),
  );

  app.post(
    '/full',
    { onRequest: requireAdmin, schema: { body: fullBody, response: { 201: promptSchema, ...errorResponses } } },
    async (request, reply) => reply.code(201).send(await prompts.createFull(request.user.id, request.body)),
  );

  app.put(
    '/:id',
    {
      onRequest: requireAdmin,
      schema: {
        params: idParams,
        body: {
          type: 'object',
          required: ['description'],
          additionalProperties: false,
          properties: { description: basicProperties.description },
        },
        response: { 200: promptSchema, ...errorResponses },
      },
    },
    async (request) => prompts.updateDescription(request.params.id, request.body),
  );

  app.put(
    '/:id/full',
    {
      onRequest: requireAdmin,
      schema: { params: idParams, body: fullBody, response: { 200: promptSchema, ...errorResponses } },
    },
    async (request) => prompts.updateFull(request.params.id, request.body),
  );

  app.put(
    '/:id/toggle',
    { onRequest: requireAdmin, schema: { params: idParams, response: { 200: promptSchema, ...errorResponses } } },
    async (request) => prompts.toggle(request.params.id),
  );

  app.delete(
    '/:id',
    { onRequest: requireAdmin, schema: { params: idParams, response: { 200: deleteResultSchema, ...errorResponses } } },
    async (request) => prompts.remove(request.params.id, request.language),
  );
}
