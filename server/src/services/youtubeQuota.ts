import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { apiCalls, youtubeApis } from '../db/schema';
import { localParts, zonedTimeToUtc } from '../lib/timeZones';

/**
 * YouTube Data API quota, as Google counts it: units per Google Cloud project (one OAuth client),
 * per day, the day ending at midnight Pacific time. Every YouTube call is recorded in api_calls with
 * its configuration and cost, so every process of a deployment sees the same spending.
 */

/** Units per call (YouTube Data API v3 quota costs). */
export const YOUTUBE_UNIT_COSTS: Record<string, number> = {
  'videos.insert': 1600,
  'thumbnails.set': 50,
  'captions.insert': 400,
  'videos.update': 50,
  'videos.delete': 50,
  'videos.list': 1,
  'channels.list': 1,
};

/** What the statistics job leaves untouched each day: one upload and its thumbnail. */
export const UPLOAD_RESERVE_UNITS =
  YOUTUBE_UNIT_COSTS['videos.insert']! + YOUTUBE_UNIT_COSTS['thumbnails.set']! + YOUTUBE_UNIT_COSTS['captions.insert']!;

const QUOTA_ZONE = 'America/Los_Angeles';

/** When the quota day that holds `at` began: midnight in Pacific time. */
export function quotaDayStart(at: Date): Date {
  const local = localParts(at, QUOTA_ZONE);
  return zonedTimeToUtc({ year: local.year, month: local.month, day: local.day, hour: 0, minute: 0 }, QUOTA_ZONE);
}

/** When the next quota day begins. */
export function nextQuotaDay(at: Date): Date {
  const local = localParts(at, QUOTA_ZONE);
  const tomorrow = new Date(Date.UTC(local.year, local.month - 1, local.day + 1));
  return zonedTimeToUtc(
    { year: tomorrow.getUTCFullYear(), month: tomorrow.getUTCMonth() + 1, day: tomorrow.getUTCDate(), hour: 0, minute: 0 },
    QUOTA_ZONE,
  );
}

export function createYoutubeQuota({
  db,
  now,
  dailyUnits,
  onUnits,
}: {
  db: Db;
  now: () => Date;
  dailyUnits: number;
  /** Told of every unit spent (the metrics). */
  onUnits?: (operation: string, units: number) => void;
}) {
  /** OAuth clients YouTube answered quotaExceeded for, until the next quota day (per process). */
  const exhausted = new Map<string, number>();

  async function record(
    userId: string,
    operation: string,
    options: { youtubeApiId?: string | null; executionId?: string | null; calls?: number } = {},
  ): Promise<void> {
    const calls = options.calls ?? 1;
    if (calls <= 0) return;
    const units = YOUTUBE_UNIT_COSTS[operation] ?? 1;
    await db.insert(apiCalls).values(
      Array.from({ length: calls }, () => ({
        userId,
        service: 'youtube',
        operation,
        units,
        youtubeApiId: options.youtubeApiId ?? null,
        executionId: options.executionId ?? null,
        createdAt: now(),
      })),
    );
    onUnits?.(operation, units * calls);
  }

  /** Units the OAuth client spent since the quota day began, across every configuration using it. */
  async function unitsToday(clientId: string): Promise<number> {
    const [row] = await db
      .select({ units: sql<number>`coalesce(sum(${apiCalls.units}), 0)::int`.mapWith(Number) })
      .from(apiCalls)
      .innerJoin(youtubeApis, eq(youtubeApis.id, apiCalls.youtubeApiId))
      .where(and(eq(youtubeApis.clientId, clientId), gte(apiCalls.createdAt, quotaDayStart(now()))));
    return row?.units ?? 0;
  }

  function isExhausted(clientId: string): boolean {
    const until = exhausted.get(clientId);
    if (until === undefined) return false;
    if (until > now().getTime()) return true;
    exhausted.delete(clientId);
    return false;
  }

  /** YouTube said the quota is spent: nothing more for this client until the quota day turns. */
  function markExhausted(clientId: string): void {
    exhausted.set(clientId, nextQuotaDay(now()).getTime());
  }

  /**
   * Whether the statistics job may make this call now: the client has not been told the quota is
   * spent, and the call leaves the day's upload reserve untouched.
   */
  async function statsMayCall(clientId: string, operation: string): Promise<boolean> {
    if (isExhausted(clientId)) return false;
    const cost = YOUTUBE_UNIT_COSTS[operation] ?? 1;
    return (await unitsToday(clientId)) + cost <= dailyUnits - UPLOAD_RESERVE_UNITS;
  }

  return { record, unitsToday, statsMayCall, markExhausted, isExhausted };
}

export type YoutubeQuota = ReturnType<typeof createYoutubeQuota>;
