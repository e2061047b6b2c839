/**
 * `npm run bench:scale`: the scheduler with ten thousand processes on one PostgreSQL (issue 20).
 *
 * Against a throwaway PostgreSQL (scripts/with-postgres.sh sets DATABASE_URL): the fakes of
 * `npm run fakes` in this process (Google/YouTube, and an OpenAI API that refuses every key once the
 * processes exist, so a run fails at its first call and no media work is timed), the API in its own
 * process (RUN_JOBS=false) and worker processes, both run from server/dist as `npm start` and
 * `npm run worker` run them (built first when the sources changed). It creates USERS users with PER_USER
 * active processes each through the API, then makes bursts of processes due with SQL (times with
 * microseconds, as a migration or a restore writes them) and lets the workers' scheduler take them:
 *
 *   1. 1,000 due, one worker: claim time, drain rate (runs a second);
 *   2. 1,000 due, two workers: claim time, drain rate;
 *   3. every process due (10,000), two workers: claim time; the recovery query's time with the
 *      runs queued (the chat model holds the two running ones meanwhile); the drain; GET /processes/
 *      p95 during the burst; the API's and the workers' RSS; duplicate runs per slot.
 *
 * It prints the figures with the issue's targets and exits 1 when duplicates are found.
 * Settings (environment): USERS (100), PER_USER (100), WORKER_CONCURRENCY (1).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startFakeGoogle } from '../server/fakes/google';
import { startFakeOpenAI } from '../server/fakes/openai';
import { openDatabase } from '../server/src/db';
import { QUEUE_SCHEMA } from '../server/src/queue';
import { createExecutionRunService } from '../server/src/services/executionRuns';
import { BUILTIN_DRAMA, HELENA, apiClient, clusterEnv, freePort, sleep, stamp, startApi, startProgram } from './lib/programs';

const USERS = Number(process.env.USERS ?? 100);
const PER_USER = Number(process.env.PER_USER ?? 100);
const CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? 1);
const SMALL_BURST = Math.min(1000, USERS * PER_USER);

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The machine's CPU time so far (all cores): busy and total jiffies, from /proc/stat (Linux). */
function cpuTimes(): { busy: number; total: number } {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** How busy the machine's cores were between two readings, in percent. */
const busyPercent = (before: ReturnType<typeof cpuTimes>, after: ReturnType<typeof cpuTimes>) =>
  after.total > before.total ? (100 * (after.busy - before.busy)) / (after.total - before.total) : 0;

/** Milliseconds of CPU a process used so far (utime + stime of /proc/<pid>/stat; 0 when gone or not Linux). */
function processCpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of the line, counted from the state (field 3); in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Every PostgreSQL server process (the postmaster, its backends and helpers) now running. */
function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of fs.existsSync('/proc') ? fs.readdirSync('/proc') : []) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

type CpuSplit = { workers: number; postgres: number; api: number; bench: number };

/** CPU used so far, in ms, by the workers, PostgreSQL, the API and this script (the fakes run here). */
function cpuSplit(
  workerPids: Array<number | undefined>,
  apiPid: number | undefined,
): { at: CpuSplit; pids: Map<number, number> } {
  const pids = new Map<number, number>();
  for (const pid of postgresPids()) pids.set(pid, processCpuMs(pid));
  const at = {
    workers: workerPids.reduce((sum: number, pid) => sum + processCpuMs(pid), 0),
    postgres: [...pids.values()].reduce((sum, ms) => sum + ms, 0),
    api: processCpuMs(apiPid),
    bench: processCpuMs(process.pid),
  };
  return { at, pids };
}

/** What each part cost a run between two readings, in ms of CPU (PostgreSQL: its processes alive at both). */
function cpuPerRun(before: ReturnType<typeof cpuSplit>, after: ReturnType<typeof cpuSplit>, runs: number): string {
  let postgres = 0;
  for (const [pid, ms] of after.pids) postgres += ms - (before.pids.get(pid) ?? 0);
  const per = (ms: number) => (runs > 0 ? ms / runs : 0).toFixed(1);
  return `CPU a run: workers ${per(after.at.workers - before.at.workers)} ms, PostgreSQL ${per(postgres)} ms, API ${per(after.at.api - before.at.api)} ms, this script and the fakes ${per(after.at.bench - before.at.bench)} ms`;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Runs `task` over `items` with `parallel` at once. */
async function inParallel<T>(items: T[], parallel: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        await task(item);
      }
    }),
  );
}

/** The scheduler's own report of each claim in the workers' logs, logged at `sinceMs` or later. */
function claimsLogged(logFiles: string[], sinceMs: number): Array<{ claimed: number; claimMs: number }> {
  const claims: Array<{ claimed: number; claimMs: number }> = [];
  for (const file of logFiles) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('scheduler claimed due processes')) continue;
      try {
        const entry = JSON.parse(line) as { time: number; claimed: number; claimMs: number };
        if (entry.time >= sinceMs) claims.push({ claimed: entry.claimed, claimMs: entry.claimMs });
      } catch {
        // not a JSON line
      }
    }
  }
  return claims;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run through `npm run bench:scale` (scripts/with-postgres.sh)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-scale-'));
  const logDir = path.join(dataDir, 'logs');
  fs.mkdirSync(logDir);

  let refuseKeys = false;
  const openai = await startFakeOpenAI({ rejectKey: () => refuseKeys });
  const google = await startFakeGoogle();
  google.addClient('scale.apps.googleusercontent.com', 'GOCSPX-scale');

  const apiPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...clusterEnv({ databaseUrl, dataDir, apiPort, openaiUrl: openai.url, google }),
    WORKER_CONCURRENCY: String(CONCURRENCY),
    AUTH_RATE_LIMIT_PER_HOUR: '100000',
    // Sign-ups are not what is measured: the cheapest cost the server accepts.
    PASSWORD_HASH_COST: '17',
  };

  const children = new Set<ChildProcess>();
  const killAll = () => {
    for (const child of children) child.kill('SIGKILL');
  };
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      killAll();
      process.exit(130);
    });

  const apiLog = path.join(logDir, 'api.log');
  const { api, base } = await startApi(env, apiPort, apiLog, 'built');
  children.add(api);
  console.log(`${stamp()}  API on ${base}, PostgreSQL ${databaseUrl.replace(/\/\/[^@]*@/, '//')}`);

  const request = apiClient(base).ok;

  // 1. USERS users x PER_USER active processes, through the API.
  const createdAt = performance.now();
  const tokens: string[] = [];
  await inParallel(
    Array.from({ length: USERS }, (_, i) => i),
    8,
    async (i) => {
      const channelId = `UCscale${String(i).padStart(17, '0')}`;
      const account = google.addAccount([
        { id: channelId, title: `Scale ${i}`, subscriberCount: 0, videoCount: 0, viewCount: 0 },
      ]);
      const { access_token: token } = await request('POST', '/auth/register', {
        name: `Scale ${i}`,
        email: `scale-${i}@example.com`,
        password: 'scale-bench-123',
        plan: 'annual',
      });
      tokens.push(token);
      await request('POST', '/chatgpt/config', { api_key: `sk-scale-${i}-0123456789abcdef` }, token);
      const channel = await request('POST', '/channels/', { channel_id: channelId, name: `Scale ${i}` }, token);
      const youtube = await request(
        'POST',
        '/youtube-apis/',
        {
          name: `Scale ${i}`,
          channel_id: channelId,
          client_id: 'scale.apps.googleusercontent.com',
          client_secret: 'GOCSPX-scale',
          refresh_token: google.issueRefreshToken('scale.apps.googleusercontent.com', account),
        },
        token,
      );
      for (let p = 0; p < PER_USER; p += 1) {
        await request(
          'POST',
          '/processes/',
          {
            name: `Scale ${i}-${p}`,
            channel_id: channel.id,
            youtube_api_id: youtube.id,
            prompt_id: BUILTIN_DRAMA,
            language: 'pt',
            voice_id: HELENA,
            is_active: true,
          },
          token,
        );
      }
    },
  );
  const creationSeconds = (performance.now() - createdAt) / 1000;
  console.log(`${stamp()}  ${USERS * PER_USER} processes of ${USERS} users created in ${creationSeconds.toFixed(1)} s`);
  refuseKeys = true;

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const database = await openDatabase({ databaseUrl, migrate: false, poolSize: 2 });
  const runs = createExecutionRunService({ db: database.db, now: () => new Date() });
  const count = async (text: string, values: unknown[] = []) => Number((await db.query(text, values)).rows[0].n);

  // Workers, started and stopped per phase.
  const workerLogs: string[] = [];
  const workers: ChildProcess[] = [];
  const startWorker = () => {
    const file = path.join(logDir, `worker-${workerLogs.length}.log`);
    workerLogs.push(file);
    const child = startProgram('server/src/worker/main.ts', env, file, 'built');
    children.add(child);
    child.on('exit', () => children.delete(child));
    workers.push(child);
  };
  const stopWorkers = async () => {
    await Promise.all(
      workers.splice(0).map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
  };
  const waitForWorkersReady = async (n: number) => {
    // A worker is ready once it logs that it runs jobs.
    for (let waited = 0; waited < 120_000; waited += 250) {
      const ready = workerLogs
        .slice(-n)
        .filter((file) => fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('Worker ready'));
      if (ready.length >= n) return;
      await sleep(250);
    }
  };

  /** Makes `n` processes due (or all), with a time that carries microseconds. */
  const makeDue = async (n?: number) => {
    await db.query(
      `update processes set next_execution = now() - interval '1.234567 seconds'
       where id in (select id from processes where is_active ${n ? 'order by random() limit ' + n : ''})`,
    );
  };

  /** Waits until the burst's runs (created after `since`) all ended; answers the drain figures. */
  /** Processes that got more than one run in a burst (each burst makes every process due once). */
  let duplicateRuns = 0;
  const countDuplicates = async (since: Date) => {
    duplicateRuns += await count(
      `select count(*)::int as n from (
         select process_id from executions where trigger = 'schedule' and created_at >= $1
         group by 1 having count(*) > 1) d`,
      [since],
    );
  };

  /**
   * Waits until the burst's runs (created after `since`) all ended; answers the drain rate: the runs
   * started from `from` on, over the time from `from` (default: the first start) to the last end.
   */
  const drain = async (since: Date, expected: number, timeoutMs: number, from?: Date) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ended = await count(
        `select count(*)::int as n from executions where created_at >= $1 and status not in ('queued', 'running')`,
        [since],
      );
      if (ended >= expected || Date.now() > deadline) break;
      await sleep(500);
    }
    const { rows } = await db.query(
      `select count(*)::int as n,
              extract(epoch from (max(finished_at) - coalesce($2::timestamptz, min(started_at))))::float as seconds
       from executions where created_at >= $1 and finished_at is not null
         and ($2::timestamptz is null or started_at >= $2::timestamptz)`,
      [since, from ?? null],
    );
    const n = Number(rows[0].n);
    const seconds = Number(rows[0].seconds) || 1;
    return { runs: n, seconds, rate: n / seconds };
  };

  const burst = async (label: string, n: number | undefined, expected: number, workerCount: number) => {
    await stopWorkers();
    for (let i = 0; i < workerCount; i += 1) startWorker();
    await waitForWorkersReady(workerCount);
    const sinceMs = Date.now();
    const since = new Date((await db.query('select now() as t')).rows[0].t);
    await makeDue(n);
    // The claim: the scheduler's next tick in each worker (every 15 s on the clock).
    for (let waited = 0; waited < 60_000; waited += 250) {
      const claimed = claimsLogged(workerLogs, sinceMs).reduce((sum, claim) => sum + claim.claimed, 0);
      if (claimed >= expected) break;
      await sleep(250);
    }
    const claims = claimsLogged(workerLogs, sinceMs);
    const claimMs = Math.max(0, ...claims.map((claim) => claim.claimMs));
    const claimed = claims.reduce((sum, claim) => sum + claim.claimed, 0);
    console.log(`${stamp()}  ${label}: ${claimed} claimed by ${claims.length} tick(s), slowest ${claimMs} ms`);
    return { since, claimMs, claimed };
  };

  // 2. 1,000 due with one worker, then with two.
  const workerPids = () => workers.map((child) => child.pid);
  const one = await burst('burst of 1,000, one worker', SMALL_BURST, SMALL_BURST, 1);
  let cpu = cpuTimes();
  let split = cpuSplit(workerPids(), api.pid);
  const oneDrain = await drain(one.since, SMALL_BURST, 600_000);
  const oneBusy = busyPercent(cpu, cpuTimes());
  const oneSplit = cpuPerRun(split, cpuSplit(workerPids(), api.pid), oneDrain.runs);
  await countDuplicates(one.since);
  console.log(`${stamp()}  drained ${oneDrain.runs} runs at ${oneDrain.rate.toFixed(1)} runs/s`);
  const two = await burst('burst of 1,000, two workers', SMALL_BURST, SMALL_BURST, 2);
  cpu = cpuTimes();
  split = cpuSplit(workerPids(), api.pid);
  const twoDrain = await drain(two.since, SMALL_BURST, 600_000);
  const twoBusy = busyPercent(cpu, cpuTimes());
  const twoSplit = cpuPerRun(split, cpuSplit(workerPids(), api.pid), twoDrain.runs);
  await countDuplicates(two.since);
  console.log(`${stamp()}  drained ${twoDrain.runs} runs at ${twoDrain.rate.toFixed(1)} runs/s`);

  // 3. Every process due, two workers; the two running runs wait on the chat model meanwhile, so
  //    the others stay queued while the recovery query is timed.
  const total = USERS * PER_USER;
  openai.setDelay(45_000);
  const latencies: number[] = [];
  let measuring = true;
  const poller = (async () => {
    let i = 0;
    while (measuring) {
      const token = tokens[i++ % tokens.length]!;
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        http
          .get(
            {
              host: '127.0.0.1',
              port: apiPort,
              path: '/api/v1/processes/?limit=100',
              agent,
              headers: { authorization: `Bearer ${token}` },
            },
            (response) => {
              response.resume();
              response.on('end', () => resolve());
            },
          )
          .on('error', reject);
      });
      latencies.push(performance.now() - started);
      await sleep(20);
    }
  })();
  let peakApiRss = rssMb(api.pid);
  const rssTimer = setInterval(() => {
    peakApiRss = Math.max(peakApiRss, rssMb(api.pid));
  }, 500);
  const big = await burst(`burst of ${total}, two workers`, undefined, total, 2);
  // Wait until the tick has queued them all (or two minutes), then time the recovery query.
  for (let waited = 0; waited < 120_000; waited += 500) {
    const queued = await count(`select count(*)::int as n from executions where created_at >= $1`, [big.since]);
    if (queued >= total) break;
    await sleep(500);
  }
  const queuedNow = await count(`select count(*)::int as n from executions where status = 'queued'`);
  const recoveryTimes: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    const started = performance.now();
    await runs.orphans(new Date(Date.now() - 90_000), QUEUE_SCHEMA);
    recoveryTimes.push(performance.now() - started);
  }
  recoveryTimes.sort((a, b) => a - b);
  const recoveryMs = recoveryTimes[3]!;
  console.log(`${stamp()}  recovery query ${recoveryMs.toFixed(1)} ms (median of 7) with ${queuedNow} runs queued`);
  // The two runs held by the chat model meanwhile are not counted: the drain is timed from here.
  openai.setDelay(0);
  const released = new Date((await db.query('select now() as t')).rows[0].t);
  const bigDrain = await drain(big.since, total, 1_800_000, released);
  await countDuplicates(big.since);
  measuring = false;
  await poller;
  clearInterval(rssTimer);
  const workerRss = workers.map((child) => rssMb(child.pid));
  console.log(`${stamp()}  drained ${bigDrain.runs} runs at ${bigDrain.rate.toFixed(1)} runs/s`);

  const duplicates = duplicateRuns;
  const stillQueued = await count(`select count(*)::int as n from executions where status in ('queued', 'running')`);
  latencies.sort((a, b) => a - b);
  const p95 = percentile(latencies, 95);

  await stopWorkers();
  api.kill('SIGTERM');
  await db.end();
  await database.close();
  await openai.close();
  await google.close();

  const pass = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  console.log(`
Scheduler at scale (${USERS} users x ${PER_USER} processes, PostgreSQL, WORKER_CONCURRENCY=${CONCURRENCY}, ${os.cpus().length} cores shared by PostgreSQL, the API, the workers and this script)
  creation through the API            ${creationSeconds.toFixed(1)} s
  claim, ${SMALL_BURST} due (one worker)          ${one.claimMs} ms
  claim, ${SMALL_BURST} due (two workers)         ${two.claimMs} ms
  claim, ${total} due (two workers)        ${big.claimMs} ms   target <= 2000 ms  ${pass(big.claimMs <= 2000)}
  recovery query, ${queuedNow} queued        ${recoveryMs.toFixed(1)} ms   target <= 50 ms  ${pass(recoveryMs <= 50)}
  drain, one worker                   ${oneDrain.rate.toFixed(1)} runs/s  (cores ${oneBusy.toFixed(0)}% busy)
                                      ${oneSplit}
  drain, two workers                  ${twoDrain.rate.toFixed(1)} runs/s  (cores ${twoBusy.toFixed(0)}% busy; ${(twoDrain.rate / oneDrain.rate).toFixed(2)}x; target >= 2x ${pass(twoDrain.rate >= 2 * oneDrain.rate)})
                                      ${twoSplit}
                                      at most ${(100 / Math.max(oneBusy, 1)).toFixed(2)}x here: one worker's runs alone kept ${oneBusy.toFixed(0)}% of the ${os.cpus().length} cores busy
  drain, ${total} runs, two workers      ${bigDrain.rate.toFixed(1)} runs/s  (${bigDrain.runs} started after the queue filled)
  GET /processes/ p95 during the burst ${p95.toFixed(1)} ms over ${latencies.length} calls   target <= 20 ms  ${pass(p95 <= 20)}
  API RSS (peak)                      ${peakApiRss.toFixed(0)} MB
  worker RSS (at the end)             ${workerRss.map((mb) => `${mb.toFixed(0)} MB`).join(', ')}
  duplicate runs per slot (all bursts) ${duplicates}   target 0  ${pass(duplicates === 0)}
  runs left queued or running         ${stillQueued}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(duplicates === 0 ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
