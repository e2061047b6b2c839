import type { FastifyInstance } from 'fastify';
import { translate } from '../../messages';
import { bearer, requireUser, throttle } from '../guards';
import { typed } from '../typeProvider';
import { authResultSchema, detailSchema, errorResponses, userSchema } from '../schemas';

const str = (maxLength: number) => ({ type: 'string', maxLength }) as const;

export default async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const app = typed(fastify);
  const { auth, account } = app.services;

  app.post(
    '/register',
    {
      preHandler: throttle('signup'),
      schema: {
        body: {
          type: 'object',
          required: ['name', 'email', 'password'],
          additionalProperties: false,
          properties: {
            name: str(200),
            email: str(320),
            password: str(1024),
            plan: { type: 'string', enum: ['monthly', 'annual'] },
            time_zone: str(64),
          },
        },
        response: { 201: authResultSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await auth.register(request.body, request.language)),
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
    async (request) => auth.login(request.body, request.ip, request.language),
  );

  app.get('/me', { preHandler: requireUser, schema: { response: { 200: userSchema, ...errorResponses } } }, async (request) =>
    auth.me(request.user),
  );

  app.put(
    '/profile',
    {
      preHandler: requireUser,
      schema: {
        body: {
          type: 'object',
          required: ['name', 'email'],
          additionalProperties: false,
          properties: { name: str(200), email: str(320), time_zone: str(64), current_password: str(1024) },
        },
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
  app.post(
    '/verify-email',
    {
      schema: {
        body: { type: 'object', required: ['token'], additionalProperties: false, properties: { token: str(200) } },
        response: { 200: detailSchema, ...errorResponses },
      },
    },
    async (request) => {
      await auth.verifyEmail(request.body.token);
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
      ...(await auth.changePassword(request.user, request.body)),
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
        body: {
          type: 'object',
          required: ['token', 'new_password'],
          additionalProperties: false,
          properties: { token: str(200), new_password: str(1024) },
        },
        response: { 200: detailSchema, ...errorResponses },
      },
    },
    async (request) => {
      await auth.resetPassword(request.body);
      return { detail: translate(request.language, 'auth.passwordReset') };
    },
  );
}
