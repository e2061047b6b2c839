import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { Config } from './config';
import type { Database } from './db';
import { AppError } from './errors';
import { languageFrom, translate, type Language } from './messages';
import { createServices, type Services } from './services';
import type { Queue } from './queue';
import type { Mailer } from './providers/mailer';
import { logMailer, smtpMailer } from './providers/mailer';
import type { User } from './services/auth';
import { registerApiRoutes } from './routes';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    config: Config;
  }
  interface FastifyRequest {
    /** pt or en, from Accept-Language: the language of `detail` messages. */
    language: Language;
    /** The signed-in user, set by the `authenticate` pre-handler. */
    user: User;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  queue?: Queue;
  mailer?: Mailer;
  /** Fastify logger option; defaults to pino at config.logLevel. */
  logger?: boolean | { level: string };
  now?: () => Date;
  /** Replaces the queue's enqueue of executions (tests run the engine by hand). */
  enqueue?: (executionId: string) => Promise<string | null>;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** JSON answers above this size are compressed (gzip or brotli, by Accept-Encoding). */
export const COMPRESS_THRESHOLD_BYTES = 1024;
/** A file name with a content hash (assets/main.0123456789ab.js): its content never changes. */
const HASHED_ASSET = /\.[0-9a-f]{8,}\.(js|css|woff2?|svg|png|jpg)(\.(br|gz))?$/;

function detail(request: FastifyRequest, error: AppError): string {
  return translate(request.language ?? 'en', error.key, error.params);
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: false,
        allowUnionTypes: true,
      },
    },
  });

  const mailer =
    options.mailer ??
    (config.smtpUrl ? smtpMailer(config.smtpUrl, `no-reply@${new URL(config.publicUrl).hostname}`) : logMailer(app.log));
  app.decorate('config', config);
  app.decorate(
    'services',
    createServices({
      db: options.database.db,
      config,
      mailer,
      queue: options.queue,
      now: options.now,
      ...(options.enqueue ? { enqueue: options.enqueue } : {}),
    }),
  );
  // A statistics refresh asked for without a queue runs here: let it finish before the database goes.
  app.addHook('onClose', () => app.services.publications.drain());
  // The embedded database tells this (its only) server of every user change: sessions are read from memory.
  if (options.database.watchUsers) {
    const stop = await app.services.auth.followUserChanges(options.database.watchUsers);
    app.addHook('onClose', stop);
  }
  app.decorateRequest('language', 'en');
  app.decorateRequest('user', null as unknown as User);
  app.addHook('onRequest', async (request) => {
    request.language = languageFrom(request.headers['accept-language']);
  });

  // JSON only: other content types answer 415 instead of reaching the schema as strings.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const wantsApp = (request.method === 'GET' || request.method === 'HEAD') && !url.startsWith('/api/');
    if (wantsApp && hasWebApp(config.webDir) && !path.extname(url)) {
      // History fallback: client-side routes load the app shell.
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html');
    }
    const error = new AppError(404, 'common.routeNotFound', { method: request.method, url });
    return reply.code(404).send({ detail: detail(request, error) });
  });

  // API answers above the threshold go compressed; brotli at a low quality keeps it cheap per request.
  // Static assets are compressed at build time instead (preCompressed below), and media never.
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    customTypes: /^(application\/json|text\/csv)/,
  });
  await app.register(registerApiRoutes, { prefix: '/api/v1' });

  if (hasWebApp(config.webDir)) {
    await app.register(fastifyStatic, {
      root: config.webDir,
      wildcard: true,
      index: ['index.html'],
      cacheControl: false,
      // The build writes .br and .gz beside each asset: served as they are, by Accept-Encoding.
      preCompressed: true,
      // Source maps stay on the server's disk (for whoever debugs there), never on the wire.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      setHeaders(res, filePath) {
        // Hashed bundles are immutable; the shell must be revalidated.
        if (HASHED_ASSET.test(filePath)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else res.setHeader('cache-control', 'no-cache');
      },
    });
  } else {
    // Lets reply.sendFile exist even before the web app is built.
    await app.register(fastifyStatic, { root: config.webDir, serve: false });
  }

  return app;
}

function hasWebApp(webDir: string): boolean {
  return fs.existsSync(path.join(webDir, 'index.html'));
}

function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    return reply
      .code(error.statusCode)
      .headers(error.headers)
      .send({ detail: detail(request, error) });
  }
  if (error.validation) {
    const reason = error.message.replace(/^(body|querystring|params|headers)\//, '$1.');
    return reply.code(400).send({ detail: detail(request, new AppError(400, 'common.invalidRequest', { reason })) });
  }
  const known: Record<string, [number, AppError['key']]> = {
    FST_ERR_CTP_BODY_TOO_LARGE: [413, 'common.bodyTooLarge'],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'common.unsupportedMediaType'],
    FST_ERR_CTP_INVALID_JSON_BODY: [400, 'common.invalidJson'],
    FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'common.invalidJson'],
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'common.invalidJson'],
  };
  const mapped = error.code ? known[error.code] : undefined;
  if (mapped) return reply.code(mapped[0]).send({ detail: detail(request, new AppError(mapped[0], mapped[1])) });
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
    return reply.code(400).send({ detail: detail(request, new AppError(400, 'common.invalidJson')) });
  }
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status < 500) return reply.code(status).send({ detail: error.message });
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send({ detail: detail(request, new AppError(500, 'common.internal')) });
}
