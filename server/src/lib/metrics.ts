import { timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics (METRICS=true serves them at /metrics, on the API and on a worker's health
 * port). One registry per app, so tests can build many apps in one process. docs/engine.md,
 * "Health and metrics".
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  executions: Counter<'outcome'>;
  stepDuration: Histogram<'step'>;
  providerErrors: Counter<'provider' | 'kind'>;
  youtubeQuotaUnits: Counter<'operation'>;
  queueDepth: Gauge<'queue'>;
  unhandledRejections: Counter;
}

export function createMetrics(options: { queueDepth?: () => Promise<Record<string, number>> } = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'storyflow_' });
  const queueDepth = new Gauge({
    name: 'storyflow_queue_depth',
    help: 'Jobs waiting in each queue (created or retrying)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      if (!options.queueDepth) return;
      const depths = await options.queueDepth().catch(() => ({}) as Record<string, number>);
      for (const [queue, size] of Object.entries(depths)) this.set({ queue }, size);
    },
  });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'storyflow_http_request_duration_seconds',
      help: 'API requests by route and status',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    executions: new Counter({
      name: 'storyflow_executions_total',
      help: 'Runs that ended, by outcome (completed, error, awaiting_review, handed_back, lost, database_unavailable)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    stepDuration: new Histogram({
      name: 'storyflow_step_duration_seconds',
      help: 'Duration of each step of a run',
      labelNames: ['step'] as const,
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 1800],
      registers: [registry],
    }),
    providerErrors: new Counter({
      name: 'storyflow_provider_errors_total',
      help: 'Failed calls to outside services, by provider and kind',
      labelNames: ['provider', 'kind'] as const,
      registers: [registry],
    }),
    youtubeQuotaUnits: new Counter({
      name: 'storyflow_youtube_quota_units_total',
      help: 'YouTube Data API quota units spent, by operation',
      labelNames: ['operation'] as const,
      registers: [registry],
    }),
    queueDepth,
    unhandledRejections: new Counter({
      name: 'storyflow_unhandled_rejections_total',
      help: 'Promises rejected with nobody handling them: logged and counted, never fatal',
      registers: [registry],
    }),
  };
}

/**
 * Keeps a process alive through a promise nobody handled (a database that went away under a
 * library's feet): it is logged and counted, never fatal (Node's default would end the process).
 * An uncaught exception still ends it: the process state is unknown then (docs/engine.md).
 */
export function survivePromiseRejections(
  log: { error(object: object, message: string): void },
  counter: Pick<Counter, 'inc'> | undefined,
): void {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'a promise was rejected and nobody handled it; the process goes on');
    counter?.inc();
  });
}

/** The provider and kind of a run's failure, by its message key; undefined for failures that are not a provider's. */
export function providerErrorOf(
  key: string,
  params: Record<string, string | number> = {},
): { provider: string; kind: string } | undefined {
  const service = typeof params.service === 'string' ? params.service.toLowerCase() : undefined;
  switch (key) {
    case 'pipeline.keyRefused':
      return { provider: service ?? 'chat', kind: 'invalid_key' };
    case 'pipeline.quota':
      return { provider: service ?? 'openai', kind: 'quota' };
    case 'pipeline.textsFailed':
    case 'pipeline.storyFailed':
      return { provider: 'chat', kind: 'api_error' };
    case 'pipeline.audioFailed':
      return { provider: 'speech', kind: 'api_error' };
    case 'pipeline.imageFailed':
      return { provider: 'images', kind: 'api_error' };
    case 'pipeline.youtubeQuota':
      return { provider: 'youtube', kind: 'quota' };
    case 'pipeline.youtubeRevoked':
      return { provider: 'youtube', kind: 'invalid_grant' };
    case 'pipeline.uploadLimit':
      return { provider: 'youtube', kind: 'upload_limit' };
    case 'pipeline.uploadFailed':
      return { provider: 'youtube', kind: 'api_error' };
    case 'pipeline.addressNotAllowed':
      return { provider: 'chat', kind: 'blocked' };
    default:
      return undefined;
  }
}

/** Whether an Authorization header carries the metrics token (compared in constant time); true when no token is set. */
export function metricsAuthorized(header: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
