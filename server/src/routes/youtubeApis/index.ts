import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { translate } from '../../messages';
import { requireUser, throttle } from '../guards';
import { dateTime, errorResponses, idParams, nullableDateTime, nullableInteger, nullableString, listQuery } from '../schemas';

const youtubeApiSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'channel_id',
    'client_id',
    'has_client_secret',
    'secret_unreadable',
    'client_secret_masked',
    'has_api_key',
    'api_key_masked',
    'has_refresh_token',
    'is_active',
    'is_enabled',
    'is_connected',
    'last_tested',
    'active_process_count',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    channel_id: { type: 'string' },
    client_id: { type: 'string' },
    has_client_secret: { type: 'boolean' },
    secret_unreadable: { type: 'boolean' },
    client_secret_masked: { type: 'string' },
    has_api_key: { type: 'boolean' },
    api_key_masked: nullableString,
    has_refresh_token: { type: 'boolean' },
    is_active: { type: 'boolean' },
    is_enabled: { type: 'boolean' },
    is_connected: { type: 'boolean' },
    last_tested: nullableDateTime,
    active_process_count: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const optionalText = (maxLength: number) => ({ type: ['string', 'null'], maxLength }) as const;

const bodyProperties = {
  name: text(200),
  channel_id: text(200),
  client_id: text(500),
  client_secret: optionalText(500),
  api_key: optionalText(500),
  refresh_token: optionalText(2000),
} as const;

export default async function youtubeApiRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { youtubeApis } = app.services;
  app.addHook('preHandler', requireUser);

  app.get(
    '/',
    {
      schema: {
        querystring: listQuery('enabled_only'),
        response: {
          200: {
            type: 'object',
            required: ['youtube_apis', 'total', 'oauth_redirect_uri'],
            properties: {
              youtube_apis: { type: 'array', items: youtubeApiSchema },
              total: { type: 'integer' },
              oauth_redirect_uri: { type: 'string' },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => youtubeApis.list(request.user.id, request.query),
  );

  app.get('/:id', { schema: { params: idParams, response: { 200: youtubeApiSchema, ...errorResponses } } }, async (request) =>
    youtubeApis.get(request.user.id, request.params.id),
  );

  app.post(
    '/',
    {
      schema: {
        body: {
          type: 'object',
          required: ['name', 'channel_id', 'client_id', 'client_secret'],
          additionalProperties: false,
          properties: bodyProperties,
        },
        response: { 201: youtubeApiSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await youtubeApis.create(request.user.id, request.body)),
  );

  app.put(
    '/:id',
    {
      schema: {
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { ...bodyProperties, clear_api_key: { type: 'boolean' } },
        },
        response: { 200: youtubeApiSchema, ...errorResponses },
      },
    },
    async (request) => youtubeApis.update(request.user.id, request.params.id, request.body),
  );

  app.put(
    '/:id/toggle',
    { schema: { params: idParams, response: { 200: youtubeApiSchema, ...errorResponses } } },
    async (request) => youtubeApis.toggle(request.user.id, request.params.id),
  );

  app.put(
    '/:id/set-active',
    { schema: { params: idParams, response: { 200: youtubeApiSchema, ...errorResponses } } },
    async (request) => youtubeApis.setActive(request.user.id, request.params.id),
  );

  app.post(
    '/:id/test',
    {
      preHandler: throttle('test'),
      schema: {
        params: idParams,
        response: {
          200: {
            type: 'object',
            required: ['is_connected', 'last_tested', 'needs_authorization', 'detail', 'channel'],
            properties: {
              is_connected: { type: 'boolean' },
              last_tested: dateTime,
              needs_authorization: { type: 'boolean' },
              detail: { type: 'string' },
              channel: {
                type: ['object', 'null'],
                properties: {
                  id: { type: 'string' },
                  title: { type: 'string' },
                  subscriber_count: nullableInteger,
                  video_count: nullableInteger,
                  view_count: nullableInteger,
                },
              },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { message, ...result } = await youtubeApis.test(request.user.id, request.params.id, (error) =>
        request.log.warn({ err: error }, 'YouTube connection test failed'),
      );
      return { ...result, detail: translate(request.language, message.key, message.params) };
    },
  );

  app.post(
    '/:id/authorize',
    {
      schema: {
        params: idParams,
        response: { 200: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } }, ...errorResponses },
      },
    },
    async (request, reply) => {
      // The cookie binds the window's state to this browser (a same-origin fetch stores it).
      const { url, setCookie } = await youtubeApis.authorizeUrl(request.user, request.params.id);
      reply.header('set-cookie', setCookie).header('cache-control', 'no-store');
      return { url };
    },
  );

  app.delete(
    '/:id',
    { schema: { params: idParams, response: { 204: { type: 'null' }, ...errorResponses } } },
    async (request, reply) => {
      await youtubeApis.remove(request.user.id, request.params.id);
      return reply.code(204).send();
    },
  );
}
