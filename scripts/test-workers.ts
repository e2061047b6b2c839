/**
 * `npm run test:workers`: exactly once with several workers, under SIGKILL (docs/engine.md, "Leases").
 *
 * Against a throwaway PostgreSQL (scripts/with-postgres.sh sets DATABASE_URL): the fakes of
 * `npm run fakes` (the OpenAI API and Google/YouTube, in this process so their records can be read),
 * the API in its own process with RUN_JOBS=false, and WORKERS `npm run worker` processes. It creates
 * PROCESSES processes and runs them, again and again, while it kills a random worker with SIGKILL
 * every few seconds and starts it again, KILLS times or more (every fourth stop is a SIGTERM
 * instead, a graceful stop that hands the run back). Then it waits for every run to end
 * and checks: every execution ended (completed, or error with a message), none is left running, no
 * execution has more than one video on the fake YouTube, every upload belongs to a run, and every
 * completed execution has its video there. It prints the counts and exits 1 when a check fails.
 *
 * Everything is bounded: the kills must be done within KILL_SECONDS (runs that all end at once, with
 * nothing to kill, are a failure, not a reason to start rounds forever), the runs must end
 * within SETTLE_SECONDS after, and a watchdog ends the script with its logs after WATCHDOG_SECONDS.
 * A worker that exits on its own (not killed or stopped here) is a failure, and is started again.
 *
 * Settings (environment): WORKERS (3), PROCESSES (5), KILLS (12), KILL_SECONDS (600),
 * SETTLE_SECONDS (420), WATCHDOG_SECONDS (1200).
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startFakeGoogle } from '../server/fakes/google';
import { startFakeOpenAI } from '../server/fakes/openai';
import { createStoryResponder } from '../server/fakes/storyResponder';
import { apiClient, clusterEnv, freePort, readyUser, sleep, stamp, startApi, startProgram, tail } from './lib/programs';

const WORKERS = Number(process.env.WORKERS ?? 3);
const PROCESSES = Number(process.env.PROCESSES ?? 5);
const KILLS = Number(process.env.KILLS ?? 12);
const SETTLE_MS = Number(process.env.SETTLE_SECONDS ?? 420) * 1000;
const KILL_MS = Number(process.env.KILL_SECONDS ?? 600) * 1000;
const WATCHDOG_MS = Number(process.env.WATCHDOG_SECONDS ?? 1200) * 1000;

const between = (low: number, high: number) => low + Math.random() * (high - low);

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run through `npm run test:workers` (scripts/with-postgres.sh)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-workers-'));
  const logDir = path.join(dataDir, 'logs');
  fs.mkdirSync(logDir);
  const dumpLogs = () => {
    for (const file of fs.readdirSync(logDir)) console.error(`\n--- ${file} (last lines)\n${tail(path.join(logDir, file), 15)}`);
  };
  setTimeout(() => {
    console.error(`\nFAILED: the script did not end within WATCHDOG_SECONDS (${WATCHDOG_MS / 1000} s)`);
    dumpLogs();
    process.exit(1);
  }, WATCHDOG_MS).unref();

  const openai = await startFakeOpenAI({ respond: createStoryResponder({ brief: true }) });
  const google = await startFakeGoogle();
  const account = google.addAccount([
    { id: 'UC_workers_test', title: 'Workers', subscriberCount: 0, videoCount: 0, viewCount: 0 },
  ]);

  const apiPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...clusterEnv({ databaseUrl, dataDir, apiPort, openaiUrl: openai.url, google }),
    // A killed worker's run is taken over 10 s after its last heartbeat (90 s in production).
    LEASE_STALE_SECONDS: '10',
    WORKER_CONCURRENCY: '1',
    // Round after round of runs for one user: past the hourly ceiling of "run now" (30) otherwise.
    MAX_MANUAL_RUNS_PER_HOUR: '100000',
    // Exactly-once is under test, not pixels: render at a quarter of the size, as the jest suites do.
    RENDER_SCALE: '0.25',
    ...(process.env.FFMPEG_PATH ? { FFMPEG_PATH: process.env.FFMPEG_PATH } : {}),
  };

  const children = new Set<ChildProcess>();
  const cleanup = () => {
    for (const child of children) child.kill('SIGKILL');
  };
  process.on('exit', cleanup);

  const apiLog = path.join(logDir, 'api.log');
  const { api, base } = await startApi(env, apiPort, apiLog);
  children.add(api);
  console.log(`${stamp()}  API on ${base} (RUN_JOBS=false), PostgreSQL ${databaseUrl.replace(/\/\/[^@]*@/, '//')}`);

  const client = apiClient(base);
  const request = client.ok;

  // A user with a chat-model key, a channel and an authorized YouTube configuration; PROCESSES processes.
  const { token, process: processInput } = await readyUser(client, google, {
    slug: 'workers',
    channelId: 'UC_workers_test',
    accountId: account,
  });
  const processIds: string[] = [];
  for (let i = 1; i <= PROCESSES; i += 1) {
    const created = await request('POST', '/processes/', processInput(`Worker test ${i}`), token);
    processIds.push(created.id as string);
  }

  // The workers, each restarted after every kill.
  const workers: (ChildProcess | undefined)[] = [];
  const ownExits: string[] = [];
  const ended = new Set<ChildProcess>();
  let starts = 0;
  const startWorker = (slot: number) => {
    starts += 1;
    const child = startProgram('server/src/worker/main.ts', env, path.join(logDir, `worker-${slot}.log`));
    children.add(child);
    child.on('exit', (code, signal) => {
      children.delete(child);
      // Every stop this script makes is marked first; anything else is the worker's own doing.
      if (!ended.has(child)) ownExits.push(`worker ${slot} (pid ${child.pid}) exited on its own (${signal ?? `code ${code}`})`);
    });
    workers[slot] = child;
  };
  for (let slot = 0; slot < WORKERS; slot += 1) startWorker(slot);
  // Each worker lowers its own priority once started (WORKER_NICE, default 10), so the API on the
  // same machine answers first.
  const niceness: string[] = [];
  for (let slot = 0; slot < WORKERS; slot += 1) {
    const log = path.join(logDir, `worker-${slot}.log`);
    for (
      let waited = 0;
      waited < 120_000 && !(fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes('Worker ready'));
      waited += 250
    )
      await sleep(250);
    const nice = os.getPriority(workers[slot]!.pid!);
    if (nice !== 10) niceness.push(`worker ${slot} runs at nice ${nice}, not WORKER_NICE's default 10`);
  }

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const running = async () =>
    Number((await db.query(`select count(*)::int as n from executions where status in ('queued', 'running')`)).rows[0].n);

  // Rounds of runs while workers are killed at random moments.
  let kills = 0;
  let stops = 0;
  let rounds = 0;
  const executeAll = async () => {
    rounds += 1;
    for (const id of processIds) await request('POST', `/processes/${id}/execute`, undefined, token);
    console.log(`${stamp()}  round ${rounds}: ${processIds.length} executions started`);
  };
  await executeAll();
  const killDeadline = Date.now() + KILL_MS;
  while (kills < KILLS && Date.now() < killDeadline) {
    await sleep(between(3000, 8000));
    for (let slot = 0; slot < WORKERS; slot += 1) {
      const worker = workers[slot];
      if (worker && (worker.exitCode !== null || worker.signalCode !== null)) startWorker(slot);
    }
    if ((await running()) === 0) {
      await executeAll();
      continue;
    }
    const slot = Math.floor(Math.random() * WORKERS);
    const victim = workers[slot];
    if (!victim || victim.exitCode !== null || victim.signalCode !== null) continue;
    ended.add(victim);
    if ((kills + stops) % 4 === 3) {
      // Now and then a graceful stop: the worker hands its run back without spending a recovery.
      const exited = new Promise((resolve) => victim.once('exit', resolve));
      victim.kill('SIGTERM');
      stops += 1;
      console.log(
        `${stamp()}  stop ${stops}: worker ${slot} (pid ${victim.pid}) with SIGTERM, ${await running()} run(s) in progress`,
      );
      await Promise.race([exited, sleep(25_000)]);
    } else {
      victim.kill('SIGKILL');
      kills += 1;
      console.log(
        `${stamp()}  kill ${kills}: worker ${slot} (pid ${victim.pid}) with SIGKILL, ${await running()} run(s) in progress`,
      );
      await sleep(between(300, 2000));
    }
    startWorker(slot);
  }

  // Let every run end: runs whose worker was killed are taken over once their lease is stale.
  console.log(`${stamp()}  ${kills} kills done; waiting for every run to end`);
  const deadline = Date.now() + SETTLE_MS;
  while ((await running()) > 0 && Date.now() < deadline) await sleep(2000);
  await sleep(3000);

  // The checks.
  const { rows: runs } = await db.query<{
    id: string;
    status: string;
    error: string | null;
    error_key: string | null;
    recoveries: number;
  }>(`select id, status, error, error_key, recoveries from executions order by started_at`);
  const { rows: published } = await db.query<{ execution_id: string; video_id: string | null }>(
    `select execution_id, video_id from publications where execution_id is not null`,
  );
  await db.end();

  const videoSha = new Map<string, string>();
  for (const run of runs) {
    const file = path.join(dataDir, 'media', run.id, 'video.mp4');
    if (fs.existsSync(file)) videoSha.set(crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'), run.id);
  }
  const uploadsPer = new Map<string, number>();
  let strayUploads = 0;
  for (const upload of google.uploads) {
    const owner = videoSha.get(upload.sha256);
    if (!owner) strayUploads += 1;
    else uploadsPer.set(owner, (uploadsPer.get(owner) ?? 0) + 1);
  }
  const videoOf = new Map(published.map((row) => [row.execution_id, row.video_id]));

  const failures: string[] = [...niceness, ...ownExits];
  if (kills < KILLS) failures.push(`only ${kills} of ${KILLS} kills within KILL_SECONDS (${KILL_MS / 1000} s)`);
  const byStatus = new Map<string, number>();
  const errors = new Map<string, number>();
  for (const run of runs) {
    byStatus.set(run.status, (byStatus.get(run.status) ?? 0) + 1);
    if (run.status === 'running' || run.status === 'queued') failures.push(`execution ${run.id} is still ${run.status}`);
    else if (run.status === 'error') {
      if (!run.error) failures.push(`execution ${run.id} ended in error without a message`);
      errors.set(run.error_key ?? run.error ?? '?', (errors.get(run.error_key ?? run.error ?? '?') ?? 0) + 1);
    } else if (run.status === 'completed') {
      const videoId = videoOf.get(run.id);
      if (!videoId || !google.videos.has(videoId)) failures.push(`completed execution ${run.id} has no video on YouTube`);
      if ((uploadsPer.get(run.id) ?? 0) !== 1)
        failures.push(`completed execution ${run.id} has ${uploadsPer.get(run.id) ?? 0} uploads`);
    } else failures.push(`execution ${run.id} ended ${run.status}`);
    if ((uploadsPer.get(run.id) ?? 0) > 1) failures.push(`execution ${run.id} was uploaded ${uploadsPer.get(run.id)} times`);
  }
  if (strayUploads > 0) failures.push(`${strayUploads} upload(s) belong to no execution's video`);
  if (!byStatus.get('completed')) failures.push('no execution completed');
  // The fakes never fail: the only acceptable error is a run interrupted more often than MAX_RECOVERIES.
  for (const [key, count] of errors) if (key !== 'pipeline.interrupted') failures.push(`${count} execution(s) ended in ${key}`);

  const maxUploads = Math.max(0, ...uploadsPer.values());
  console.log(`
Workers under SIGKILL (${WORKERS} workers, ${PROCESSES} processes, ${rounds} round(s))
  kills (SIGKILL)                  ${kills}
  graceful stops (SIGTERM)         ${stops}
  worker starts                    ${starts}
  executions                       ${runs.length}
    completed                      ${byStatus.get('completed') ?? 0}
    error                          ${byStatus.get('error') ?? 0}${errors.size ? `  (${[...errors].map(([key, n]) => `${key}: ${n}`).join(', ')})` : ''}
    still running                  ${byStatus.get('running') ?? 0}
  recoveries (runs taken over)     ${runs.reduce((sum, run) => sum + run.recoveries, 0)}
  uploads on the fake YouTube      ${google.uploads.length}
  most uploads of one execution    ${maxUploads}
  uploads of no execution          ${strayUploads}
  completed without their video    ${failures.filter((f) => f.includes('has no video')).length}
  ${stamp().trim()} in all`);

  for (const child of children) {
    ended.add(child);
    child.kill('SIGTERM');
  }
  await sleep(1500);
  cleanup();
  await openai.close();
  await google.close();
  if (failures.length > 0) {
    console.error(`\nFAILED:\n  ${failures.join('\n  ')}`);
    dumpLogs();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(1);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log('\nPASS: every execution ended, none twice on YouTube, every completed one with its video.');
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
