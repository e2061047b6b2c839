import { and, count, desc, eq, inArray, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { executions, processes, rateLimits } from '../db/schema';
import { AppError, conflict, notFound, unprocessable } from '../errors';
import type { Language, MessageKey, MessageParams } from '../messages';
import type { MediaStorage } from '../providers/mediaStorage';
import type { Page } from './paging';
import { describeError } from './errorText';
import { PROCESS_STEPS, RUN_FILES } from '../runLayout';
import {
  type ExecutionDto,
  type ExecutionStatus,
  type ExecutionStepDto,
  type ExecutionTrigger,
  type ProcessStatus,
  type StepStatus,
} from '../contracts/processes';
import { createLinkSigner } from '../lib/signedLinks';

/**
 * Executions: one run of a process through the seven steps (docs/api-processes.md, "Executions").
 * This service owns the records and their rules: starting a run (409 while one runs), retrying a
 * failed one from its checkpoint, cancelling a scheduled run that has not started, the answers
 * with translated errors and estimates, and the signed links of the rendered files. Running the
 * steps is the engine's (server/src/pipeline).
 */

/** A run under way: waiting for a worker or held by one. A process with one cannot start another. */
export const ACTIVE_EXECUTION_STATUSES = ['queued', 'running'] as const;

/** Whether a process or execution status means a run is under way. */
export function isActiveStatus(status: string): status is (typeof ACTIVE_EXECUTION_STATUSES)[number] {
  return (ACTIVE_EXECUTION_STATUSES as readonly string[]).includes(status);
}

/**
 * What a process shows once no run of it is under way: its last run's outcome, idle when there is
 * none. A rejected video is not an outcome (the callers read the run before it).
 */
export function settledProcessStatus(last: ExecutionStatus | undefined): ProcessStatus {
  return last === undefined || last === 'rejected' || isActiveStatus(last) ? 'idle' : last;
}
/** Spec §9: 2 seconds per remaining step until measured durations exist. */
export const DEFAULT_STEP_SECONDS = 2;
/** How long a signed media link stays valid. */
export const MEDIA_LINK_TTL_MS = 60 * 60 * 1000;

type ExecutionRow = typeof executions.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Runner = Db | Tx;

/** What the engine stores in a checkpoint about the rendered video. */
export interface VideoCheckpoint {
  file: string;
  thumbnail: string;
  durationSeconds: number;
}

/** The warnings a checkpoint holds ({key, params} each), ignoring anything malformed. */
function storedWarnings(value: unknown): Array<{ key: string; params: Record<string, string | number> }> {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is { key: string; params: Record<string, string | number> } =>
      typeof item === 'object' && item !== null && typeof (item as { key?: unknown }).key === 'string',
  );
}

/** A run's error: English text for logs, a key and params for readers. */
export interface StoredError {
  key: MessageKey;
  params?: MessageParams;
  text: string;
}

export interface ExecutionServiceDeps {
  db: Db;
  now: () => Date;
  appSecret: string;
  storage: MediaStorage;
  /** Hands a running execution to the job queue; absent when this process cannot enqueue. */
  enqueue?: (executionId: string) => Promise<string | null>;
  /** Per-user ceilings on the runs an owner starts by hand (absent: none). */
  limits?: RunLimits;
}

/**
 * What one user may ask of the shared queue (issue 28): "run now" and "retry" are refused (429)
 * while `maxActivePerUser` of their runs are queued or running, the scheduler's included, or once
 * `maxManualPerHour` of them were accepted in the current hour. The scheduler itself is never
 * refused (docs/decisions.md, "Run ceilings").
 */
export interface RunLimits {
  maxActivePerUser: number;
  maxManualPerHour: number;
}

const HOUR_MS = 60 * 60 * 1000;

export function createExecutionService({ db, now, appSecret, storage, enqueue, limits }: ExecutionServiceDeps) {
  const links = createLinkSigner({ appSecret, purpose: 'media-links', ttlMs: MEDIA_LINK_TTL_MS, now });

  /** `/api/v1/media/...` with an expiry and signature (lib/signedLinks.ts); valid MEDIA_LINK_TTL_MS. */
  function signedMediaUrl(executionId: string, file: string): string {
    return `/api/v1/media/${executionId}/${file}?${links.query(`${executionId}/${file}`)}`;
  }

  /** True when the link is ours and has not expired. */
  function verifyMediaLink(executionId: string, file: string, expires: number, signature: string): boolean {
    return links.verify(`${executionId}/${file}`, expires, signature);
  }

  /** Mean measured duration (ms) per step key over the process's recent runs. */
  async function measuredStepMs(processId: string): Promise<Map<string, number>> {
    const rows = await db
      .select({ stepTimes: executions.stepTimes })
      .from(executions)
      .where(eq(executions.processId, processId))
      .orderBy(desc(executions.createdAt))
      .limit(10);
    const sums = new Map<string, { total: number; n: number }>();
    for (const row of rows) {
      for (const [key, times] of Object.entries(row.stepTimes)) {
        if (!times.startedAt || !times.finishedAt) continue;
        const ms = Date.parse(times.finishedAt) - Date.parse(times.startedAt);
        if (!(ms >= 0)) continue;
        const sum = sums.get(key) ?? { total: 0, n: 0 };
        sums.set(key, { total: sum.total + ms, n: sum.n + 1 });
      }
    }
    return new Map([...sums].map(([key, { total, n }]) => [key, total / n]));
  }

  function stepsOf(row: ExecutionRow): ExecutionStepDto[] {
    return PROCESS_STEPS.map((key, index) => {
      const times = row.stepTimes[key] ?? {};
      let status: StepStatus = 'pending';
      if (times.finishedAt) status = 'done';
      else if (index === row.currentStep && row.status === 'running' && times.startedAt) status = 'running';
      else if (index === row.currentStep && row.status === 'error') status = 'error';
      const startedAt = times.startedAt ?? null;
      const finishedAt = times.finishedAt ?? null;
      return {
        key,
        status,
        started_at: startedAt,
        finished_at: finishedAt,
        duration_ms: startedAt && finishedAt ? Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)) : null,
      };
    });
  }

  /**
   * Seconds left: for each step not done, its measured mean (less what the running step has
   * already spent), or DEFAULT_STEP_SECONDS when never measured.
   */
  function estimate(row: ExecutionRow, steps: ExecutionStepDto[], measured: Map<string, number>): number {
    let ms = 0;
    for (const step of steps) {
      if (step.status === 'done') continue;
      const mean = measured.get(step.key) ?? DEFAULT_STEP_SECONDS * 1000;
      const spent = step.status === 'running' && step.started_at ? now().getTime() - Date.parse(step.started_at) : 0;
      ms += Math.max(step.status === 'running' ? 0 : mean, mean - spent);
    }
    return Math.max(0, Math.round(ms / 1000));
  }

  /** 1 for the next run a worker takes: queued runs, all users', that entered the queue before it. */
  async function queuePosition(row: ExecutionRow): Promise<number> {
    const [ahead] = await db
      .select({ n: count() })
      .from(executions)
      .where(
        and(
          eq(executions.status, 'queued'),
          or(lt(executions.queuedAt, row.queuedAt), and(eq(executions.queuedAt, row.queuedAt), lt(executions.id, row.id))),
        ),
      );
    return (ahead?.n ?? 0) + 1;
  }

  async function toDto(row: ExecutionRow, into: Language): Promise<ExecutionDto> {
    const steps = stepsOf(row);
    const video = row.checkpoint.video as VideoCheckpoint | undefined;
    const hasVideo = video !== undefined && (await storage.size(row.id, RUN_FILES.video)) !== undefined;
    const hasThumbnail = video !== undefined && (await storage.size(row.id, RUN_FILES.thumbnail)) !== undefined;
    return {
      id: row.id,
      process_id: row.processId,
      status: row.status,
      trigger: row.trigger,
      current_step: row.currentStep,
      steps,
      story_title: row.storyTitle,
      error: describeError(row.errorKey, row.errorParams, row.error, into),
      queued_at: row.queuedAt.toISOString(),
      started_at: row.startedAt?.toISOString() ?? null,
      finished_at: row.finishedAt?.toISOString() ?? null,
      queue_position: row.status === 'queued' ? await queuePosition(row) : null,
      estimated_seconds_left:
        row.status === 'running' || row.status === 'queued' ? estimate(row, steps, await measuredStepMs(row.processId)) : null,
      video_url: hasVideo ? signedMediaUrl(row.id, RUN_FILES.video) : null,
      thumbnail_url: hasThumbnail ? signedMediaUrl(row.id, RUN_FILES.thumbnail) : null,
      video_duration_seconds: video ? Math.round(video.durationSeconds * 10) / 10 : null,
      warnings: storedWarnings(row.checkpoint.warnings).map(
        (warning) => describeError(warning.key, warning.params, warning.key, into) ?? '',
      ),
      progress: row.status === 'running' ? (row.progress ?? null) : null,
      created_at: row.createdAt.toISOString(),
    };
  }

  async function ownRow(userId: string, id: string): Promise<ExecutionRow> {
    const [row] = await db
      .select()
      .from(executions)
      .where(and(eq(executions.id, id), eq(executions.userId, userId)));
    if (!row) throw notFound('executions.notFound');
    return row;
  }

  async function get(userId: string, id: string, into: Language): Promise<ExecutionDto> {
    return toDto(await ownRow(userId, id), into);
  }

  /** A process's executions, newest first (404 for another user's process). */
  async function list(userId: string, processId: string, page: Page, into: Language) {
    const [owner] = await db
      .select({ id: processes.id })
      .from(processes)
      .where(and(eq(processes.id, processId), eq(processes.userId, userId)));
    if (!owner) throw notFound('processes.notFound');
    const where = eq(executions.processId, processId);
    const rows = await db
      .select()
      .from(executions)
      .where(where)
      .orderBy(desc(executions.createdAt), desc(executions.id))
      .offset(page.skip)
      .limit(page.limit);
    const [total] = await db.select({ n: count() }).from(executions).where(where);
    return { executions: await Promise.all(rows.map((row) => toDto(row, into))), total: total?.n ?? 0 };
  }

  /**
   * Whether the owner may start (or retry) one more run by hand, inside the transaction that
   * starts it, after its own checks (404, 409, 422 come first): a per-user advisory lock
   * (parallel requests take turns, so they cannot all pass the count together), then the runs queued or running, then the hour's counter
   * (rate_limits, `runs:user:<id>`), moved in the same transaction: a refusal, or any later
   * failure of the start, rolls it back, so only runs that started are counted.
   */
  async function admit(tx: Tx, userId: string): Promise<void> {
    if (!limits) return;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`runs:${userId}`}))`);
    const [active] = await tx
      .select({ n: count() })
      .from(executions)
      .where(and(eq(executions.userId, userId), inArray(executions.status, [...ACTIVE_EXECUTION_STATUSES])));
    const waiting = active?.n ?? 0;
    if (waiting >= limits.maxActivePerUser) throw new AppError(429, 'executions.tooManyActive', { count: waiting });
    const at = now().getTime();
    const windowStart = new Date(Math.floor(at / HOUR_MS) * HOUR_MS);
    const [counted] = await tx
      .insert(rateLimits)
      .values({ key: `runs:user:${userId}`, windowStart, count: 1 })
      .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
      .returning({ count: rateLimits.count });
    if ((counted?.count ?? 1) > limits.maxManualPerHour) {
      const seconds = Math.max(1, Math.ceil((windowStart.getTime() + HOUR_MS - at) / 1000));
      throw new AppError(
        429,
        'executions.tooManyStarts',
        { limit: limits.maxManualPerHour, count: Math.ceil(seconds / 60) },
        { 'retry-after': String(seconds) },
      );
    }
  }

  /** Hands the execution to the queue; a refusal ends it in error so nothing stays running. */
  async function dispatch(executionId: string, processId: string): Promise<void> {
    if (!enqueue) return;
    try {
      const jobId = await enqueue(executionId);
      if (jobId) await db.update(executions).set({ jobId }).where(eq(executions.id, executionId));
    } catch (error) {
      const text = `could not enqueue: ${error instanceof Error ? error.message : String(error)}`;
      await db.transaction(async (tx) => {
        await tx
          .update(executions)
          .set({ status: 'error', error: text, errorKey: 'executions.queueUnavailable', errorParams: {}, finishedAt: now() })
          .where(eq(executions.id, executionId));
        await tx
          .update(processes)
          .set({
            status: 'error',
            lastError: text,
            lastErrorKey: 'executions.queueUnavailable',
            lastErrorParams: {},
            updatedAt: now(),
          })
          .where(eq(processes.id, processId));
      });
      throw new AppError(503, 'executions.queueUnavailable');
    }
  }

  /**
   * Starts a run of the process: a new execution at step 0 and the process `running` with the
   * seven steps, in one transaction that holds the process row (so two starts cannot both pass the
   * 409 check). `userId` undefined is the scheduler acting for the owner.
   */
  async function start(
    processId: string,
    trigger: ExecutionTrigger,
    userId?: string,
  ): Promise<{ execution_id: string; process_id: string }> {
    const at = now();
    const executionId = await db.transaction(async (tx) => {
      const where = userId ? and(eq(processes.id, processId), eq(processes.userId, userId)) : eq(processes.id, processId);
      const [process] = await tx.select().from(processes).where(where).for('update');
      if (!process) throw notFound('processes.notFound');
      if (isActiveStatus(process.status)) throw conflict('executions.alreadyRunning');
      // The owner's "run now" goes through the ceilings; the scheduler's (no userId) never does.
      if (userId) await admit(tx, userId);
      const [row] = await tx
        .insert(executions)
        .values({
          processId,
          userId: process.userId,
          status: 'queued',
          currentStep: 0,
          language: process.language,
          trigger,
          queuedAt: at,
          createdAt: at,
        })
        .returning({ id: executions.id });
      await tx
        .update(processes)
        .set({
          status: 'queued',
          executionStep: 0,
          executionSteps: [...PROCESS_STEPS],
          lastExecution: at,
          lastError: null,
          lastErrorKey: null,
          lastErrorParams: null,
          updatedAt: at,
        })
        .where(eq(processes.id, processId));
      return row!.id;
    });
    await dispatch(executionId, processId);
    return { execution_id: executionId, process_id: processId };
  }

  /**
   * Resumes a failed execution from its checkpoint: the same record, running again at the step
   * that failed, the earlier steps' outputs reused.
   */
  async function retry(userId: string, executionId: string): Promise<{ execution_id: string; process_id: string }> {
    const at = now();
    const processId = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(executions)
        .where(and(eq(executions.id, executionId), eq(executions.userId, userId)));
      if (!row) throw notFound('executions.notFound');
      const [process] = await tx.select().from(processes).where(eq(processes.id, row.processId)).for('update');
      if (!process) throw notFound('processes.notFound');
      if (isActiveStatus(process.status)) throw conflict('executions.alreadyRunning');
      if (row.status !== 'error') throw unprocessable('executions.notRetryable');
      await admit(tx, userId);
      await tx
        .update(executions)
        .set({
          status: 'queued',
          queuedAt: at,
          trigger: 'retry',
          error: null,
          errorKey: null,
          errorParams: null,
          finishedAt: null,
          heartbeatAt: null,
          recoveries: 0,
        })
        .where(eq(executions.id, executionId));
      await tx
        .update(processes)
        .set({
          status: 'queued',
          executionStep: row.currentStep,
          executionSteps: [...PROCESS_STEPS],
          lastExecution: at,
          lastError: null,
          lastErrorKey: null,
          lastErrorParams: null,
          updatedAt: at,
        })
        .where(eq(processes.id, row.processId));
      return row.processId;
    });
    await dispatch(executionId, processId);
    return { execution_id: executionId, process_id: processId };
  }

  /**
   * A scheduled run still waiting in the queue is cancelled when its process is switched off;
   * the process goes back to the status of its previous run (idle when there was none).
   */
  async function cancelPending(tx: Runner, processId: string): Promise<void> {
    const cancelled = await tx
      .update(executions)
      .set({ status: 'cancelled', finishedAt: now() })
      .where(and(eq(executions.processId, processId), eq(executions.status, 'queued'), eq(executions.trigger, 'schedule')))
      .returning({ id: executions.id });
    if (cancelled.length === 0) return;
    const [previous] = await tx
      .select({ status: executions.status })
      .from(executions)
      .where(and(eq(executions.processId, processId), ne(executions.status, 'cancelled'), ne(executions.status, 'rejected')))
      .orderBy(desc(executions.createdAt))
      .limit(1);
    await tx
      .update(processes)
      .set({ status: settledProcessStatus(previous?.status), executionStep: null, executionSteps: null, updatedAt: now() })
      .where(eq(processes.id, processId));
  }

  /** Deletes the media of executions (the records go with their process by foreign key). */
  async function removeMedia(executionIds: string[]): Promise<void> {
    await Promise.all(executionIds.map((id) => storage.remove(id)));
  }

  async function idsOfProcess(processId: string): Promise<string[]> {
    const rows = await db.select({ id: executions.id }).from(executions).where(eq(executions.processId, processId));
    return rows.map((row) => row.id);
  }

  /** Hands a run left by a dead worker to the queue again (the engine's recovery). */
  async function resume(executionId: string, processId: string): Promise<void> {
    await dispatch(executionId, processId);
  }

  return {
    get,
    list,
    start,
    resume,
    retry,
    cancelPending,
    removeMedia,
    idsOfProcess,
    signedMediaUrl,
    verifyMediaLink,
    toDto,
    storage,
  };
}

export type ExecutionService = ReturnType<typeof createExecutionService>;
