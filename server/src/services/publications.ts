import { and, count, desc, eq, gte, isNotNull, like, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { channels, executions, processes, publications } from '../db/schema';
import { AppError, notFound, unprocessable } from '../errors';
import { translate, type Language, type MessageKey, type MessageParams } from '../messages';
import { describeError } from './errorText';
import type { PublishError, YoutubePublisher } from '../providers/youtubeUpload';
import type { Lease } from './executionRuns';
import type { YoutubeApiService } from './youtubeApis';
import type { YoutubeQuota } from './youtubeQuota';
import type {
  PublicationDto,
  PublicationFilters,
  PublicationInput,
  PublicationStats,
  PublicationUpdate,
} from '../contracts/publications';

/**
 * Publications: every video the engine uploads (or a user records), the history's filters and
 * paging in the database, the actions that change the video on YouTube first (publish as public,
 * delete: a YouTube failure changes nothing here), the CSV report, and the statistics job
 * (docs/api-publications.md).
 */

/** A video under its channel's minimum views this long after publication is flagged. */
export const MIN_VIEWS_AFTER_DAYS = 7;
/** Stats refresh covers publications listed within this many days (and every processing one). */
export const STATS_WINDOW_DAYS = 90;
/** Ids per videos.list / channels.list call. */
const IDS_PER_CALL = 50;
const DAY_MS = 24 * 60 * 60 * 1000;
const TITLE_MAX = 100;

/** Lower case without accents, spaces collapsed: the history's search compares these. */
export function searchable(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export const thumbnailUrl = (videoId: string) => `https://i.ytimg.com/vi/${encodeURIComponent(videoId)}/mqdefault.jpg`;
export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;

const columns = {
  publication: publications,
  processName: processes.name,
  channelName: sql<string | null>`coalesce(${channels.name}, ${channels.channelId})`,
};

type Row = { publication: typeof publications.$inferSelect; processName: string | null; channelName: string | null };

function toDto({ publication: p, processName, channelName }: Row, into: Language = 'en'): PublicationDto {
  return {
    id: p.id,
    process_id: p.processId,
    execution_id: p.executionId,
    process_name: processName,
    channel_id: p.channelId,
    channel_name: channelName,
    video_title: p.videoTitle,
    video_id: p.videoId,
    published_at: p.publishedAt?.toISOString() ?? null,
    views: p.views,
    likes: p.likes,
    status: p.status,
    visibility: p.visibility,
    // In the reader's language, from the stored key: never the upstream text.
    failure_reason: describeError(p.failureKey, p.failureParams, null, into),
    below_min_views: p.belowMinViews,
    thumbnail_url: p.videoId ? thumbnailUrl(p.videoId) : null,
    watch_url: p.videoId ? watchUrl(p.videoId) : null,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

/** A CSV field: quoted when it holds a separator, quote or line break; formula-looking text defused. */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export interface PublicationServiceDeps {
  db: Db;
  now: () => Date;
  youtubeApis: Pick<YoutubeApiService, 'credentialsFor'>;
  publisher: Pick<YoutubePublisher, 'setPublic' | 'schedule' | 'deleteVideo' | 'videoStats' | 'channelStats'>;
  quota: YoutubeQuota;
  log?: (error: unknown, message: string) => void;
  /** Hands an on-demand statistics refresh to the job queue; absent: it runs in this process. */
  enqueueRefresh?: (userId: string) => Promise<void>;
}

export function createPublicationService({
  db,
  now,
  youtubeApis,
  publisher,
  quota,
  log,
  enqueueRefresh,
}: PublicationServiceDeps) {
  function select(runner: Db = db) {
    return runner
      .select(columns)
      .from(publications)
      .leftJoin(processes, eq(processes.id, publications.processId))
      .leftJoin(channels, eq(channels.id, publications.channelId));
  }

  function whereOf(userId: string, filters: Omit<PublicationFilters, 'skip' | 'limit'>): SQL {
    const conditions: SQL[] = [eq(publications.userId, userId)];
    if (filters.status) conditions.push(eq(publications.status, filters.status));
    const term = filters.search ? searchable(filters.search) : '';
    if (term) conditions.push(like(publications.searchTitle, `%${escapeLike(term)}%`));
    if (filters.date_range) conditions.push(gte(publications.listedAt, new Date(now().getTime() - filters.date_range * DAY_MS)));
    return and(...conditions)!;
  }

  async function list(
    userId: string,
    filters: PublicationFilters,
    into: Language = 'en',
  ): Promise<{ publications: PublicationDto[]; total: number }> {
    const where = whereOf(userId, filters);
    const rows = await select()
      .where(where)
      .orderBy(desc(publications.listedAt), desc(publications.id))
      .offset(filters.skip)
      .limit(filters.limit);
    const [total] = await db.select({ n: count() }).from(publications).where(where);
    return { publications: rows.map((found) => toDto(found, into)), total: total?.n ?? 0 };
  }

  async function row(userId: string, id: string): Promise<Row> {
    const [found] = await select().where(and(eq(publications.id, id), eq(publications.userId, userId)));
    if (!found) throw notFound('publications.notFound');
    return found;
  }

  async function get(userId: string, id: string, into: Language = 'en'): Promise<PublicationDto> {
    return toDto(await row(userId, id), into);
  }

  async function stats(userId: string): Promise<PublicationStats> {
    const [result] = await db
      .select({
        total: sql<number>`count(*)::int`.mapWith(Number),
        published: sql<number>`(count(*) filter (where ${publications.status} = 'published'))::int`.mapWith(Number),
        processing: sql<number>`(count(*) filter (where ${publications.status} = 'processing'))::int`.mapWith(Number),
        failed: sql<number>`(count(*) filter (where ${publications.status} = 'failed'))::int`.mapWith(Number),
        awaitingReview: sql<number>`(count(*) filter (where ${publications.status} = 'awaiting_review'))::int`.mapWith(Number),
        views: sql<number>`coalesce(sum(${publications.views}), 0)::bigint`.mapWith(Number),
        likes: sql<number>`coalesce(sum(${publications.likes}), 0)::bigint`.mapWith(Number),
        updated: sql<string | null>`max(${publications.statsUpdatedAt})`,
      })
      .from(publications)
      .where(eq(publications.userId, userId));
    return {
      total: result?.total ?? 0,
      published: result?.published ?? 0,
      processing: result?.processing ?? 0,
      failed: result?.failed ?? 0,
      awaiting_review: result?.awaitingReview ?? 0,
      total_views: result?.views ?? 0,
      total_likes: result?.likes ?? 0,
      stats_updated_at: result?.updated ? new Date(result.updated).toISOString() : null,
    };
  }

  /** The process and channel must be the user's own. */
  async function checkReferences(userId: string, input: PublicationInput): Promise<void> {
    if (input.process_id) {
      const [found] = await db
        .select({ id: processes.id })
        .from(processes)
        .where(and(eq(processes.id, input.process_id), eq(processes.userId, userId)));
      if (!found) throw unprocessable('processes.notFound');
    }
    if (input.channel_id) {
      const [found] = await db
        .select({ id: channels.id })
        .from(channels)
        .where(and(eq(channels.id, input.channel_id), eq(channels.userId, userId)));
      if (!found) throw unprocessable('channels.notFound');
    }
  }

  function title(value: string | undefined): string {
    const text = value?.trim() ?? '';
    if (!text) throw unprocessable('publications.titleRequired');
    if (text.length > TITLE_MAX) throw unprocessable('publications.titleTooLong', { max: TITLE_MAX });
    return text;
  }

  async function create(userId: string, input: PublicationInput, into: Language = 'en'): Promise<PublicationDto> {
    const videoTitle = title(input.video_title);
    await checkReferences(userId, input);
    const at = now();
    const [created] = await db
      .insert(publications)
      .values({
        userId,
        processId: input.process_id ?? null,
        channelId: input.channel_id ?? null,
        videoTitle,
        searchTitle: searchable(videoTitle),
        videoId: input.video_id?.trim() || null,
        publishedAt: input.published_at ? new Date(input.published_at) : null,
        status: input.status ?? 'processing',
        visibility: input.visibility ?? 'private',
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: publications.id });
    return get(userId, created!.id, into);
  }

  async function update(userId: string, id: string, input: PublicationUpdate, into: Language = 'en'): Promise<PublicationDto> {
    await row(userId, id);
    const changes: Partial<typeof publications.$inferInsert> = { updatedAt: now() };
    if (input.video_title !== undefined) {
      changes.videoTitle = title(input.video_title);
      changes.searchTitle = searchable(changes.videoTitle);
    }
    if (input.status !== undefined) changes.status = input.status;
    if (input.visibility !== undefined) changes.visibility = input.visibility;
    if (input.published_at !== undefined) changes.publishedAt = input.published_at ? new Date(input.published_at) : null;
    await db.update(publications).set(changes).where(eq(publications.id, id));
    return get(userId, id, into);
  }

  /** The credentials for a publication's video: its process's configuration, else its channel's, else the active one. */
  async function credentialsOf(userId: string, current: Row) {
    const p = current.publication;
    const [process] = p.processId
      ? await db.select({ youtubeApiId: processes.youtubeApiId }).from(processes).where(eq(processes.id, p.processId))
      : [];
    const [channel] = p.channelId
      ? await db.select({ channelId: channels.channelId }).from(channels).where(eq(channels.id, p.channelId))
      : [];
    const credentials = await youtubeApis.credentialsFor(userId, {
      youtubeApiId: process?.youtubeApiId ?? null,
      platformChannelId: channel?.channelId ?? null,
    });
    if (!credentials) throw unprocessable('publications.notAuthorized');
    return credentials;
  }

  /**
   * A YouTube failure as a 502 (a refused token as 422: the user must authorize again). The answer
   * names the kind of failure and its HTTP status, never YouTube's own text (the caller logs it).
   */
  function youtubeFailure(error: unknown): AppError {
    const failure = error as Partial<PublishError>;
    const reason = [failure.reason ?? failure.kind ?? 'error', failure.status ? `HTTP ${failure.status}` : null]
      .filter(Boolean)
      .join(', ');
    if (failure.kind === 'invalid_grant' || failure.kind === 'unauthorized')
      return unprocessable('publications.youtubeRefusedToken');
    if (failure.kind === 'quota' || failure.kind === 'upload_limit')
      return new AppError(502, 'publications.youtubeQuota', { reason });
    return new AppError(502, 'publications.youtubeFailed', { reason });
  }

  /** Records YouTube calls with their quota cost, on the configuration's OAuth client. */
  function recordYoutubeCall(
    userId: string,
    operation: string,
    options: { youtubeApiId?: string | null; executionId?: string | null; calls?: number } = {},
  ): Promise<void> {
    return quota.record(userId, operation, options);
  }

  /**
   * One videos.update of the publication's video on YouTube (counted against the quota, a refusal
   * as youtubeFailure's answer); answers the row it read. Nothing of ours changes before it succeeds.
   */
  async function updateVideo(
    userId: string,
    id: string,
    update: (credentials: Awaited<ReturnType<typeof credentialsOf>>, videoId: string) => Promise<unknown>,
  ): Promise<Row> {
    const current = await row(userId, id);
    const videoId = current.publication.videoId;
    if (!videoId) throw unprocessable('publications.noVideo');
    const credentials = await credentialsOf(userId, current);
    try {
      await update(credentials, videoId);
    } catch (error) {
      log?.(error, 'videos.update failed');
      throw youtubeFailure(error);
    } finally {
      await recordYoutubeCall(userId, 'videos.update', { youtubeApiId: credentials.youtubeApiId });
    }
    return current;
  }

  /**
   * videos.update to public on YouTube, then the record. Publishing now is publishing now: a video
   * scheduled for later gets today's date (it would otherwise still read "Scheduled for ...");
   * one already out keeps the date it came out.
   */
  async function publishPublic(userId: string, id: string, into: Language = 'en'): Promise<PublicationDto> {
    const current = await updateVideo(userId, id, (credentials, videoId) => publisher.setPublic({ credentials, videoId }));
    const at = now();
    const earlier = current.publication.publishedAt;
    await db
      .update(publications)
      .set({
        visibility: 'public',
        status: 'published',
        publishedAt: earlier && earlier.getTime() <= at.getTime() ? earlier : at,
        updatedAt: at,
      })
      .where(eq(publications.id, id));
    return get(userId, id, into);
  }

  /**
   * A reviewed video approved for a time: it stays private on YouTube until `publishAt`, when
   * YouTube publishes it; the record waits for that time as any scheduled video.
   */
  async function schedule(userId: string, id: string, publishAt: Date): Promise<PublicationDto> {
    await updateVideo(userId, id, (credentials, videoId) => publisher.schedule({ credentials, videoId, publishAt }));
    await db
      .update(publications)
      .set({ status: 'processing', visibility: 'private', publishedAt: publishAt, updatedAt: now() })
      .where(eq(publications.id, id));
    return get(userId, id);
  }

  /** The publication of an execution, if it has one. */
  async function idOfExecution(executionId: string): Promise<string | undefined> {
    const [found] = await db.select({ id: publications.id }).from(publications).where(eq(publications.executionId, executionId));
    return found?.id;
  }

  /** The uploaded video waits for its owner's review (private, no publication time). */
  async function awaitingReview(id: string): Promise<void> {
    await db
      .update(publications)
      .set({ status: 'awaiting_review', publishedAt: null, updatedAt: now() })
      .where(eq(publications.id, id));
  }

  /**
   * videos.delete on YouTube (a video already gone is fine), then the record. With `keepVideo` only
   * the record goes: the video stays on YouTube (and no authorization is needed).
   */
  async function remove(userId: string, id: string, { keepVideo = false }: { keepVideo?: boolean } = {}): Promise<void> {
    const current = await row(userId, id);
    const videoId = current.publication.videoId;
    if (videoId && !keepVideo) {
      const credentials = await credentialsOf(userId, current);
      try {
        await publisher.deleteVideo({ credentials, videoId });
      } catch (error) {
        log?.(error, 'videos.delete failed');
        throw youtubeFailure(error);
      } finally {
        await recordYoutubeCall(userId, 'videos.delete', { youtubeApiId: credentials.youtubeApiId });
      }
    }
    await db.delete(publications).where(eq(publications.id, id));
  }

  /** The filtered history as CSV: UTF-8 with a BOM (spreadsheets read the accents), headers in `into`. */
  async function report(userId: string, filters: Omit<PublicationFilters, 'skip' | 'limit'>, into: Language): Promise<string> {
    const rows = await select().where(whereOf(userId, filters)).orderBy(desc(publications.listedAt), desc(publications.id));
    const header = [
      'publications.csv.title',
      'publications.csv.videoId',
      'publications.csv.status',
      'publications.csv.visibility',
      'publications.csv.publishedAt',
      'publications.csv.views',
      'publications.csv.likes',
      'publications.csv.channel',
      'publications.csv.process',
      'publications.csv.belowMinimum',
      'publications.csv.failureReason',
      'publications.csv.watchUrl',
    ] as const;
    const lines = [header.map((key) => csvField(translate(into, key))).join(',')];
    for (const dto of rows.map((found) => toDto(found, into))) {
      lines.push(
        [
          dto.video_title,
          dto.video_id,
          translate(into, `publications.statusName.${dto.status}` as 'publications.statusName.published'),
          translate(into, `publications.visibilityName.${dto.visibility}` as 'publications.visibilityName.public'),
          dto.published_at,
          dto.views,
          dto.likes,
          dto.channel_name,
          dto.process_name,
          translate(into, dto.below_min_views ? 'publications.csv.yes' : 'publications.csv.no'),
          dto.failure_reason,
          dto.watch_url,
        ]
          .map(csvField)
          .join(','),
      );
    }
    return `\uFEFF${lines.join('\r\n')}\r\n`;
  }

  type Credentials = NonNullable<Awaited<ReturnType<typeof youtubeApis.credentialsFor>>>;

  /**
   * One quota-aware list call of the statistics job: skipped when the client's quota for the day
   * would dip into the upload reserve; a quotaExceeded answer stops the client until the quota day
   * turns. Answers undefined when the call was not made or failed.
   */
  async function statsCall<T>(
    userId: string,
    credentials: Credentials,
    operation: string,
    call: () => Promise<T>,
  ): Promise<T | undefined> {
    if (!(await quota.statsMayCall(credentials.clientId, operation))) return undefined;
    try {
      return await call();
    } catch (error) {
      if ((error as Partial<PublishError>).kind === 'quota') quota.markExhausted(credentials.clientId);
      log?.(error, `${operation} failed`);
      return undefined;
    } finally {
      await recordYoutubeCall(userId, operation, { youtubeApiId: credentials.youtubeApiId });
    }
  }

  /**
   * The statistics job for one user: videos.list (50 ids a call) for recent publications with a
   * video — views, likes, and the status YouTube reports (public once publishAt passed, failed
   * with its reason) — then channels.list for the user's channels, and the under-minimum flag.
   * Every call is quota-aware (statsCall). Answers the publications updated.
   */
  async function refreshStatsFor(userId: string): Promise<number> {
    const at = now();
    const recent = await db
      .select({
        publication: publications,
        youtubeApiId: processes.youtubeApiId,
        platformChannel: channels.channelId,
        minViews: channels.minViews,
      })
      .from(publications)
      .leftJoin(processes, eq(processes.id, publications.processId))
      .leftJoin(channels, eq(channels.id, publications.channelId))
      .where(
        and(
          eq(publications.userId, userId),
          isNotNull(publications.videoId),
          or(
            eq(publications.status, 'processing'),
            gte(publications.listedAt, new Date(at.getTime() - STATS_WINDOW_DAYS * DAY_MS)),
          ),
        ),
      );
    // One credentials lookup per configuration/channel pair.
    const groups = new Map<string, typeof recent>();
    for (const item of recent) {
      const key = `${item.youtubeApiId ?? ''}|${item.platformChannel ?? ''}`;
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    let updated = 0;
    for (const items of groups.values()) {
      const first = items[0]!;
      const credentials = await youtubeApis.credentialsFor(userId, {
        youtubeApiId: first.youtubeApiId,
        platformChannelId: first.platformChannel,
      });
      if (!credentials) continue;
      for (let i = 0; i < items.length; i += IDS_PER_CALL) {
        const batch = items.slice(i, i + IDS_PER_CALL);
        const found = await statsCall(userId, credentials, 'videos.list', () =>
          publisher.videoStats({ credentials, videoIds: batch.map((item) => item.publication.videoId!) }),
        );
        if (!found) break;
        for (const item of batch) {
          const p = item.publication;
          const video = found.get(p.videoId!);
          if (!video) continue;
          const isPublic = video.privacyStatus === 'public';
          const failed = video.uploadStatus === 'failed' || video.uploadStatus === 'rejected';
          const status = failed ? 'failed' : isPublic ? 'published' : p.status === 'failed' ? 'failed' : p.status;
          const publishedAt = p.publishedAt ?? (isPublic ? at : null);
          const old = publishedAt !== null && at.getTime() - publishedAt.getTime() > MIN_VIEWS_AFTER_DAYS * DAY_MS;
          await db
            .update(publications)
            .set({
              views: video.views,
              likes: video.likes,
              visibility: video.privacyStatus === 'unlisted' || isPublic ? video.privacyStatus : p.visibility,
              status,
              publishedAt,
              ...(failed && p.status !== 'failed' ? processingFailure(video.uploadStatus, video.failureReason, p.id) : {}),
              belowMinViews: status === 'published' && old && video.views < (item.minViews ?? 0),
              statsUpdatedAt: at,
              updatedAt: at,
            })
            .where(eq(publications.id, p.id));
          updated += 1;
        }
      }
    }
    await refreshChannels(userId);
    return updated;
  }

  /** channels.list statistics for the user's channels, with the credentials of each. */
  async function refreshChannels(userId: string): Promise<void> {
    const own = await db.select().from(channels).where(eq(channels.userId, userId));
    const byCredentials = new Map<string, { credentials: Credentials; ids: string[] }>();
    for (const channel of own) {
      const credentials = await youtubeApis.credentialsFor(userId, { platformChannelId: channel.channelId });
      if (!credentials) continue;
      const entry = byCredentials.get(credentials.youtubeApiId) ?? { credentials, ids: [] };
      entry.ids.push(channel.channelId);
      byCredentials.set(credentials.youtubeApiId, entry);
    }
    for (const { credentials, ids } of byCredentials.values()) {
      for (let i = 0; i < ids.length; i += IDS_PER_CALL) {
        const found = await statsCall(userId, credentials, 'channels.list', () =>
          publisher.channelStats({ credentials, channelIds: ids.slice(i, i + IDS_PER_CALL) }),
        );
        if (!found) break;
        for (const [platformId, statsOf] of found) {
          await db
            .update(channels)
            .set({
              subscriberCount: statsOf.subscribers,
              videoCount: statsOf.videos,
              viewCount: statsOf.views,
              statsUpdatedAt: now(),
            })
            .where(and(eq(channels.userId, userId), eq(channels.channelId, platformId)));
        }
      }
    }
  }

  /** The hourly job: every user with recent publications to follow or channels to count. */
  async function refreshAllStats(): Promise<number> {
    const withPublications = db
      .selectDistinct({ userId: publications.userId })
      .from(publications)
      .where(
        and(isNotNull(publications.videoId), gte(publications.listedAt, new Date(now().getTime() - STATS_WINDOW_DAYS * DAY_MS))),
      );
    const withChannels = db.selectDistinct({ userId: channels.userId }).from(channels);
    const users = await withPublications.union(withChannels);
    let updated = 0;
    for (const { userId } of users) updated += await refreshStatsFor(userId);
    return updated;
  }

  // The engine's step 7: one record per execution, found again on a retry or a resumed run.

  /** The execution's publication, made (processing, private) when it has none yet. */
  async function forExecution(input: {
    userId: string;
    executionId: string;
    processId: string;
    channelId: string | null;
    videoTitle: string;
    publishAt: Date;
  }) {
    const [found] = await db.select().from(publications).where(eq(publications.executionId, input.executionId));
    if (found) {
      const [reopened] = await db
        .update(publications)
        .set({
          status: 'processing',
          failureKey: null,
          failureParams: null,
          updatedAt: now(),
          ...(found.videoId ? {} : { publishedAt: input.publishAt }),
        })
        .where(eq(publications.id, found.id))
        .returning();
      return reopened!;
    }
    const at = now();
    const [created] = await db
      .insert(publications)
      .values({
        userId: input.userId,
        executionId: input.executionId,
        processId: input.processId,
        channelId: input.channelId,
        videoTitle: input.videoTitle,
        searchTitle: searchable(input.videoTitle),
        publishedAt: input.publishAt,
        status: 'processing',
        visibility: 'private',
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    return created!;
  }

  /**
   * With a lease, a write only while the run is still that worker's: the publication's row and the
   * run's lease are checked in the same statement (services/executionRuns.ts, Lease).
   */
  const whileHeld = (id: string, lease?: Lease) =>
    lease
      ? and(
          eq(publications.id, id),
          sql`exists (select 1 from ${executions} where ${executions.id} = ${lease.executionId} and ${executions.leaseFence} = ${lease.fence} and ${executions.status} = 'running')`,
        )
      : eq(publications.id, id);

  /** Stores the resumable upload session; false when the run is no longer `lease`'s. */
  async function saveUploadSession(id: string, session: Record<string, unknown> | null, lease?: Lease): Promise<boolean> {
    const rows = await db
      .update(publications)
      .set({ uploadSession: session, updatedAt: now() })
      .where(whileHeld(id, lease))
      .returning({ id: publications.id });
    return rows.length > 0;
  }

  /** Records the uploaded video; false when the run is no longer `lease`'s (cancelled, or taken by another worker). */
  async function uploaded(id: string, videoId: string, lease?: Lease): Promise<boolean> {
    const rows = await db
      .update(publications)
      .set({ videoId, uploadSession: null, updatedAt: now() })
      .where(whileHeld(id, lease))
      .returning({ id: publications.id });
    return rows.length > 0;
  }

  /** The upload failed: stored as a message key and its parameters (the upstream text is the caller's to log). */
  async function uploadFailed(id: string, key: MessageKey, params: MessageParams = {}): Promise<void> {
    await db
      .update(publications)
      .set({ status: 'failed', failureKey: key, failureParams: params, updatedAt: now() })
      .where(eq(publications.id, id));
  }

  /** YouTube failed or rejected an uploaded video: its enum reason goes to the log, a key of ours to the row. */
  function processingFailure(uploadStatus: string | null | undefined, reason: string | null, publicationId: string) {
    log?.(
      new Error(`YouTube ${uploadStatus ?? 'failed'} the video: ${reason ?? 'no reason given'}`),
      `publication ${publicationId}`,
    );
    const key: MessageKey = uploadStatus === 'rejected' ? 'publications.failure.rejected' : 'publications.failure.processing';
    return { failureKey: key, failureParams: {} };
  }

  /** Refreshes run in this process (no queue), so closing the app can wait for them. */
  const inProcess = new Set<Promise<unknown>>();

  /** POST /publications/stats/refresh: queued when there is a queue, else run in the background here. */
  async function requestRefresh(userId: string): Promise<void> {
    if (enqueueRefresh) {
      await enqueueRefresh(userId);
      return;
    }
    const running = refreshStatsFor(userId)
      .catch((error: unknown) => log?.(error, 'stats refresh failed'))
      .finally(() => inProcess.delete(running));
    inProcess.add(running);
  }

  /** Waits for the refreshes started in this process (the app's shutdown). */
  async function drain(): Promise<void> {
    await Promise.allSettled([...inProcess]);
  }

  return {
    list,
    get,
    stats,
    create,
    update,
    publishPublic,
    schedule,
    idOfExecution,
    awaitingReview,
    remove,
    report,
    refreshStatsFor,
    refreshAllStats,
    requestRefresh,
    drain,
    forExecution,
    saveUploadSession,
    uploaded,
    uploadFailed,
    recordYoutubeCall,
  };
}

export type PublicationService = ReturnType<typeof createPublicationService>;
