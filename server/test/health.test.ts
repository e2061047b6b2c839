import { startWorkerHealth } from '../src/worker/health';
import { buildTestApp, call, signUp } from './helper';

jest.setTimeout(60_000);

/** Health for orchestrators and metrics for Prometheus (docs/engine.md, "Health and metrics"). */

describe('the API’s health', () => {
  test('live answers while the process runs; ready answers 200 with what it checked', async () => {
    const ctx = await buildTestApp();
    try {
      const live = await call(ctx.app, 'GET', '/api/v1/health/live');
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
      const ready = await call(ctx.app, 'GET', '/api/v1/health/ready');
      expect(ready.statusCode).toBe(200);
      // Which tools, and their versions, only for an admin (http.test.ts).
      expect(ready.json()).toEqual({ status: 'ok', database: 'ok', queue: 'disabled' });
      expect(ready.json()).not.toHaveProperty('ready');
    } finally {
      await ctx.close();
    }
  });

  test('ready answers 503 with the reason while the database is unreachable; live still answers', async () => {
    const ctx = await buildTestApp();
    await ctx.database.close();
    try {
      const ready = await call(ctx.app, 'GET', '/api/v1/health/ready', { headers: { 'accept-language': 'pt-BR' } });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'degraded', database: 'unavailable' });
      expect(ready.json().detail).toBe('O servidor não está pronto: veja o que está indisponível');
      expect((await call(ctx.app, 'GET', '/api/v1/health')).json()).toMatchObject({
        status: 'degraded',
        database: 'unavailable',
      });
      expect((await call(ctx.app, 'GET', '/api/v1/health/live')).statusCode).toBe(200);
    } finally {
      await ctx.app.close().catch(() => undefined);
    }
  });
});

describe('metrics', () => {
  test('are not served unless METRICS=true', async () => {
    const ctx = await buildTestApp();
    try {
      expect((await call(ctx.app, 'GET', '/metrics')).statusCode).toBe(404);
    } finally {
      await ctx.close();
    }
  });

  test('need the token when one is set, and count requests by route pattern, never by raw URL', async () => {
    const ctx = await buildTestApp({ METRICS: 'true', METRICS_TOKEN: 'metrics-token-0123456789' });
    try {
      const { token } = await signUp(ctx.app);
      await call(ctx.app, 'GET', '/api/v1/executions/5f0c6a38-3a55-4a0e-9f3b-0f6f7f9a1b2c', { token });
      expect((await call(ctx.app, 'GET', '/metrics')).statusCode).toBe(401);
      expect(
        (await call(ctx.app, 'GET', '/metrics', { headers: { authorization: 'Bearer metrics-token-012345678' } })).statusCode,
      ).toBe(401);
      const served = await call(ctx.app, 'GET', '/metrics', { headers: { authorization: 'Bearer metrics-token-0123456789' } });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toMatch(/^text\/plain/);
      expect(served.body).toMatch(
        /storyflow_http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/executions\/:id"[^}]*status_code="404"/,
      );
      expect(served.body).not.toContain('5f0c6a38');
      expect(served.body).toContain('storyflow_executions_total');
      expect(served.body).toContain('storyflow_youtube_quota_units_total');
      expect(served.body).toContain('storyflow_process_resident_memory_bytes');
    } finally {
      await ctx.close();
    }
  });
});

describe('a worker’s health port', () => {
  test('answers live, ready, and metrics with the token; nothing else', async () => {
    const ctx = await buildTestApp();
    const health = await startWorkerHealth({
      services: ctx.app.services,
      port: 0,
      host: '127.0.0.1',
      metrics: true,
      metricsToken: 'worker-token',
    });
    const base = `http://127.0.0.1:${health.port}`;
    try {
      expect(await (await fetch(`${base}/health/live`)).json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${base}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok', database: 'ok', queue: 'disabled' });
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      const metrics = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer worker-token' } });
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('storyflow_step_duration_seconds');
      expect((await fetch(`${base}/anything`)).status).toBe(404);
      expect((await fetch(`${base}/health/live`, { method: 'POST' })).status).toBe(405);

      await ctx.database.close();
      const down = await fetch(`${base}/health/ready`);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ database: 'unavailable', detail: 'The worker is not ready' });
    } finally {
      await health.close();
      await ctx.app.close().catch(() => undefined);
    }
  });
});
