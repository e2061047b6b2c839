import type { FastifyInstance, FastifyRequest } from 'fastify';
import { translate } from '../../messages';
import { bearer, requireUser, throttle } from '../guards';
import { typed } from '../typeProvider';
import { detailSchema, errorResponses, idParams } from '../../contracts/common';
import {
  authResultSchema,
  profileBody,
  registerBody,
  resetPasswordBody,
  sessionSchema,
  str,
  userSchema,
} from '../../contracts/auth';

/** Where a new session comes from: the browser's User-Agent and the client address (after TRUST_PROXY). */
const clientOf = (request: FastifyRequest) => ({ userAgent: request.headers['user-agent'], ip: request.ip });

export default async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { auth, account } = app.services;

  app.post(
    '/register',
    {
      preHandler: throttle('signup'),
      schema: {
        body: registerBody,
        response: { 201: authResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await auth.register(request.body, request.language, clientOf(request))),
  );

  app.post(
    '/login',
    {
      schema: {
        body: {
          type: 'object',
          required: ['email', 'password'],
          additionalProperties: false,
          properties: { email: str(320), password: str(1024) },
        },
        response: { 200: authResultSchema, ...errorResponses },
      },
    },
    async (request) => auth.login(request.body, request.ip, request.language, request.headers['user-agent']),
  );

  app.get('/me', { preHandler: requireUser, schema: { response: { 200: userSchema, ...errorResponses } } }, async (request) =>
    auth.me(request.user),
  );

  app.put(
    '/profile',
    {
      preHandler: requireUser,
      schema: {
        body: profileBody,
        response: { 200: userSchema, ...errorResponses },
      },
    },
    async (request) => auth.updateProfile(request.user, request.body, request.sessionId, request.language),
  );

  // Ends this session on the server: its token answers 401 from now on.
  app.post('/logout', { schema: { response: { 200: detailSchema, ...errorResponses } } }, async (request) => {
    await auth.logout(bearer(request));
    return { detail: translate(request.language, 'auth.signedOut') };
  });

  // The link of the confirmation email: needs no session (it may be opened on another device).
  // An administrator address (ADMIN_EMAIL) also needs the account's password: without it, or with
  // a wrong one, the answer is 422 with `password_required: true` and the link stays unspent.
  app.post(
    '/verify-email',
    {
      schema: {
        body: {
          type: 'object',
          required: ['token'],
          additionalProperties: false,
          properties: { token: str(200), password: str(1024) },
        },
        response: {
          200: detailSchema,
          ...errorResponses,
          422: {
            type: 'object',
            required: ['detail'],
            properties: { detail: { type: 'string' }, password_required: { type: 'boolean' } },
          },
        },
      },
    },
    async (request, reply) => {
      const outcome = await auth.verifyEmail(request.body.token, request.body.password || undefined);
      if (outcome.status === 'password_required') {
        return reply.code(422).send({ detail: translate(request.language, outcome.key), password_required: true });
      }
      return { detail: translate(request.language, 'auth.emailVerified') };
    },
  );

  app.post(
    '/verify-email/resend',
    { preHandler: [requireUser, throttle('verify')], schema: { response: { 202: detailSchema, ...errorResponses } } },
    async (request, reply) => {
      await auth.resendVerification(request.user, request.language);
      return reply
        .code(202)
        .send({ detail: translate(request.language, 'auth.verificationSent', { email: request.user.email }) });
    },
  );

  app.put(
    '/password',
    {
      preHandler: requireUser,
      schema: {
        body: {
          type: 'object',
          required: ['current_password', 'new_password'],
          additionalProperties: false,
          properties: { current_password: str(1024), new_password: str(1024) },
        },
        response: {
          200: {
            ...authResultSchema,
            required: [...authResultSchema.required, 'detail'],
            properties: { ...authResultSchema.properties, detail: { type: 'string' } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => ({
      ...(await auth.changePassword(request.user, request.body, clientOf(request))),
      detail: translate(request.language, 'auth.passwordChanged'),
    }),
  );

  // Settings, danger zone: the account and everything in it; the password confirms it.
  app.delete(
    '/account',
    {
      preHandler: requireUser,
      schema: {
        body: { type: 'object', required: ['password'], additionalProperties: false, properties: { password: str(1024) } },
        response: { 200: detailSchema, ...errorResponses },
      },
    },
    async (request) => {
      await account.remove(request.user, request.body.password);
      return { detail: translate(request.language, 'auth.accountDeleted') };
    },
  );

  app.post(
    '/reset-password',
    {
      preHandler: throttle('reset'),
      schema: {
        body: { type: 'object', required: ['email'], additionalProperties: false, properties: { email: str(320) } },
        response: { 202: detailSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await auth.requestPasswordReset(request.body.email, request.language);
      return reply.code(202).send({ detail: translate(request.language, 'auth.resetSent') });
    },
  );

  app.post(
    '/reset-password/confirm',
    {
      schema: {
        body: resetPasswordBody,
        response: {
          200: {
            type: 'object',
            required: ['detail', 'urls_cleared'],
            additionalProperties: false,
            properties: {
              detail: { type: 'string' },
              // The reset cleared the account's webhook or model, speech and image server addresses (docs/security.md).
              urls_cleared: { type: 'boolean' },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { urlsCleared } = await auth.resetPassword(request.body);
      return {
        detail: translate(request.language, urlsCleared ? 'auth.passwordResetUrlsCleared' : 'auth.passwordReset'),
        urls_cleared: urlsCleared,
      };
    },
  );

  // Settings › Security: the account's signed-in devices, the caller's marked `current`.
  app.get(
    '/sessions',
    {
      preHandler: requireUser,
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['sessions'],
            additionalProperties: false,
            properties: { sessions: { type: 'array', items: sessionSchema } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => ({ sessions: await auth.listSessions(request.user, request.sessionId) }),
  );

  // Signs one of the caller's own sessions out (404 for anyone else's); the caller's own is signing out.
  app.delete(
    '/sessions/:id',
    { preHandler: requireUser, schema: { params: idParams, response: { 204: { type: 'null' }, ...errorResponses } } },
    async (request, reply) => {
      await auth.revokeSession(request.user, request.params.id);
      return reply.code(204).send();
    },
  );

  // "Sign out everywhere else": every session of the account but the caller's.
  app.post(
    '/sessions/revoke-others',
    {
      preHandler: requireUser,
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['detail', 'revoked'],
            additionalProperties: false,
            properties: { detail: { type: 'string' }, revoked: { type: 'integer', minimum: 0 } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const revoked = await auth.revokeOtherSessions(request.user, request.sessionId);
      return { detail: translate(request.language, 'auth.otherSessionsRevoked', { count: revoked }), revoked };
    },
  );
}
