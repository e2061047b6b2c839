import crypto from 'node:crypto';
import { and, asc, eq, inArray, isNull, ne, notInArray, or, sql, type WithSubquery } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db';
import {
  apiCalls,
  executions,
  processes,
  promptLanguages,
  prompts,
  storyTitles,
  users,
  voices,
  type StepProgress,
} from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { QUEUES } from '../jobs';
import { ACTIVE_EXECUTION_STATUSES, isActiveStatus, type StoredError } from './executions';
import { PROCESS_STEPS } from '../runLayout';
import { EXECUTION_INTERVAL_DAYS } from './processes';

/**
 * The state machine of a run, as the engine (server/src/pipeline) drives it: claiming a job's
 * execution, step start and finish with their times and checkpoint, heartbeats, success and
 * failure (mirrored on the process), the scheduler's due slots, finding runs a dead worker left,
 * the story-title history and the record of external calls. Every change is one statement or
 * one transaction, so a crash between two leaves a state the next start can read.
 */

export type ExecutionRow = typeof executions.$inferSelect;
export type ProcessRow = typeof processes.$inferSelect;
export type VoiceRow = typeof voices.$inferSelect;
export type PromptTexts = typeof promptLanguages.$inferSelect & { content: string; promptName: string };

const DAY_MS = 24 * 60 * 60 * 1000;
export const INTERVAL_MS = EXECUTION_INTERVAL_DAYS * DAY_MS;

/** Lower case, accents and punctuation removed, spaces collapsed: what title uniqueness is checked on. */
export function normalizeTitle(title: string): string {
  return title
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The first slot of the process's rhythm strictly after `now` (a missed slot is not made up twice). */
export function slotAfter(due: Date, now: Date): Date {
  if (due.getTime() > now.getTime()) return due;
  const steps = Math.floor((now.getTime() - due.getTime()) / INTERVAL_MS) + 1;
  return new Date(due.getTime() + steps * INTERVAL_MS);
}

/**
 * A worker's hold on a run: who (owner) and which taking of it (fence). Every write of the run
 * checks both in the same statement; a worker whose run was given to another (by a recovery, or
 * taken back by a cancel) finds nothing to write and stops (LeaseLost).
 */
export interface Lease {
  executionId: string;
  owner: string;
  fence: number;
}

/** The run is no longer this worker's: stop at once, write nothing more. */
export class LeaseLost extends Error {
  constructor(readonly executionId: string) {
    super(`the run ${executionId} is no longer held by this worker`);
    this.name = 'LeaseLost';
  }
}

/** pg-boss's queue of execution runs. */
const QUEUE_NAME = QUEUES.execution;

/** How many due processes one claiming statement takes (the scheduler loops until fewer come back). */
export const CLAIM_BATCH = 1000;

/** The rows of a raw statement, from node-postgres (`{ rows }`) or PGlite (`{ rows }` as well) or an array. */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** A heartbeat older than this means the holder is gone (LEASE_STALE_SECONDS; the engine's recovery uses the same). */
export const LEASE_STALE_MS = 90_000;

export function createExecutionRunService({ db, now, staleMs = LEASE_STALE_MS }: { db: Db; now: () => Date; staleMs?: number }) {
  /** The conditions every write of a held run carries: still running, still this taking. */
  const held = (lease: Lease) =>
    and(eq(executions.id, lease.executionId), eq(executions.status, 'running'), eq(executions.leaseFence, lease.fence));

  /**
   * The statements every run makes (claim, step started and finished, fail, its reads and the
   * record of its calls), built once with
   * placeholders and prepared by name (issue 20: drizzle took about as much CPU to build them as
   * PostgreSQL took to run them, 0.1 to 0.5 ms each; a named statement is also parsed and planned
   * once per connection). Built on first use. `bound` places a placeholder where drizzle's types
   * want a value: drizzle binds it to the column, whose encoder maps the value given at execution
   * exactly as it maps a literal (JSON for jsonb, ISO text for dates).
   */
  const bound = <T>(name: string) => sql.placeholder(name) as unknown as T;
  let statements: ReturnType<typeof prepareStatements> | undefined;
  const prepared = () => (statements ??= prepareStatements());
  function prepareStatements() {
    const heldNow = and(
      eq(executions.id, sql.placeholder('id')),
      eq(executions.status, 'running'),
      eq(executions.leaseFence, sql.placeholder('fence')),
    );
    const claimOf = (withJob: boolean) => {
      const claimed = db.$with('claimed').as(
        db
          .update(executions)
          .set({
            status: 'running',
            startedAt: sql`coalesce(${executions.startedAt}, ${sql.placeholder('atText')}::timestamptz)`,
            heartbeatAt: bound('at'),
            leaseOwner: bound('owner'),
            leaseFence: sql`${executions.leaseFence} + 1`,
            ...(withJob ? { jobId: bound<string>('jobId') } : {}),
          })
          .where(
            and(
              eq(executions.id, sql.placeholder('id')),
              inArray(executions.status, [...ACTIVE_EXECUTION_STATUSES]),
              withJob ? or(isNull(executions.jobId), eq(executions.jobId, sql.placeholder('jobId'))) : undefined,
              or(
                isNull(executions.leaseOwner),
                sql`coalesce(${executions.heartbeatAt}, ${executions.createdAt}) < ${sql.placeholder('staleBefore')}::timestamptz`,
              ),
            ),
          )
          .returning(),
      );
      return db
        .with(claimed)
        .select()
        .from(claimed)
        .leftJoin(processes, eq(processes.id, claimed.processId))
        .prepare(withJob ? 'storyflow_claim_for_job' : 'storyflow_claim');
    };
    const started = db.$with('started').as(
      db
        .update(executions)
        .set({ currentStep: bound('step'), stepTimes: bound('stepTimes'), progress: null, heartbeatAt: bound('at') })
        .where(heldNow)
        .returning(),
    );
    // A step finished and the next one starts: one statement, not two.
    const advanced = db.$with('advanced').as(
      db
        .update(executions)
        .set({
          currentStep: bound('step'),
          stepTimes: bound('stepTimes'),
          checkpoint: bound('checkpoint'),
          progress: null,
          heartbeatAt: bound('at'),
        })
        .where(heldNow)
        .returning(),
    );
    const failed = db.$with('failed').as(
      db
        .update(executions)
        .set({
          status: 'error',
          error: bound('text'),
          errorKey: bound('key'),
          errorParams: bound('params'),
          finishedAt: bound('at'),
          leaseOwner: null,
        })
        .where(heldNow)
        .returning({ processId: executions.processId }),
    );
    return {
      voice: db
        .select()
        .from(voices)
        .where(eq(voices.id, sql.placeholder('id')))
        .prepare('storyflow_run_voice'),
      promptTexts: db
        .select({ texts: promptLanguages, content: prompts.content, promptName: prompts.name })
        .from(promptLanguages)
        .innerJoin(prompts, eq(prompts.id, promptLanguages.promptId))
        .where(
          and(
            eq(promptLanguages.promptId, sql.placeholder('promptId')),
            eq(promptLanguages.language, sql.placeholder('language')),
          ),
        )
        .prepare('storyflow_run_prompt_texts'),
      previousTitles: db
        .select({ title: storyTitles.title })
        .from(storyTitles)
        .where(
          and(eq(storyTitles.processId, sql.placeholder('processId')), eq(storyTitles.language, sql.placeholder('language'))),
        )
        .orderBy(asc(storyTitles.createdAt))
        .prepare('storyflow_run_titles'),
      recordCall: db
        .insert(apiCalls)
        .values({
          userId: bound('userId'),
          executionId: bound('executionId'),
          service: bound('service'),
          operation: bound('operation'),
          createdAt: bound('at'),
        })
        .prepare('storyflow_run_record_call'),
      claim: claimOf(false),
      claimForJob: claimOf(true),
      stepStarted: db
        .with(started, alsoOnProcess(started, { executionStep: bound('step'), status: 'running' }))
        .select()
        .from(started)
        .prepare('storyflow_step_started'),
      stepFinished: db
        .update(executions)
        .set({ stepTimes: bound('stepTimes'), checkpoint: bound('checkpoint'), progress: null, heartbeatAt: bound('at') })
        .where(heldNow)
        .returning()
        .prepare('storyflow_step_finished'),
      stepAdvanced: db
        .with(advanced, alsoOnProcess(advanced, { executionStep: bound('step'), status: 'running' }))
        .select()
        .from(advanced)
        .prepare('storyflow_step_advanced'),
      fail: db
        .with(
          failed,
          alsoOnProcess(failed, {
            status: 'error',
            lastError: bound('text'),
            lastErrorKey: bound('key'),
            lastErrorParams: bound('params'),
            updatedAt: bound('at'),
          }),
        )
        .select()
        .from(failed)
        .prepare('storyflow_fail'),
    };
  }

  /**
   * Takes the execution for a job: it must still be queued (or running, held by nobody or by a
   * holder whose heartbeat went stale) and not handed to a newer job. It is running from now on,
   * started at the first taking. Moves the fence, so whoever held it before can write nothing more. Answers the row and the lease, or undefined when the job has
   * nothing to do (cancelled, finished, deleted, superseded, or another worker is on it).
   * The run's process comes back from the same statement (undefined when it is gone), so taking a
   * job costs one round trip to the database, not two (issue 20: the drain is CPU-bound).
   */
  async function claim(
    executionId: string,
    jobId: string | null,
    owner: string,
  ): Promise<{ row: ExecutionRow; lease: Lease; process: ProcessRow | undefined } | undefined> {
    const at = now();
    const values = {
      id: executionId,
      owner,
      at,
      atText: at.toISOString(),
      staleBefore: new Date(at.getTime() - staleMs).toISOString(),
    };
    const [found] = jobId ? await prepared().claimForJob.execute({ ...values, jobId }) : await prepared().claim.execute(values);
    if (!found) return undefined;
    const row = found.claimed;
    return { row, lease: { executionId, owner, fence: row.leaseFence }, process: found.processes ?? undefined };
  }

  /** Touches the heartbeat; false when the run was cancelled, finished, deleted or taken by another worker. */
  async function heartbeat(lease: Lease): Promise<boolean> {
    const rows = await db.update(executions).set({ heartbeatAt: now() }).where(held(lease)).returning({ id: executions.id });
    return rows.length > 0;
  }

  /** Throws LeaseLost unless the run is still this lease's (the check before an upload starts). */
  async function assertHeld(lease: Lease): Promise<void> {
    if (!(await heartbeat(lease))) throw new LeaseLost(lease.executionId);
  }

  /**
   * Gives the run back without spending a recovery (a graceful stop): nobody holds it, and the
   * fence moves so this worker can write nothing more. The caller queues it again.
   */
  async function release(lease: Lease): Promise<boolean> {
    const rows = await db
      .update(executions)
      .set({ leaseOwner: null, jobId: null, leaseFence: sql`${executions.leaseFence} + 1` })
      .where(held(lease))
      .returning({ id: executions.id });
    return rows.length > 0;
  }

  async function load(executionId: string): Promise<ExecutionRow | undefined> {
    const [row] = await db.select().from(executions).where(eq(executions.id, executionId));
    return row;
  }

  async function processOf(processId: string): Promise<ProcessRow | undefined> {
    const [row] = await db.select().from(processes).where(eq(processes.id, processId));
    return row;
  }

  /** The owner's IANA time zone (publication times are in it). */
  async function timeZoneOf(userId: string): Promise<string> {
    const [row] = await db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, userId));
    return row?.timeZone || 'UTC';
  }

  async function voice(id: string): Promise<VoiceRow | undefined> {
    const [row] = await prepared().voice.execute({ id });
    return row;
  }

  /** The prompt's texts in a language, with its base content. */
  async function promptTexts(promptId: string, language: string): Promise<PromptTexts | undefined> {
    const [row] = await prepared().promptTexts.execute({ promptId, language });
    return row ? { ...row.texts, content: row.content, promptName: row.promptName } : undefined;
  }

  /**
   * The process of the run `changed` (a CTE of an execution update returning `processId`) gets
   * `values`, in the same statement: a data-modifying CTE is atomic like the transaction of two
   * statements it replaces, and costs one round trip instead of four (begin, two updates, commit).
   * Nothing changes on the process when the execution's update matched nothing (a lost lease).
   */
  function alsoOnProcess(changed: WithSubquery & { processId: AnyPgColumn }, values: Partial<ProcessRow>) {
    return db.$with('process_moved').as(
      db
        .update(processes)
        .set(values)
        .where(inArray(processes.id, db.select({ id: changed.processId }).from(changed))),
    );
  }

  /** Step `index` starts: its start time, the execution's and the process's current step. Throws LeaseLost. */
  async function stepStarted(lease: Lease, row: ExecutionRow, index: number): Promise<ExecutionRow> {
    const key = PROCESS_STEPS[index]!;
    const stepTimes = { ...row.stepTimes, [key]: { startedAt: now().toISOString() } };
    // The execution's step and the process's, in one statement (see alsoOnProcess).
    const [updated] = await prepared().stepStarted.execute({
      id: lease.executionId,
      fence: lease.fence,
      step: index,
      stepTimes,
      at: now(),
    });
    if (!updated) throw new LeaseLost(lease.executionId);
    return updated;
  }

  /**
   * Step `index` finished: its finish time and the checkpoint with its outputs. With `next`, that
   * step starts in the same statement (as stepStarted would record it), so moving from one step to
   * the next costs one round trip. Throws LeaseLost.
   */
  async function stepFinished(
    lease: Lease,
    row: ExecutionRow,
    index: number,
    checkpoint: Record<string, unknown>,
    next?: number,
  ): Promise<ExecutionRow> {
    const key = PROCESS_STEPS[index]!;
    const at = now();
    const stepTimes = { ...row.stepTimes, [key]: { ...row.stepTimes[key], finishedAt: at.toISOString() } };
    const values = { id: lease.executionId, fence: lease.fence, stepTimes, checkpoint, at };
    let updated: ExecutionRow | undefined;
    if (next === undefined) [updated] = await prepared().stepFinished.execute(values);
    else {
      stepTimes[PROCESS_STEPS[next]!] = { startedAt: at.toISOString() };
      [updated] = await prepared().stepAdvanced.execute({ ...values, step: next });
    }
    if (!updated) throw new LeaseLost(lease.executionId);
    return updated;
  }

  /** How far the current step is, for the execution dialog. Throws LeaseLost. */
  async function saveProgress(lease: Lease, progress: StepProgress): Promise<void> {
    const rows = await db.update(executions).set({ progress }).where(held(lease)).returning({ id: executions.id });
    if (rows.length === 0) throw new LeaseLost(lease.executionId);
  }

  /** Saves the checkpoint in the middle of a step (after each chapter, each audio...). Throws LeaseLost. */
  async function saveCheckpoint(lease: Lease, checkpoint: Record<string, unknown>, storyTitle?: string): Promise<void> {
    const rows = await db
      .update(executions)
      .set({ checkpoint, heartbeatAt: now(), ...(storyTitle ? { storyTitle } : {}) })
      .where(held(lease))
      .returning({ id: executions.id });
    if (rows.length === 0) throw new LeaseLost(lease.executionId);
  }

  /**
   * The run failed: the execution and the process say why. With a lease, only while it is still
   * this worker's (a lost run is not failed by a worker that no longer holds it); without one
   * (a recovery ending a run left too often), while it is running.
   */
  async function fail(row: ExecutionRow, error: StoredError, lease?: Lease): Promise<void> {
    const at = now();
    // One statement (see alsoOnProcess): the process says why only when the execution was failed here.
    if (lease) {
      await prepared().fail.execute({
        id: lease.executionId,
        fence: lease.fence,
        text: error.text,
        key: error.key,
        params: error.params ?? {},
        at,
      });
      return;
    }
    const failed = db.$with('failed').as(
      db
        .update(executions)
        .set({
          status: 'error',
          error: error.text,
          errorKey: error.key,
          errorParams: error.params ?? {},
          finishedAt: at,
          leaseOwner: null,
        })
        .where(and(eq(executions.id, row.id), inArray(executions.status, [...ACTIVE_EXECUTION_STATUSES])))
        .returning({ processId: executions.processId }),
    );
    await db
      .with(
        failed,
        alsoOnProcess(failed, {
          status: 'error',
          lastError: error.text,
          lastErrorKey: error.key,
          lastErrorParams: error.params ?? {},
          updatedAt: at,
        }),
      )
      .select()
      .from(failed);
  }

  /** The run finished every step. Throws LeaseLost when it is no longer this worker's. */
  async function complete(lease: Lease, row: ExecutionRow): Promise<void> {
    const at = now();
    const completed = db
      .$with('completed')
      .as(
        db
          .update(executions)
          .set({ status: 'completed', finishedAt: at, error: null, errorKey: null, errorParams: null, leaseOwner: null })
          .where(held(lease))
          .returning({ processId: executions.processId }),
      );
    const updated = await db
      .with(completed, alsoOnProcess(completed, { status: 'completed', executionStep: PROCESS_STEPS.length - 1, updatedAt: at }))
      .select()
      .from(completed);
    if (updated.length === 0) throw new LeaseLost(row.id);
  }

  /** The video is on YouTube, private, waiting for its owner's review (publish_mode "review"). Throws LeaseLost. */
  async function awaitReview(lease: Lease, row: ExecutionRow): Promise<void> {
    const at = now();
    await db.transaction(async (tx) => {
      const updated = await tx
        .update(executions)
        .set({ status: 'awaiting_review', leaseOwner: null })
        .where(held(lease))
        .returning({ id: executions.id });
      if (updated.length === 0) throw new LeaseLost(lease.executionId);
      await tx
        .update(processes)
        .set({ status: 'awaiting_review', executionStep: PROCESS_STEPS.length - 1, updatedAt: at })
        .where(eq(processes.id, row.processId));
    });
  }

  /** Titles this process already made in the language, oldest first. */
  async function previousTitles(processId: string, language: string): Promise<string[]> {
    const rows = await prepared().previousTitles.execute({ processId, language });
    return rows.map((row) => row.title);
  }

  /** Records the title as made; false when the process already made it in that language. */
  async function reserveTitle(processId: string, language: string, title: string): Promise<boolean> {
    try {
      await db
        .insert(storyTitles)
        .values({ processId, language, title, normalizedTitle: normalizeTitle(title), createdAt: now() });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** One call to an external API, for the usage panel and quotas. */
  async function recordCall(userId: string, executionId: string, service: string, operation: string): Promise<void> {
    await prepared().recordCall.execute({ userId, executionId, service, operation, at: now() });
  }

  /**
   * Active processes due now, claimed in batches of CLAIM_BATCH, one transaction each: the due rows
   * are locked with SKIP LOCKED (two schedulers never take one slot twice, nor wait for each other),
   * their owners' rows are locked in id order (moving the processes bumps each owner's list version
   * at commit, and two claims bumping the same owners in different orders would deadlock), and each
   * process moves to the first slot of its rhythm after now, computed in SQL so a time stored with
   * any precision (microseconds written by a migration or an operator) compares as it is. A process
   * down for several slots runs once. One whose run is still queued or running skips the slot.
   */
  async function claimDue(): Promise<Array<{ processId: string; running: boolean }>> {
    const at = now().toISOString();
    const intervalSeconds = INTERVAL_MS / 1000;
    const claimed: Array<{ processId: string; running: boolean }> = [];
    for (;;) {
      const rows = await db.transaction(async (tx) => {
        const due = rowsOf<{ id: string; user_id: string }>(
          await tx.execute(sql`
            select ${processes.id} as id, ${processes.userId} as user_id from ${processes}
            where ${processes.isActive} and ${processes.nextExecution} <= ${at}::timestamptz
            order by ${processes.nextExecution}
            limit ${CLAIM_BATCH}
            for update skip locked`),
        );
        if (due.length === 0) return [];
        const owners = [...new Set(due.map((row) => row.user_id))];
        await tx
          .select({ id: users.id })
          .from(users)
          .where(inArray(users.id, owners))
          .orderBy(asc(users.id))
          .for('no key update');
        return tx
          .update(processes)
          .set({
            nextExecution: sql`${processes.nextExecution} + make_interval(secs => ${intervalSeconds}::double precision
              * (floor(extract(epoch from (${at}::timestamptz - ${processes.nextExecution})) / ${intervalSeconds}) + 1))`,
          })
          .where(
            inArray(
              processes.id,
              due.map((row) => row.id),
            ),
          )
          .returning({ id: processes.id, status: processes.status });
      });
      for (const row of rows) claimed.push({ processId: row.id, running: isActiveStatus(row.status) });
      if (rows.length < CLAIM_BATCH) return claimed;
    }
  }

  /**
   * The scheduler's runs of processes claimDue just took, in one transaction for the whole batch
   * instead of one per process (issue 20: a burst of 1,000 due processes cost 7,000 statements in
   * the worker that ticked, competing with the runs for the cores): each process not already
   * queued or running gets an execution (trigger `schedule`) and says `queued`, as `executions.start`
   * does for one. The processes are locked in id order and their owners after them, in id order
   * (the list versions bumped at commit; see claimDue), so two workers ticking never deadlock.
   * `withJobIds`: each run gets its pg-boss job's id now (the caller sends the jobs with those ids
   * after the commit, in one statement). The ids are made so that the jobs' order (pg-boss takes
   * equal-time jobs by id) is the executions' order, which queue_position counts.
   * Answers the runs created; a process that became busy since its claim is left out.
   */
  async function startScheduled(
    processIds: string[],
    withJobIds: boolean,
  ): Promise<Array<{ executionId: string; processId: string; jobId: string | null }>> {
    if (processIds.length === 0) return [];
    const at = now();
    return db.transaction(async (tx) => {
      const free = await tx
        .select({ id: processes.id, userId: processes.userId, language: processes.language })
        .from(processes)
        .where(and(inArray(processes.id, processIds), notInArray(processes.status, [...ACTIVE_EXECUTION_STATUSES])))
        .orderBy(asc(processes.id))
        .for('update');
      if (free.length === 0) return [];
      await tx
        .select({ id: users.id })
        .from(users)
        .where(inArray(users.id, [...new Set(free.map((row) => row.userId))]))
        .orderBy(asc(users.id))
        .for('no key update');
      const executionIds = free.map(() => crypto.randomUUID()).sort();
      const jobIds = withJobIds ? free.map(() => crypto.randomUUID()).sort() : [];
      const created = free.map((row, i) => ({ executionId: executionIds[i]!, processId: row.id, jobId: jobIds[i] ?? null }));
      await tx.insert(executions).values(
        free.map((row, i) => ({
          id: created[i]!.executionId,
          processId: row.id,
          userId: row.userId,
          status: 'queued' as const,
          currentStep: 0,
          language: row.language,
          trigger: 'schedule' as const,
          jobId: created[i]!.jobId,
          queuedAt: at,
          createdAt: at,
        })),
      );
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
        .where(
          inArray(
            processes.id,
            free.map((row) => row.id),
          ),
        );
      return created;
    });
  }

  /**
   * Runs that lost their worker, found by one statement: running ones whose heartbeat is older than
   * `before` (every running one when undefined: this process is the only worker and just started),
   * and queued ones (older than `before`) whose pg-boss job no longer waits: failed, expired,
   * deleted, or fetched by a worker that died before taking the run (a live worker takes it within
   * milliseconds). The waiting jobs' ids are read once from pg-boss's fetch index (`job_i5`, states
   * created and retry) into a hashed list, so the cost grows with the queue, not with its square.
   * `queueSchema`: pg-boss's schema (absent when nothing is queued through it).
   */
  async function orphans(before: Date | undefined, queueSchema?: string): Promise<ExecutionRow[]> {
    const stale = before
      ? sql`coalesce(${executions.heartbeatAt}, ${executions.queuedAt}) < ${before.toISOString()}::timestamptz`
      : sql`true`;
    const runningLost = and(eq(executions.status, 'running'), stale);
    if (!queueSchema) return db.select().from(executions).where(runningLost);
    const schema = sql.identifier(queueSchema);
    const queuedLost = and(
      eq(executions.status, 'queued'),
      before ? sql`${executions.queuedAt} < ${before.toISOString()}::timestamptz` : undefined,
      or(
        isNull(executions.jobId),
        sql`${executions.jobId} not in (select j.id::text from ${schema}.job j where j.name = ${QUEUE_NAME} and j.state < 'active')`,
      ),
    );
    return db.select().from(executions).where(or(runningLost, queuedLost));
  }

  /**
   * Takes an orphan for a resume (one taker wins); answers its new recovery count, or undefined.
   * The fence moves, so a worker thought dead that wakes up can write nothing more.
   */
  async function claimOrphan(row: ExecutionRow): Promise<number | undefined> {
    return db.transaction(async (tx) => {
      const [updated] = await tx
        .update(executions)
        .set({
          status: 'queued',
          queuedAt: now(),
          recoveries: row.recoveries + 1,
          heartbeatAt: now(),
          jobId: null,
          leaseOwner: null,
          leaseFence: sql`${executions.leaseFence} + 1`,
        })
        .where(and(eq(executions.id, row.id), eq(executions.status, row.status), eq(executions.recoveries, row.recoveries)))
        .returning({ recoveries: executions.recoveries });
      if (!updated) return undefined;
      // The process says its run waits for a worker again.
      await tx
        .update(processes)
        .set({ status: 'queued' })
        .where(and(eq(processes.id, row.processId), eq(processes.status, 'running')));
      return updated.recoveries;
    });
  }

  /** True while some execution of the process other than this one is running. */
  async function othersRunning(processId: string, executionId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: executions.id })
      .from(executions)
      .where(
        and(
          eq(executions.processId, processId),
          inArray(executions.status, [...ACTIVE_EXECUTION_STATUSES]),
          ne(executions.id, executionId),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  return {
    claim,
    heartbeat,
    assertHeld,
    release,
    load,
    processOf,
    voice,
    timeZoneOf,
    promptTexts,
    stepStarted,
    saveProgress,
    stepFinished,
    saveCheckpoint,
    fail,
    complete,
    awaitReview,
    previousTitles,
    reserveTitle,
    recordCall,
    claimDue,
    startScheduled,
    orphans,
    claimOrphan,
    othersRunning,
  };
}

export type ExecutionRunService = ReturnType<typeof createExecutionRunService>;
