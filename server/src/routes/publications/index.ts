import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import { dateTime, errorResponses, listQuery, listResponse, nullableDateTime, nullableString } from '../schemas';

const publicationSchema = {
  type: 'object',
  required: ['id', 'process_id', 'channel_id', 'video_title', 'video_id', 'published_at', 'views', 'likes', 'status', 'visibility', 'created_at'],
  properties: {
    id: { type: 'string' },
    process_id: nullableString,
    channel_id: nullableString,
    video_title: { type: 'string' },
    video_id: nullableString,
    published_at: nullableDateTime,
    views: { type: 'integer' },
    likes: { type: 'integer' },
    status: { type: 'string' },
    visibility: { type: 'string' },
    created_at: dateTime,
  },
} as const;

/** The user's publications, newest first (the dashboard's list; issue 6 adds filters and actions). */
export default async function publicationRoutes(app: FastifyInstance): Promise<void> {
  const { executions } = app.services;
  app.addHook('preHandler', requireUser);

  app.get<{ Querystring: { skip: number; limit: number } }>(
    '/',
    { schema: { querystring: listQuery(), response: { 200: listResponse('publications', publicationSchema), ...errorResponses } } },
    async (request) => executions.publicationsOf(request.user.id, request.query),
  );
}
