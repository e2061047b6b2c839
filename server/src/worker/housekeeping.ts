import { QUEUES, type StatsJob } from '../jobs';
import type { Queue } from '../queue';
import type { Services } from '../services';
import type { Logger } from '../pipeline/context';

/** Publication statistics refresh, at minute 17 of every hour. */
const STATS_CRON = '17 * * * *';
/** Retention (media and old records), every day at 03:30 UTC. */
const RETENTION_CRON = '30 3 * * *';
/** Alerts older than this are purged with the retention. */
const ALERTS_KEPT_MS = 7 * 24 * 3600 * 1000;

/**
 * The worker's timed chores: publication statistics (hourly for everyone, and on demand for one
 * user) and retention (media and old records, daily). Answers the workers' ids (for offWork).
 */
export async function workHousekeeping(queue: Queue, services: Services, log: Logger): Promise<string[]> {
  const workers: string[] = [];
  workers.push(
    await queue.boss.work<StatsJob>(QUEUES.stats, { pollingIntervalSeconds: 5 }, async ([job]) => {
      if (job?.data.userId) await services.publications.refreshStatsFor(job.data.userId);
      else await services.publications.refreshAllStats();
    }),
  );
  await queue.boss.schedule(QUEUES.stats, STATS_CRON, {});
  workers.push(
    await queue.boss.work(QUEUES.retention, { pollingIntervalSeconds: 30 }, async () => {
      const report = await services.retention.run();
      const alerts = await services.alerts.purge(new Date(Date.now() - ALERTS_KEPT_MS));
      log.info({ ...report, alertsPurged: alerts }, 'retention: media and old records purged');
    }),
  );
  await queue.boss.schedule(QUEUES.retention, RETENTION_CRON, {});
  return workers;
}
