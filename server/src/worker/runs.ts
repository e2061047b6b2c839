import type { Config } from '../config';
import { QUEUES, type ExecutionJob } from '../jobs';
import type { Queue } from '../queue';
import type { Logger } from '../pipeline/context';
import type { Engine } from '../pipeline/engine';

/** Seconds between checks for new jobs: a pressed "execute" starts within about this long. */
const POLLING_SECONDS = 1;

/**
 * The runs themselves: WORKER_CONCURRENCY pg-boss workers on the execution queue, each going
 * straight on to the next queued run. Answers the workers' ids (for offWork).
 */
export async function workExecutions(queue: Queue, engine: Engine, concurrency: number): Promise<string[]> {
  const workers: string[] = [];
  for (let i = 0; i < concurrency; i += 1) {
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
  return workers;
}

/**
 * Runs dead workers left: at once (`exclusive`: this is the only worker, the embedded database,
 * so runs left "active" by the last process are orphans at once), then every few seconds, so a
 * run is taken over about LEASE_STALE_SECONDS after its worker died (claimOrphan lets one taker
 * win). Answers the stop of the periodic check.
 */
export async function startRecovery(
  engine: Engine,
  options: { exclusive: boolean; config: Config; log: Logger },
): Promise<() => void> {
  const { config, log } = options;
  const recovered = await engine.recover(options.exclusive);
  if (recovered > 0) log.info({ recovered }, 'executions left by a stopped server handled');
  const recovery = setInterval(
    () => void engine.recover(false).catch((error: unknown) => log.warn({ err: error }, 'recovery check failed')),
    Math.min(60, Math.max(5, config.leaseStaleSeconds / 2)) * 1000,
  );
  recovery.unref();
  return () => clearInterval(recovery);
}
