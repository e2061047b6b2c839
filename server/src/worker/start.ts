import type { Config } from '../config';
import type { Queue } from '../queue';
import type { Services } from '../services';
import type { Logger } from '../pipeline/context';
import { createEngine, type Engine } from '../pipeline/engine';
import { workDeliveries } from './deliveries';
import { workHousekeeping } from './housekeeping';
import { startRecovery, workExecutions } from './runs';
import { startTick } from './tick';

export interface RunningEngine {
  engine: Engine;
  /** Stops taking jobs and hands the runs in progress back (another worker, or the next start, goes on). */
  stop(): Promise<void>;
}

/**
 * Makes this process run the queue's jobs, in `npm start` (RUN_JOBS) and in `npm run worker`:
 * the runs (runs.ts, WORKER_CONCURRENCY at once), the scheduler's tick (tick.ts), statistics and
 * retention (housekeeping.ts), alerts and sign-in emails (deliveries.ts), and, at start and every
 * few seconds, the recovery of runs left by dead workers (runs.ts). `exclusive`: this is the only
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
  const { queue, config, log, services } = options;
  const engine = createEngine({ services, config, log, queue, ...(options.now ? { now: options.now } : {}) });
  const workers = await workExecutions(queue, engine, config.workerConcurrency);
  const stopTick = await startTick(queue, engine, log);
  workers.push(...(await workHousekeeping(queue, services, log)));
  workers.push(...(await workDeliveries(queue, services)));
  const stopRecovery = await startRecovery(engine, { exclusive: options.exclusive, config, log });
  return {
    engine,
    async stop() {
      stopRecovery();
      stopTick();
      for (const id of workers) await queue.boss.offWork({ id }).catch(() => undefined);
      // Runs in progress are handed back (queued again, no recovery counted) before the queue stops.
      await engine.stopAll();
    },
  };
}
