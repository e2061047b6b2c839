import type { FastifyInstance, FastifyRequest } from 'fastify';
import { typed } from '../typeProvider';
import { translate } from '../../messages';
import { requireUser, throttle } from '../guards';
import { errorResponses, idParams, listQuery } from '../../contracts/common';
import {
  createPlatformAccountBody,
  platformAccountListSchema,
  platformAccountSchema,
  platformAccountTestSchema,
  updatePlatformAccountBody,
  type PlatformAccountDto,
} from '../../contracts/platformAccounts';
import type { PlatformAccountView } from '../../services/platformAccounts';

/** TikTok and Instagram accounts (issue 31): the same shape of routes as the YouTube configurations. */
export default async function platformAccountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { platformAccounts } = app.services;
  app.addHook('preHandler', requireUser);

  /** The account with its disconnect reason in the caller's language. */
  const present = (request: FastifyRequest, view: PlatformAccountView): PlatformAccountDto => ({
    ...view,
    disconnect_reason:
      view.disconnect_reason === null
        ? null
        : translate(request.language, view.disconnect_reason, { platform: view.platform === 'tiktok' ? 'TikTok' : 'Instagram' }),
  });
  const one = { 200: platformAccountSchema, ...errorResponses };

  app.get(
    '/',
    { schema: { querystring: listQuery(), response: { 200: platformAccountListSchema, ...errorResponses } } },
    async (request) => {
      const page = await platformAccounts.list(request.user.id, request.query);
      return { ...page, platform_accounts: page.platform_accounts.map((view) => present(request, view)) };
    },
  );

  app.get('/:id', { schema: { params: idParams, response: one } }, async (request) =>
    present(request, await platformAccounts.get(request.user.id, request.params.id)),
  );

  app.post(
    '/',
    { schema: { body: createPlatformAccountBody, response: { 201: platformAccountSchema, ...errorResponses } } },
    async (request, reply) =>
      reply.code(201).send(present(request, await platformAccounts.create(request.user.id, request.body))),
  );

  app.put('/:id', { schema: { params: idParams, body: updatePlatformAccountBody, response: one } }, async (request) =>
    present(request, await platformAccounts.update(request.user.id, request.params.id, request.body)),
  );

  app.put('/:id/toggle', { schema: { params: idParams, response: one } }, async (request) =>
    present(request, await platformAccounts.toggle(request.user.id, request.params.id)),
  );

  app.post(
    '/:id/test',
    {
      preHandler: throttle('test'),
      schema: { params: idParams, response: { 200: platformAccountTestSchema, ...errorResponses } },
    },
    async (request) => {
      const { message, ...result } = await platformAccounts.test(request.user.id, request.params.id, (error) =>
        request.log.warn({ err: error }, 'platform account check failed'),
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
      const { url, setCookie } = await platformAccounts.authorizeUrl(request.user, request.params.id);
      reply.header('set-cookie', setCookie).header('cache-control', 'no-store');
      return { url };
    },
  );

  app.delete(
    '/:id',
    { schema: { params: idParams, response: { 204: { type: 'null' }, ...errorResponses } } },
    async (request, reply) => {
      await platformAccounts.remove(request.user.id, request.params.id, (error) =>
        request.log.warn({ err: error }, 'revoking a platform account failed; removed anyway'),
      );
      return reply.code(204).send();
    },
  );
}
