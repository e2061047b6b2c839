import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { rateLimits } from '../db/schema';
import { AppError } from '../errors';

/**
 * Rate limits that hold across processes and restarts: a counter per key and fixed window in
 * the database, moved by one atomic upsert, so parallel requests can never see the same count
 * (no read-then-write). Keys name what is limited and for whom: `signup:address:203.0.113.7`,
 * `reset:email:ana@example.com`, `test:user:<id>`.
 */
export const HOUR_MS = 60 * 60 * 1000;

export interface RateLimiterDeps {
  db: Db;
  now: () => Date;
}

export function createRateLimiter({ db, now }: RateLimiterDeps) {
  /** Counts one more use of `key` in the current window; answers the count including it. */
  async function count(key: string, windowMs: number): Promise<{ count: number; windowEnds: number }> {
    const at = now().getTime();
    const windowStart = new Date(Math.floor(at / windowMs) * windowMs);
    const [row] = await db
      .insert(rateLimits)
      .values({ key, windowStart, count: 1 })
      .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
      .returning({ count: rateLimits.count });
    return { count: row?.count ?? 1, windowEnds: windowStart.getTime() + windowMs };
  }

  /**
   * One use of every key; throws 429 (common.tooManyRequests, with Retry-After) when any key is
   * over `limit` in its window. Every key is counted even when an earlier one is over, so a
   * client cannot spare one counter by tripping another.
   */
  async function take(keys: string[], limit: number, windowMs: number = HOUR_MS): Promise<void> {
    const results = await Promise.all(keys.map((key) => count(key, windowMs)));
    const over = results.filter((result) => result.count > limit);
    if (over.length === 0) return;
    const retryAt = Math.max(...over.map((result) => result.windowEnds));
    const seconds = Math.max(1, Math.ceil((retryAt - now().getTime()) / 1000));
    throw new AppError(429, 'common.tooManyRequests', { count: Math.ceil(seconds / 60) }, { 'retry-after': String(seconds) });
  }

  /** Drops windows that ended before `before` (the purge job). Answers how many rows went. */
  async function purge(before: Date): Promise<number> {
    const removed = await db.delete(rateLimits).where(lt(rateLimits.windowStart, before)).returning({ key: rateLimits.key });
    return removed.length;
  }

  return { take, purge };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
