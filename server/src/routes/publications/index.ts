import type { FastifyInstance } from 'fastify';
import { typed } from '../typeProvider';
import { requireUser } from '../guards';
import { detailSchema, errorResponses, idParams, listResponse } from '../../contracts/common';
import {
  createPublicationBody,
  publicationListQuery,
  publicationReportQuery,
  publicationSchema,
  publicationStatsSchema,
  updatePublicationBody,
} from '../../contracts/publications';

/** Publications and the history (docs/api-publications.md). */

export default async function publicationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { publications } = app.services;
  app.addHook('preHandler', requireUser);

  app.get(
    '/',
    {
      schema: {
        querystring: publicationListQuery,
        response: { 200: listResponse('publications', publicationSchema), ...errorResponses },
      },
    },
    async (request) => publications.list(request.user.id, request.query, request.language),
  );

  app.get('/stats', { schema: { response: { 200: publicationStatsSchema, ...errorResponses } } }, async (request) =>
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
        querystring: publicationReportQuery,
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
        body: createPublicationBody,
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
        body: updatePublicationBody,
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
