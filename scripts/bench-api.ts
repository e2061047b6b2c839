/**
 * `npm run bench:api`: API latency and throughput on a realistic volume.
 *
 * 1. 100,000 publications of one user (two years of history): p50/p95 latency of the filtered
 *    history — search + status + period, as the History page asks it — over HTTP, auth included.
 *    Targets: p95 ≤ 50 ms on PGlite, ≤ 20 ms on PostgreSQL.
 * 2. GET /processes/ answering 100 processes, against a bare Fastify route answering the same
 *    JSON, in the same run and the same way (HTTP keep-alive, 8 concurrent clients, 5 s each).
 *    Target: at least 0.5x the bare route's requests per second. The route serves its JSON from a
 *    cache keyed by the user's data version (docs/server.md, "Read caches"), as in production; the
 *    cost of a request right after a change (a cache miss) is printed too.
 *
 * The database is PGlite in a temporary folder, or the PostgreSQL server of DATABASE_URL (the npm
 * script runs both: `scripts/with-postgres.sh` starts a throwaway server for the second run).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { openDatabase } from '../server/src/db';
import { memoryMailer } from '../server/src/providers/mailer';

const PUBLICATIONS = 100_000;
const PROCESSES = 100;
const LATENCY_REQUESTS = 300;
const CONCURRENCY = 8;
const THROUGHPUT_SECONDS = 5;
const BUILTIN_DRAMA = '5ebd8341-10e8-4ab7-85f4-5694d6a6f88b';
const HELENA = '387bfe25-192a-4eb3-aa8b-be1f9e202b9a';

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function get(port: number, pathname: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: pathname, agent, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Requests per second of CONCURRENCY clients hammering one path for THROUGHPUT_SECONDS. */
async function throughput(port: number, pathname: string, token?: string): Promise<number> {
  const deadline = performance.now() + THROUGHPUT_SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const { status } = await get(port, pathname, token);
        if (status !== 200) throw new Error(`${pathname} answered ${status}`);
        done += 1;
      }
    }),
  );
  return done / THROUGHPUT_SECONDS;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const kind = databaseUrl ? 'PostgreSQL' : 'PGlite';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
  const database = databaseUrl
    ? await openDatabase({ databaseUrl })
    : await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIR: path.join(dataDir, 'no-web'),
    // The bench's clients are one address hammering the API: keep the per-address ceiling (its cost
    // is part of every answer) but high enough not to refuse them.
    API_RATE_LIMIT_PER_MINUTE: '1000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const app = await buildApp({ config, database, mailer: memoryMailer(), logger: false, enqueue: async () => null });
  const bare = Fastify({ logger: false });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const inject = async (method: 'POST' | 'GET', url: string, body: unknown, token?: string) => {
      const response = await app.inject({
        method,
        url: `/api/v1${url}`,
        payload: body as object,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      if (response.statusCode >= 400) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    const email = `bench-${crypto.randomBytes(4).toString('hex')}@example.com`;
    const { access_token: token, user } = await inject('POST', '/auth/register', {
      name: 'Bench',
      email,
      password: 'bench-secret',
      plan: 'monthly',
    });

    // 100 processes with their channel and configuration.
    const channel = await inject('POST', '/channels/', { channel_id: 'UC_bench_api', name: 'Bench' }, token);
    const youtubeApi = await inject(
      'POST',
      '/youtube-apis/',
      { name: 'Bench', channel_id: 'UC_bench_api', client_id: 'b.apps.googleusercontent.com', client_secret: 'GOCSPX-b' },
      token,
    );
    for (let i = 0; i < PROCESSES; i += 1) {
      await inject(
        'POST',
        '/processes/',
        {
          name: `Process ${i}`,
          channel_id: channel.id,
          youtube_api_id: youtubeApi.id,
          prompt_id: BUILTIN_DRAMA,
          language: 'pt',
          voice_id: HELENA,
        },
        token,
      );
    }

    // 100,000 publications over two years, in one statement.
    const seeded = performance.now();
    await database.db.execute(sql`
      insert into publications (user_id, channel_id, video_title, search_title, video_id, published_at, views, likes, status, visibility, created_at, updated_at)
      select ${user.id}::uuid, ${channel.id}::uuid,
        t.title, lower(t.title), 'vid' || i, now() - (i % 730) * interval '1 day' - (i % 1440) * interval '1 minute',
        (i * 37) % 5000, (i * 7) % 300,
        case when i % 10 = 0 then 'failed' when i % 5 = 0 then 'processing' else 'published' end,
        case when i % 5 = 0 then 'private' else 'public' end,
        now() - (i % 730) * interval '1 day', now()
      from generate_series(1, ${PUBLICATIONS}) as i,
        lateral (select (array['A carta', 'O segredo', 'A herança', 'O retrato', 'A promessa', 'O silêncio', 'A gaveta', 'O nome'])[1 + i % 8]
          || ' ' || (array['da avó', 'do tio', 'esquecida', 'de família', 'perdida'])[1 + (i / 8) % 5] || ' ' || i as title) t`);
    await database.db.execute(sql`analyze publications`);
    const seedSeconds = (performance.now() - seeded) / 1000;

    // 1. The filtered history.
    const query = '/api/v1/publications/?search=segredo&status=published&date_range=30&limit=25';
    const first = await get(port, query, token);
    const matched = (JSON.parse(first.body) as { total: number }).total;
    for (let i = 0; i < 20; i += 1) await get(port, query, token);
    const times: number[] = [];
    for (let i = 0; i < LATENCY_REQUESTS; i += 1) {
      const started = performance.now();
      const { status } = await get(port, query, token);
      times.push(performance.now() - started);
      if (status !== 200) throw new Error(`history answered ${status}`);
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const p95 = percentile(times, 95);
    const target = databaseUrl ? 20 : 50;

    // 2. GET /processes/ against a bare route answering the same JSON.
    const listed = await get(port, '/api/v1/processes/', token);
    const payload = JSON.parse(listed.body) as unknown;
    bare.get('/bare', async () => payload);
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const barePort = (bare.server.address() as AddressInfo).port;
    await throughput(barePort, '/bare');
    await throughput(port, '/api/v1/processes/', token);
    const bareRate = await throughput(barePort, '/bare');
    const ourRate = await throughput(port, '/api/v1/processes/', token);
    const ratio = ourRate / bareRate;
    // The list is kept per data version (users.data_version): what a request costs right after a change.
    const cold: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      await database.db.execute(sql`update users set data_version = data_version + 1 where id = ${user.id}`);
      const started = performance.now();
      await get(port, '/api/v1/processes/', token);
      cold.push(performance.now() - started);
    }
    cold.sort((a, b) => a - b);

    const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    console.log(`bench:api on ${kind} (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)})`);
    console.log(`seeded ${PUBLICATIONS.toLocaleString('en')} publications in ${seedSeconds.toFixed(1)} s`);
    console.log(`filtered history (search + status + period, ${matched} matches, page of 25), ${LATENCY_REQUESTS} requests:`);
    console.log(`  p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms  (target p95 ≤ ${target} ms: ${verdict(p95 <= target)})`);
    console.log(
      `GET /processes/ (${PROCESSES} rows, ${(listed.body.length / 1024).toFixed(0)} KB), ${CONCURRENCY} clients × ${THROUGHPUT_SECONDS} s:`,
    );
    console.log(
      `  ours ${ourRate.toFixed(0)} req/s, bare route ${bareRate.toFixed(0)} req/s: ${ratio.toFixed(2)}x  (target ≥ 0.5x: ${verdict(ratio >= 0.5)})`,
    );
    console.log(
      `  right after a change (the cached list made again): p50 ${percentile(cold, 50).toFixed(1)} ms, p95 ${percentile(cold, 95).toFixed(1)} ms`,
    );
  } finally {
    agent.destroy();
    await bare.close();
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
