import type { Config } from '../config';
import { QUEUES, type AlertJob, type AuthEmailJob, type ExecutionJob, type StatsJob } from '../jobs';
import type { Queue } from '../queue';
import type { Services } from '../services';
import type { Logger } from './context';
import { createEngine, type Engine } from './engine';

/** Seconds between checks for new jobs: a pressed "execute" starts within about this long. */
const POLLING_SECONDS = 1;
/**
 * The scheduler's tick, on a timer in every worker process at whole multiples of this many seconds
 * (not pg-boss's cron, which fires up to half a minute late): a due run is claimed within about
 * this long of its time. Several workers ticking at once is safe: the claim skips locked rows.
 */
export const TICK_SECONDS = 15;
/** Publication statistics refresh, at minute 17 of every hour. */
const STATS_CRON = '17 * * * *';
/** Retention (media and old records), every day at 03:30 UTC. */
const RETENTION_CRON = '30 3 * * *';

export interface RunningEngine {
  engine: Engine;
  /** Stops taking jobs and hands the runs in progress back (another worker, or the next start, goes on). */
  stop(): Promise<void>;
}

/**
 * Makes this process run the engine's jobs: WORKER_CONCURRENCY executions at once (each worker
 * goes straight on to the next queued run), the scheduler's tick every TICK_SECONDS and, at start
 * and every few seconds, the recovery of runs left by dead workers. `exclusive`: this is the only
 * worker (the embedded database), so runs left "active" by the last process are orphans at once.
 */
export async function startEngine(options: {
  services: Services;
  config: Config;
  queue: Queue;
  log: Logger;
  exclusive: boolean;
  now?: () => Date;
}): Promise<RunningEngine> {
  const { queue, config, log } = options;
  const engine = createEngine({ services: options.services, config, log, queue, ...(options.now ? { now: options.now } : {}) });
  const workers: string[] = [];
  for (let i = 0; i < config.workerConcurrency; i += 1) {
    let workerId = '';
    workerId = await queue.boss.work<ExecutionJob>(
      QUEUES.execution,
      { batchSize: 1, pollingIntervalSeconds: POLLING_SECONDS },
      async ([job]) => {
        if (!job) return;
        await engine.run(job.data.executionId, job.id);
        // Straight on to the next queued run, rather than after the next poll.
        queue.boss.notifyWorker(workerId);
      },
    );
    workers.push(workerId);
  }
  // The minute cron of earlier versions is replaced by the timer below.
  await queue.boss.unschedule(QUEUES.tick).catch(() => undefined);
  let ticking = false;
  let tickTimer: NodeJS.Timeout | undefined;
  const nextTick = () => {
    const period = TICK_SECONDS * 1000;
    tickTimer = setTimeout(
      () => {
        if (!ticking) {
          ticking = true;
          engine
            .tick()
            .catch((error: unknown) => log.warn({ err: error }, 'scheduler tick failed'))
            .finally(() => {
              ticking = false;
            });
        }
        nextTick();
      },
      period - (Date.now() % period),
    );
    tickTimer.unref();
  };
  nextTick();
  // Publication statistics: hourly for everyone, and on demand for one user.
  workers.push(
    await queue.boss.work<StatsJob>(QUEUES.stats, { pollingIntervalSeconds: 5 }, async ([job]) => {
      if (job?.data.userId) await options.services.publications.refreshStatsFor(job.data.userId);
      else await options.services.publications.refreshAllStats();
    }),
  );
  await queue.boss.schedule(QUEUES.stats, STATS_CRON, {});
  workers.push(
    await queue.boss.work(QUEUES.retention, { pollingIntervalSeconds: 30 }, async () => {
      const report = await options.services.retention.run();
      const alerts = await options.services.alerts.purge(new Date(Date.now() - 7 * 24 * 3600 * 1000));
      log.info({ ...report, alertsPurged: alerts }, 'retention: media and old records purged');
    }),
  );
  await queue.boss.schedule(QUEUES.retention, RETENTION_CRON, {});
  workers.push(
    await queue.boss.work<AlertJob>(QUEUES.alert, { pollingIntervalSeconds: 2 }, async ([job]) => {
      if (job) await options.services.alerts.deliver(job.data);
    }),
  );
  // Reset and confirmation links, made and sent here rather than inside the request that asked.
  workers.push(
    await queue.boss.work<AuthEmailJob>(QUEUES.email, { pollingIntervalSeconds: 2 }, async ([job]) => {
      if (job) await options.services.auth.deliverEmail(job.data);
    }),
  );
  const recovered = await engine.recover(options.exclusive);
  if (recovered > 0) log.info({ recovered }, 'executions left by a stopped server handled');
  // Between the minute's ticks, each worker also looks for runs a dead worker left, so a run is
  // taken over about LEASE_STALE_SECONDS after its worker died (claimOrphan lets one taker win).
  const recovery = setInterval(
    () => void engine.recover(false).catch((error: unknown) => log.warn({ err: error }, 'recovery check failed')),
    Math.min(60, Math.max(5, config.leaseStaleSeconds / 2)) * 1000,
  );
  recovery.unref();
  return {
    engine,
    async stop() {
      clearInterval(recovery);
      clearTimeout(tickTimer);
      for (const id of workers) await queue.boss.offWork({ id }).catch(() => undefined);
      // Runs in progress are handed back (queued again, no recovery counted) before the queue stops.
      await engine.stopAll();
    },
  };
}
