import type { FastifyInstance } from 'fastify';
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
  type IdParams,
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

interface ChannelBody {
  channel_id: string;
  name?: string | null;
  min_views?: number | string | null;
  is_active?: boolean;
}

export default async function channelRoutes(app: FastifyInstance): Promise<void> {
  const { channels } = app.services;
  app.addHook('preHandler', requireUser);

  app.get<{ Querystring: { skip: number; limit: number } }>(
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

  app.get<{ Params: IdParams }>(
    '/:id',
    { schema: { params: idParams, response: { 200: channelSchema, ...errorResponses } } },
    async (request) => channels.get(request.user.id, request.params.id),
  );

  app.post<{ Body: ChannelBody }>(
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

  app.put<{ Params: IdParams; Body: Partial<ChannelBody> }>(
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

  app.put<{ Params: IdParams }>(
    '/:id/toggle',
    { schema: { params: idParams, response: { 200: channelSchema, ...errorResponses } } },
    async (request) => channels.toggle(request.user.id, request.params.id),
  );

  app.delete<{ Params: IdParams }>(
    '/:id',
    { schema: { params: idParams, response: { 204: { type: 'null' }, ...errorResponses } } },
    async (request, reply) => {
      await channels.remove(request.user.id, request.params.id);
      return reply.code(204).send();
    },
  );
}
