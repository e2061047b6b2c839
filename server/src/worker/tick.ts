import { QUEUES } from '../jobs';
import type { Queue } from '../queue';
import type { Logger } from '../pipeline/context';
import type { Engine } from '../pipeline/engine';

/**
 * The scheduler's tick, on a timer in every worker process at whole multiples of this many seconds
 * (not pg-boss's cron, which fires up to half a minute late): a due run is claimed within about
 * this long of its time. Several workers ticking at once is safe: the claim skips locked rows.
 */
export const TICK_SECONDS = 15;

/** Starts the scheduler's tick (one at a time: a slow tick is not overlapped); answers its stop. */
export async function startTick(queue: Queue, engine: Engine, log: Logger): Promise<() => void> {
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
  return () => clearTimeout(tickTimer);
}
