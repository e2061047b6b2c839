/**
 * `npm run test:outage`: a PostgreSQL outage is survived (docs/engine.md, "Database outages").
 *
 * It runs its own throwaway PostgreSQL (initdb in a temporary folder, pg_ctl), the fakes of
 * `npm run fakes` in this process, the API (RUN_JOBS=false) and one `npm run worker`. Then:
 *
 *   1. A run is started; while it is in a step, PostgreSQL is stopped with `-m immediate` (as a
 *      crash, an OOM kill or a failover does), kept down 10 s and started again. Checked: the API and
 *      the worker are still alive; the API answered 503 with a detail while it was down and 200
 *      within 5 s after; the run completed with one video on the fake YouTube and one story (no
 *      chat call paid twice for the title); a new run after it completes.
 *   2. The same with a 60 s outage while nothing runs (OUTAGE_IDLE_SECONDS).
 *
 * It prints the figures and exits 1 when a check fails, or with the logs when it has not ended
 * within WATCHDOG_SECONDS (900).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeGoogle } from '../server/fakes/google';
import { startFakeOpenAI, type FakeChatRequest } from '../server/fakes/openai';
import { createStoryResponder } from '../server/fakes/storyResponder';
import { apiClient, clusterEnv, freePort, readyUser, sleep, stamp, startApi, startProgram, tail } from './lib/programs';

const isTitleRequest = (body: unknown) =>
  ((body as FakeChatRequest).messages ?? []).some((m) => typeof m.content === 'string' && m.content.startsWith('Crie um título'));

const IDLE_OUTAGE_MS = Number(process.env.OUTAGE_IDLE_SECONDS ?? 60) * 1000;
const RUN_OUTAGE_MS = 10_000;
const WATCHDOG_MS = Number(process.env.WATCHDOG_SECONDS ?? 900) * 1000;

/** A PostgreSQL server of the machine's binaries that this script can stop and start at will. */
function throwawayPostgres(port: number) {
  const versions = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort() : [];
  const bin = versions.map((version) => `/usr/lib/postgresql/${version}/bin`).find((dir) => fs.existsSync(`${dir}/initdb`));
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-outage-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const run = (program: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : `${bin}/${program}`,
      asRoot ? ['-u', 'postgres', '--', `${bin}/${program}`, ...args] : args,
      {
        stdio: 'pipe',
      },
    );
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=100`;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctl', ['-D', data, '-w', '-l', path.join(dir, 'log'), '-o', options, 'start']),
    stop: (mode: 'immediate' | 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']),
    remove() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) failures.push(what);
  };
  const postgres = throwawayPostgres(await freePort());
  postgres.start();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-outage-'));
  const logDir = path.join(dataDir, 'logs');
  fs.mkdirSync(logDir);
  const children = new Set<ChildProcess>();
  const cleanup = () => {
    for (const child of children) child.kill('SIGKILL');
    postgres.remove();
  };
  process.on('exit', cleanup);
  const apiLog = path.join(logDir, 'api.log');
  const workerLog = path.join(logDir, 'worker.log');
  setTimeout(() => {
    console.error(`\nFAILED: the script did not end within WATCHDOG_SECONDS (${WATCHDOG_MS / 1000} s)`);
    for (const file of [apiLog, workerLog]) console.error(`\n--- ${path.basename(file)} (last lines)\n${tail(file, 25)}`);
    process.exit(1);
  }, WATCHDOG_MS).unref();

  const openai = await startFakeOpenAI({ respond: createStoryResponder({ brief: true }) });
  const google = await startFakeGoogle();
  const account = google.addAccount([{ id: 'UC_outage_test', title: 'Outage', subscriberCount: 0, videoCount: 0, viewCount: 0 }]);

  const apiPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...clusterEnv({ databaseUrl: postgres.url, dataDir, apiPort, openaiUrl: openai.url, google }),
    LEASE_STALE_SECONDS: '30',
    // Exactly-once is under test, not pixels: render at a quarter of the size, as the jest suites do.
    RENDER_SCALE: '0.25',
    ...(process.env.FFMPEG_PATH ? { FFMPEG_PATH: process.env.FFMPEG_PATH } : {}),
  };
  const { api, base } = await startApi(env, apiPort, apiLog);
  children.add(api);
  const worker = startProgram('server/src/worker/main.ts', env, workerLog);
  children.add(worker);
  console.log(`${stamp()}  API on ${base}, one worker, PostgreSQL ${postgres.url}`);

  const client = apiClient(base);
  const { raw: request, ok } = client;

  const { token, process: processInput } = await readyUser(client, google, {
    slug: 'outage',
    channelId: 'UC_outage_test',
    accountId: account,
  });
  const processId = (await ok('POST', '/processes/', processInput('Outage'), token)).id as string;

  const execution = (id: string) => ok('GET', `/executions/${id}`, undefined, token);
  const waitForEnd = async (id: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await request('GET', `/executions/${id}`, undefined, token).catch(() => undefined);
      const status = answer?.status === 200 ? (answer.json.status as string) : undefined;
      if (status && status !== 'queued' && status !== 'running') return answer!.json;
      if (Date.now() > deadline) return answer?.json ?? {};
      await sleep(1000);
    }
  };

  /** Stops PostgreSQL for `ms`, polling the API meanwhile; answers what the API said and how soon it came back. */
  const outage = async (ms: number) => {
    postgres.stop('immediate');
    const stoppedAt = Date.now();
    const statuses = new Map<number, number>();
    let detail = '';
    let slowest = 0;
    while (Date.now() - stoppedAt < ms) {
      const started = Date.now();
      const answer = await request('GET', '/processes/', undefined, token).catch(() => ({
        status: 0,
        json: {} as Record<string, unknown>,
      }));
      slowest = Math.max(slowest, Date.now() - started);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 503) detail = String(answer.json.detail ?? '');
      await sleep(500);
    }
    const ready = (await request('GET', '/health/ready').catch(() => ({ status: 0, json: {} as Record<string, unknown> }))).json;
    postgres.start();
    const startedAt = Date.now();
    let backMs = -1;
    while (Date.now() - startedAt < 30_000) {
      const answer = await request('GET', '/processes/', undefined, token).catch(() => ({
        status: 0,
        json: {} as Record<string, unknown>,
      }));
      if (answer.status === 200) {
        backMs = Date.now() - startedAt;
        break;
      }
      await sleep(200);
    }
    return { statuses, detail, slowest, ready, backMs };
  };

  const report = (label: string, result: Awaited<ReturnType<typeof outage>>) => {
    const codes = [...result.statuses].map(([code, n]) => `${code || 'no answer'} x${n}`).join(', ');
    console.log(`${stamp()}  ${label}: API answered ${codes} (slowest ${result.slowest} ms); back in ${result.backMs} ms`);
    console.log(`${stamp()}    503 detail: "${result.detail}"; /health/ready said database: ${String(result.ready.database)}`);
    check(result.statuses.size === 1 && result.statuses.has(503), `${label}: the API answered ${codes}, not only 503`);
    check(/database is not reachable/.test(result.detail), `${label}: the 503 had no detail`);
    check(result.ready.database === 'unavailable', `${label}: /health/ready did not say the database is unavailable`);
    check(result.backMs >= 0 && result.backMs <= 5000, `${label}: the API answered 200 only after ${result.backMs} ms`);
    check(api.exitCode === null && api.signalCode === null, `${label}: the API process died`);
    check(worker.exitCode === null && worker.signalCode === null, `${label}: the worker process died`);
  };

  // 1. An outage in the middle of a run.
  openai.setDelay(400);
  const first = (await ok('POST', `/processes/${processId}/execute`, undefined, token)).execution_id as string;
  for (let waited = 0; waited < 120_000; waited += 500) {
    const state = await execution(first);
    if (state.status === 'running' && (state.current_step as number) >= 2) break;
    await sleep(500);
  }
  const cut = await execution(first);
  console.log(`${stamp()}  run ${first} at step ${(cut.current_step as number) + 1} (${String(cut.status)}): PostgreSQL stopped`);
  const during = await outage(RUN_OUTAGE_MS);
  report(`outage of ${RUN_OUTAGE_MS / 1000} s during a run`, during);
  openai.setDelay(0);
  const ended = await waitForEnd(first, 240_000);
  const titles = openai.requests.filter((r) => r.path === '/v1/chat/completions' && isTitleRequest(r.body)).length;
  console.log(
    `${stamp()}  the run ended ${String(ended.status)}${ended.error ? ` (${String(ended.error)})` : ''}; uploads ${google.uploads.length}, title asked ${titles} time(s)`,
  );
  check(ended.status === 'completed', `the run cut by the outage ended ${String(ended.status)}: ${String(ended.error)}`);
  check(google.uploads.length === 1, `${google.uploads.length} uploads after the first run`);
  // The run met the outage in a step and waited for the database instead of failing.
  const waited = (fs.readFileSync(workerLog, 'utf8').match(/database unreachable: the run waits for it/g) ?? []).length;
  console.log(`${stamp()}    the worker waited for the database ${waited} time(s)`);
  check(waited >= 1, 'the run never met the outage (it was not cut): nothing was proven');
  // Written before the outage, kept in the checkpoint: the title was asked for once.
  check(titles === 1, `the first run's title was asked for ${titles} times`);

  const second = (await ok('POST', `/processes/${processId}/execute`, undefined, token)).execution_id as string;
  const secondEnd = await waitForEnd(second, 240_000);
  console.log(`${stamp()}  a run after the outage ended ${String(secondEnd.status)}`);
  check(
    secondEnd.status === 'completed',
    `the run after the outage ended ${String(secondEnd.status)}: ${String(secondEnd.error)}`,
  );

  // 2. A long outage while idle.
  const idle = await outage(IDLE_OUTAGE_MS);
  report(`outage of ${IDLE_OUTAGE_MS / 1000} s while idle`, idle);
  const third = (await ok('POST', `/processes/${processId}/execute`, undefined, token)).execution_id as string;
  const thirdEnd = await waitForEnd(third, 240_000);
  console.log(`${stamp()}  a run after the idle outage ended ${String(thirdEnd.status)}`);
  check(
    thirdEnd.status === 'completed',
    `the run after the idle outage ended ${String(thirdEnd.status)}: ${String(thirdEnd.error)}`,
  );
  check(google.uploads.length === 3, `${google.uploads.length} uploads in all (3 expected, one per run)`);

  for (const child of children) child.kill('SIGTERM');
  await sleep(1500);
  await openai.close();
  await google.close();
  if (failures.length > 0) {
    console.error(`\nFAILED:\n  ${failures.join('\n  ')}`);
    for (const file of [apiLog, workerLog]) console.error(`\n--- ${path.basename(file)} (last lines)\n${tail(file, 25)}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(1);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log('\nPASS: both outages survived; the API said 503 while down and 200 within 5 s after; every run completed once.');
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
