import { QUEUES, type AlertJob, type AuthEmailJob } from '../jobs';
import type { Queue } from '../queue';
import type { Services } from '../services';

/**
 * What the worker sends for others: owners' alerts (email, signed webhook), and sign-in emails
 * (reset and confirmation links, made and sent here rather than inside the request that asked).
 * Answers the workers' ids (for offWork).
 */
export async function workDeliveries(queue: Queue, services: Services): Promise<string[]> {
  return [
    await queue.boss.work<AlertJob>(QUEUES.alert, { pollingIntervalSeconds: 2 }, async ([job]) => {
      if (job) await services.alerts.deliver(job.data);
    }),
    await queue.boss.work<AuthEmailJob>(QUEUES.email, { pollingIntervalSeconds: 2 }, async ([job]) => {
      if (job) await services.auth.deliverEmail(job.data);
    }),
  ];
}
