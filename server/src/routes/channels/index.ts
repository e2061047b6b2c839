import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireUser } from '../guards';
import {
  dateTime,
  errorResponses,
  idParams,
  nullableDateTime,
  nullableInteger,
  nullableString,
  listQuery,
  listResponse,
} from '../schemas';

const channelSchema = {
  type: 'object',
  required: [
    'id',
    'channel_id',
    'name',
    'min_views',
    'is_active',
    'process_count',
    'active_process_count',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    channel_id: { type: 'string' },
    name: nullableString,
    min_views: { type: 'integer' },
    is_active: { type: 'boolean' },
    subscriber_count: nullableInteger,
    video_count: nullableInteger,
    view_count: nullableInteger,
    stats_updated_at: nullableDateTime,
    process_count: { type: 'integer' },
    active_process_count: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;

const minViews = { type: ['integer', 'string', 'null'], maxLength: 20 } as const;

export default async function channelRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { channels } = app.services;
  app.addHook('preHandler', requireUser);

  app.get(
    '/',
    {
      schema: {
        querystring: listQuery(),
        response: {
          200: listResponse('channels', channelSchema),
          ...errorResponses,
        },
      },
    },
    async (request) => channels.list(request.user.id, request.query),
  );

  app.get('/:id', { schema: { params: idParams, response: { 200: channelSchema, ...errorResponses } } }, async (request) =>
    channels.get(request.user.id, request.params.id),
  );

  app.post(
    '/',
    {
      schema: {
        body: {
          type: 'object',
          required: ['channel_id'],
          additionalProperties: false,
          properties: {
            channel_id: { type: 'string', maxLength: 200 },
            name: { type: ['string', 'null'], maxLength: 500 },
            min_views: minViews,
            is_active: { type: 'boolean' },
          },
        },
        response: { 201: channelSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await channels.create(request.user.id, request.body)),
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
            channel_id: { type: 'string', maxLength: 200 },
            name: { type: ['string', 'null'], maxLength: 500 },
            min_views: minViews,
            is_active: { type: 'boolean' },
          },
        },
        response: { 200: channelSchema, ...errorResponses },
      },
    },
    async (request) => channels.update(request.user.id, request.params.id, request.body),
  );

  app.put('/:id/toggle', { schema: { params: idParams, response: { 200: channelSchema, ...errorResponses } } }, async (request) =>
    channels.toggle(request.user.id, request.params.id),
  );

  app.delete(
    '/:id',
    { schema: { params: idParams, response: { 204: { type: 'null' }, ...errorResponses } } },
    async (request, reply) => {
      await channels.remove(request.user.id, request.params.id);
      return reply.code(204).send();
    },
  );
}
