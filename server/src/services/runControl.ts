import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { executions, processes } from '../db/schema';
import { conflict, notFound } from '../errors';
import type { Language } from '../messages';
import { ACTIVE_EXECUTION_STATUSES, settledProcessStatus, type ExecutionService } from './executions';
import type { ExecutionStatus } from '../contracts/processes';
import type { ExecutionRunService } from './executionRuns';
import type { PublicationService } from './publications';
import { publishAtOf } from './publishTime';

/**
 * What the owner does to a run from the outside (docs/engine.md, "Cancel and review"):
 *
 * - cancel: a running run stops within seconds. The record says `cancelled` at once and its lease
 *   moves, so the worker's next heartbeat (every 2 s) finds it is no longer its run and aborts
 *   everything (ffmpeg and the voice killed, outbound calls aborted); a started upload is
 *   abandoned and a video YouTube already has is deleted (here, or by the worker if the upload
 *   finishes after this). The process is free to run again.
 * - approve / reject a video waiting for review (processes with publish_mode "review"): approve
 *   schedules it for the next publication time or publishes it now; reject deletes it on YouTube.
 */

export interface RunControlDeps {
  db: Db;
  now: () => Date;
  executions: ExecutionService;
  runs: ExecutionRunService;
  publications: PublicationService;
  log?: (error: unknown, message: string) => void;
}

type ExecutionRow = typeof executions.$inferSelect;

export function createRunControl({ db, now, executions: executionService, runs, publications, log }: RunControlDeps) {
  async function ownRow(userId: string, id: string): Promise<ExecutionRow> {
    const [row] = await db
      .select()
      .from(executions)
      .where(and(eq(executions.id, id), eq(executions.userId, userId)));
    if (!row) throw notFound('executions.notFound');
    return row;
  }

  /**
   * Ends a run in one transaction: the execution gets `status`, nobody holds it any more (the fence
   * moves), and the process shows this run's outcome (`completed` or `cancelled`), or after a
   * rejected video the last run before it. False when it was not in one of `from` any more.
   */
  async function end(
    row: ExecutionRow,
    from: ExecutionStatus[],
    status: 'cancelled' | 'rejected' | 'completed',
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      const updated = await tx
        .update(executions)
        .set({ status, finishedAt: now(), leaseOwner: null, leaseFence: sql`${executions.leaseFence} + 1` })
        .where(and(eq(executions.id, row.id), inArray(executions.status, from)))
        .returning({ id: executions.id });
      if (updated.length === 0) return false;
      const [previous] = await tx
        .select({ status: executions.status })
        .from(executions)
        .where(
          and(eq(executions.processId, row.processId), ne(executions.status, 'cancelled'), ne(executions.status, 'rejected')),
        )
        .orderBy(desc(executions.createdAt))
        .limit(1);
      // The card tells the truth about the last run: a run its owner cancelled shows `cancelled`
      // (docs/decisions.md, "Cancelled runs"); a rejected video leaves the run before it.
      await tx
        .update(processes)
        .set({
          status: settledProcessStatus(status === 'rejected' ? previous?.status : status),
          executionStep: null,
          executionSteps: null,
          updatedAt: now(),
        })
        .where(eq(processes.id, row.processId));
      return true;
    });
  }

  /** The publication's video goes (YouTube first); a failure is logged, never blocks the cancel. */
  async function discardVideo(userId: string, executionId: string): Promise<void> {
    const publicationId = await publications.idOfExecution(executionId);
    if (!publicationId) return;
    try {
      await publications.remove(userId, publicationId);
    } catch (error) {
      log?.(error, 'the video of a cancelled run could not be deleted on YouTube');
    }
  }

  async function cancel(userId: string, id: string, into: Language) {
    const row = await ownRow(userId, id);
    if (!(await end(row, [...ACTIVE_EXECUTION_STATUSES], 'cancelled'))) throw conflict('executions.notRunning');
    await discardVideo(userId, id);
    return executionService.get(userId, id, into);
  }

  /**
   * Approves a video waiting for review: `now` publishes it at once; otherwise it is scheduled for
   * the next publication time of its process (in the owner's time zone) still ahead.
   */
  async function approve(userId: string, id: string, when: 'now' | 'scheduled', into: Language) {
    const row = await ownRow(userId, id);
    if (row.status !== 'awaiting_review') throw conflict('executions.notAwaitingReview');
    const publicationId = await publications.idOfExecution(id);
    if (!publicationId) throw conflict('executions.notAwaitingReview');
    if (when === 'now') {
      await publications.publishPublic(userId, publicationId);
    } else {
      const process = await runs.processOf(row.processId);
      const timeZone = await runs.timeZoneOf(userId);
      await publications.schedule(
        userId,
        publicationId,
        publishAtOf(now(), process?.publicationTime ?? '09:00', timeZone, now()),
      );
    }
    await end(row, ['awaiting_review'], 'completed');
    return executionService.get(userId, id, into);
  }

  /** Rejects a video waiting for review: deleted on YouTube, the run ends as `rejected`. */
  async function reject(userId: string, id: string, into: Language) {
    const row = await ownRow(userId, id);
    if (row.status !== 'awaiting_review') throw conflict('executions.notAwaitingReview');
    const publicationId = await publications.idOfExecution(id);
    // YouTube first: a failure there leaves the run waiting, so it can be tried again.
    if (publicationId) await publications.remove(userId, publicationId);
    await end(row, ['awaiting_review'], 'rejected');
    return executionService.get(userId, id, into);
  }

  return { cancel, approve, reject };
}

export type RunControl = ReturnType<typeof createRunControl>;
