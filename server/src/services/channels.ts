import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/errors';
import { channels } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import type { Page } from './paging';
import type { ChannelDto, CreateChannelInput, UpdateChannelInput } from '../contracts/channels';

type ChannelRow = typeof channels.$inferSelect;

const CHANNEL_ID = /^[A-Za-z0-9_-]{3,64}$/;

/** The column is a 32-bit integer. */
const MAX_MIN_VIEWS = 2_147_483_647;

/** min_views: a non-negative integer; blank (null, '') means 0. */
function parseMinViews(value: unknown): number {
  if (value === undefined || value === null || value === '') return 0;
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_MIN_VIEWS) {
    throw unprocessable('channels.minViewsInvalid');
  }
  return n;
}

function cleanName(name: string | null | undefined): string | null {
  const trimmed = name?.trim();
  return trimmed ? trimmed.slice(0, 200) : null;
}

function toDto(row: ChannelRow, processCount: number, activeProcessCount: number): ChannelDto {
  return {
    id: row.id,
    channel_id: row.channelId,
    name: row.name,
    min_views: row.minViews,
    is_active: row.isActive,
    subscriber_count: row.subscriberCount,
    video_count: row.videoCount,
    view_count: row.viewCount,
    stats_updated_at: row.statsUpdatedAt?.toISOString() ?? null,
    process_count: processCount,
    active_process_count: activeProcessCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function createChannelService({ db, now }: { db: Db; now: () => Date }) {
  // Spelled out: in a one-table select Drizzle leaves column names unqualified, which inside the
  // subquery would resolve to the processes table.
  const processCount = sql<number>`(select count(*)::int from "processes" as p where p."channel_id" = "channels"."id")`;
  /** The active ones among them: the processes that stop when the channel is switched off. */
  const activeProcessCount = sql<number>`(select count(*)::int from "processes" as p where p."channel_id" = "channels"."id" and p."is_active")`;

  async function get(userId: string, id: string): Promise<ChannelDto> {
    const [row] = await db
      .select({ channel: channels, processCount, activeProcessCount })
      .from(channels)
      .where(and(eq(channels.id, id), eq(channels.userId, userId)));
    if (!row) throw notFound('channels.notFound');
    return toDto(row.channel, row.processCount, row.activeProcessCount);
  }

  async function list(userId: string, page: Page): Promise<{ channels: ChannelDto[]; total: number }> {
    const rows = await db
      .select({ channel: channels, processCount, activeProcessCount })
      .from(channels)
      .where(eq(channels.userId, userId))
      .orderBy(asc(channels.createdAt), asc(channels.id))
      .offset(page.skip)
      .limit(page.limit);
    const [total] = await db.select({ n: count() }).from(channels).where(eq(channels.userId, userId));
    return { channels: rows.map((r) => toDto(r.channel, r.processCount, r.activeProcessCount)), total: total?.n ?? 0 };
  }

  async function create(userId: string, input: CreateChannelInput): Promise<ChannelDto> {
    const channelId = input.channel_id.trim();
    if (!channelId) throw unprocessable('channels.channelIdRequired');
    if (!CHANNEL_ID.test(channelId)) throw unprocessable('channels.channelIdInvalid');
    const minViews = parseMinViews(input.min_views);
    try {
      const [row] = await db
        .insert(channels)
        .values({ userId, channelId, name: cleanName(input.name), minViews, isActive: input.is_active ?? true })
        .returning();
      return toDto(row!, 0, 0);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('channels.duplicate');
      throw error;
    }
  }

  async function update(userId: string, id: string, input: UpdateChannelInput): Promise<ChannelDto> {
    const current = await get(userId, id);
    if (input.channel_id !== undefined && input.channel_id.trim() !== current.channel_id) {
      throw unprocessable('channels.channelIdImmutable');
    }
    const changes: Partial<typeof channels.$inferInsert> = { updatedAt: now() };
    if (input.name !== undefined) changes.name = cleanName(input.name);
    if (input.min_views !== undefined) changes.minViews = parseMinViews(input.min_views);
    if (input.is_active !== undefined) changes.isActive = input.is_active;
    await db
      .update(channels)
      .set(changes)
      .where(and(eq(channels.id, id), eq(channels.userId, userId)));
    return get(userId, id);
  }

  async function toggle(userId: string, id: string): Promise<ChannelDto> {
    const updated = await db
      .update(channels)
      .set({ isActive: sql`not ${channels.isActive}`, updatedAt: now() })
      .where(and(eq(channels.id, id), eq(channels.userId, userId)))
      .returning({ id: channels.id });
    if (updated.length === 0) throw notFound('channels.notFound');
    return get(userId, id);
  }

  /** Deletes the channel; processes that used it keep existing without a channel. */
  async function remove(userId: string, id: string): Promise<void> {
    const deleted = await db
      .delete(channels)
      .where(and(eq(channels.id, id), eq(channels.userId, userId)))
      .returning({ id: channels.id });
    if (deleted.length === 0) throw notFound('channels.notFound');
  }

  /** Stores statistics read from the platform for the user's channel with this platform id. */
  async function recordStats(
    userId: string,
    platformChannelId: string,
    stats: { subscriberCount: number | null; videoCount: number | null; viewCount: number | null },
  ): Promise<void> {
    await db
      .update(channels)
      .set({ ...stats, statsUpdatedAt: now() })
      .where(and(eq(channels.userId, userId), eq(channels.channelId, platformChannelId)));
  }

  return { list, get, create, update, toggle, remove, recordStats };
}

export type ChannelService = ReturnType<typeof createChannelService>;
