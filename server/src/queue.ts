import PgBoss from 'pg-boss';
import type { Database } from './db';

/**
 * The job queue: pg-boss on the application's own database (PGlite through an adapter, or the
 * PostgreSQL server), in the `pgboss` schema.
 */
export interface Queue {
  boss: PgBoss;
  isRunning(): boolean;
  stop(): Promise<void>;
}

export interface QueueOptions {
  /** Run supervision (maintenance, schedules) in this process. */
  supervise?: boolean;
  onError?: (error: Error) => void;
}

export async function startQueue(database: Database, options: QueueOptions = {}): Promise<Queue> {
  const boss = new PgBoss({
    db: database.executor,
    schema: 'pgboss',
    supervise: options.supervise ?? true,
    schedule: options.supervise ?? true,
    migrate: true,
  } as unknown as PgBoss.ConstructorOptions);
  boss.on('error', (error) => options.onError?.(error));
  await boss.start();
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
