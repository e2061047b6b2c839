import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireUser } from '../guards';
import {
  dateTime,
  detailSchema,
  errorResponses,
  idParams,
  listResponse,
  nullableDateTime,
  nullableString,
  pagingQuery,
} from '../schemas';
import { DATE_RANGES, PUBLICATION_STATUSES, PUBLICATION_VISIBILITIES } from '../../services/publications';

/** Publications and the history (docs/api-publications.md). */

const publicationSchema = {
  type: 'object',
  required: [
    'id',
    'process_id',
    'execution_id',
    'process_name',
    'channel_id',
    'channel_name',
    'video_title',
    'video_id',
    'published_at',
    'views',
    'likes',
    'status',
    'visibility',
    'failure_reason',
    'below_min_views',
    'thumbnail_url',
    'watch_url',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    process_id: nullableString,
    execution_id: nullableString,
    process_name: nullableString,
    channel_id: nullableString,
    channel_name: nullableString,
    video_title: { type: 'string' },
    video_id: nullableString,
    published_at: nullableDateTime,
    views: { type: 'integer' },
    likes: { type: 'integer' },
    status: { type: 'string' },
    visibility: { type: 'string' },
    failure_reason: nullableString,
    below_min_views: { type: 'boolean' },
    thumbnail_url: nullableString,
    watch_url: nullableString,
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;

const filterProperties = {
  status: { type: 'string', enum: PUBLICATION_STATUSES },
  search: { type: 'string', maxLength: 200 },
  date_range: { type: 'integer', enum: DATE_RANGES },
} as const;

const statsSchema = {
  type: 'object',
  required: ['total', 'published', 'processing', 'awaiting_review', 'failed', 'total_views', 'total_likes', 'stats_updated_at'],
  properties: {
    total: { type: 'integer' },
    published: { type: 'integer' },
    processing: { type: 'integer' },
    awaiting_review: { type: 'integer' },
    failed: { type: 'integer' },
    total_views: { type: 'integer' },
    total_likes: { type: 'integer' },
    stats_updated_at: nullableDateTime,
  },
} as const;

const bodyProperties = {
  video_title: { type: 'string', maxLength: 500 },
  video_id: { type: ['string', 'null'], maxLength: 64, pattern: '^[A-Za-z0-9_-]*$' },
  process_id: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] },
  channel_id: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] },
  // A recorded video is published, waiting or failed; only a run's video waits for review.
  status: { type: 'string', enum: PUBLICATION_STATUSES.filter((status) => status !== 'awaiting_review') },
  visibility: { type: 'string', enum: PUBLICATION_VISIBILITIES },
  published_at: { type: ['string', 'null'], format: 'date-time' },
} as const;

export default async function publicationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { publications } = app.services;
  app.addHook('preHandler', requireUser);

  app.get(
    '/',
    {
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: { ...pagingQuery, ...filterProperties } },
        response: { 200: listResponse('publications', publicationSchema), ...errorResponses },
      },
    },
    async (request) => publications.list(request.user.id, request.query, request.language),
  );

  app.get('/stats', { schema: { response: { 200: statsSchema, ...errorResponses } } }, async (request) =>
    publications.stats(request.user.id),
  );

  app.post(
    '/stats/refresh',
    {
      schema: {
        response: {
          202: { type: 'object', required: ['queued'], properties: { queued: { type: 'boolean' } } },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      await publications.requestRefresh(request.user.id);
      return reply.code(202).send({ queued: true });
    },
  );

  app.get(
    '/report.csv',
    {
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: filterProperties },
        response: { 200: { description: 'CSV (UTF-8 with BOM)', type: 'string' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const csv = await publications.report(request.user.id, request.query, request.language);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="publications-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.get('/:id', { schema: { params: idParams, response: { 200: publicationSchema, ...errorResponses } } }, async (request) =>
    publications.get(request.user.id, request.params.id, request.language),
  );

  app.post(
    '/',
    {
      schema: {
        body: { type: 'object', required: ['video_title'], additionalProperties: false, properties: bodyProperties },
        response: { 201: publicationSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await publications.create(request.user.id, request.body, request.language)),
  );

  app.put(
    '/:id',
    {
      schema: {
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            video_title: bodyProperties.video_title,
            status: bodyProperties.status,
            visibility: bodyProperties.visibility,
            published_at: bodyProperties.published_at,
          },
        },
        response: { 200: publicationSchema, ...errorResponses },
      },
    },
    async (request) => publications.update(request.user.id, request.params.id, request.body, request.language),
  );

  app.put(
    '/:id/publish-public',
    { schema: { params: idParams, response: { 200: publicationSchema, ...errorResponses, 502: detailSchema } } },
    async (request) => publications.publishPublic(request.user.id, request.params.id, request.language),
  );

  app.delete(
    '/:id',
    {
      schema: {
        params: idParams,
        querystring: { type: 'object', additionalProperties: false, properties: { keep_video: { type: 'boolean' } } },
        response: { 204: { type: 'null' }, ...errorResponses, 502: detailSchema },
      },
    },
    async (request, reply) => {
      await publications.remove(request.user.id, request.params.id, { keepVideo: request.query.keep_video === true });
      return reply.code(204).send();
    },
  );
}
