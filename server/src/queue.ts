import PgBoss from 'pg-boss';
import type { Database } from './db';
import { QUEUES, type AlertJob, type AuthEmailJob, type ExecutionJob, type StatsJob } from './jobs';

/**
 * The job queue: pg-boss on the application's own database (PGlite through an adapter, or the
 * PostgreSQL server), in the `pgboss` schema.
 */
export interface Queue {
  boss: PgBoss;
  isRunning(): boolean;
  stop(): Promise<void>;
}

/** pg-boss's tables live in this schema of the application's database. */
export const QUEUE_SCHEMA = 'pgboss';

/** A run may take long (a long story, a slow API): pg-boss gives up on an active job after this. */
export const EXECUTION_JOB_EXPIRE_SECONDS = 4 * 60 * 60;

/** Creates the engine's queues (idempotent). */
export async function createQueues(boss: PgBoss): Promise<void> {
  for (const name of Object.values(QUEUES)) {
    if (!(await boss.getQueue(name))) await boss.createQueue(name);
  }
}

/** Enqueues one run of an execution; answers the job id. Runs are not retried by pg-boss: the engine resumes them itself. */
export async function enqueueExecution(queue: Queue, executionId: string): Promise<string | null> {
  return queue.boss.send(QUEUES.execution, { executionId } satisfies ExecutionJob, {
    retryLimit: 0,
    expireInSeconds: EXECUTION_JOB_EXPIRE_SECONDS,
  });
}

/**
 * Enqueues the runs of a scheduler batch in one statement, each with the job id its execution
 * already holds (services/executionRuns.ts startScheduled); the options are enqueueExecution's.
 */
export async function enqueueExecutions(queue: Queue, runs: Array<{ executionId: string; jobId: string | null }>): Promise<void> {
  if (runs.length === 0) return;
  await queue.boss.insert(
    runs.map((run) => ({
      ...(run.jobId ? { id: run.jobId } : {}),
      name: QUEUES.execution,
      data: { executionId: run.executionId } satisfies ExecutionJob,
      retryLimit: 0,
      expireInSeconds: EXECUTION_JOB_EXPIRE_SECONDS,
    })),
  );
}

/** Asks for a statistics refresh of one user's publications (one pending per user). */
export async function enqueueStatsRefresh(queue: Queue, userId: string): Promise<void> {
  await queue.boss.send(QUEUES.stats, { userId } satisfies StatsJob, {
    singletonKey: `stats-${userId}`,
    retryLimit: 1,
    expireInSeconds: 15 * 60,
  });
}

/** Hands an email (a reset or confirmation link) to whichever process runs jobs; retried a few times if sending fails. */
export async function enqueueAuthEmail(queue: Queue, job: AuthEmailJob): Promise<void> {
  await queue.boss.send(QUEUES.email, job, { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 15 * 60 });
}

/** Hands an alert (an email and the user's webhook) to whichever process runs jobs. */
export async function enqueueAlert(queue: Queue, job: AlertJob): Promise<void> {
  await queue.boss.send(QUEUES.alert, job, { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 15 * 60 });
}

export interface QueueOptions {
  /** Run supervision (maintenance, schedules) in this process. */
  supervise?: boolean;
  onError?: (error: Error) => void;
}

export async function startQueue(database: Database, options: QueueOptions = {}): Promise<Queue> {
  const boss = new PgBoss({
    db: database.executor,
    schema: QUEUE_SCHEMA,
    supervise: options.supervise ?? true,
    schedule: options.supervise ?? true,
    migrate: true,
    // Finished jobs: archived after a day, gone from the archive after a week (docs/engine.md, "Retention").
    archiveCompletedAfterSeconds: 24 * 3600,
    archiveFailedAfterSeconds: 7 * 24 * 3600,
    deleteAfterDays: 7,
  } as unknown as PgBoss.ConstructorOptions);
  boss.on('error', (error) => options.onError?.(error));
  await boss.start();
  await createQueues(boss);
  let running = true;
  return {
    boss,
    isRunning: () => running,
    async stop() {
      if (!running) return;
      running = false;
      await boss.stop({ graceful: true, close: false, wait: true, timeout: 10_000 });
    },
  };
}
