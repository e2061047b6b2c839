import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsAuthorized } from '../lib/metrics';
import type { Services } from '../services';

/**
 * `npm run worker`'s small HTTP port (WORKER_HEALTH_PORT): /health/live (the process answers),
 * /health/ready (200, or 503 while the database is unreachable, the queue stopped or a media tool
 * missing) and, with METRICS=true, /metrics. JSON like the API's health answers.
 */
export async function startWorkerHealth(options: {
  services: Services;
  port: number;
  host: string;
  metrics: boolean;
  metricsToken?: string | undefined;
}): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://worker');
    const json = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    void (async () => {
      if (request.method !== 'GET') return json(405, { detail: 'Method not allowed' });
      if (url.pathname === '/health/live') return json(200, { status: 'ok' });
      if (url.pathname === '/health/ready') {
        // No sessions here: the short answer, as the API gives anyone but an admin (no tools, no versions).
        const { ready, media: _media, ...health } = await options.services.health();
        return json(ready ? 200 : 503, ready ? health : { ...health, detail: 'The worker is not ready' });
      }
      if (url.pathname === '/metrics' && options.metrics) {
        if (!metricsAuthorized(request.headers.authorization, options.metricsToken)) {
          return json(401, { detail: 'Not authenticated' });
        }
        const { registry } = options.services.metrics;
        response.writeHead(200, { 'content-type': registry.contentType });
        return response.end(await registry.metrics());
      }
      return json(404, { detail: 'Not found' });
    })().catch(() => json(500, { detail: 'Internal server error' }));
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
