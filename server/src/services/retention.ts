import { and, eq, inArray, isNotNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db';
import {
  apiCalls,
  emailVerificationTokens,
  executions,
  loginFailures,
  passwordResetTokens,
  publications,
  rateLimits,
  sessions,
} from '../db/schema';
import type { MediaStorage } from '../providers/mediaStorage';
import { RUN_FILES } from '../runLayout';

/**
 * Nothing grows forever (docs/engine.md, "Retention"). A run's intermediate files (narration parts,
 * word times, scene images, the joined narration, the render's scratch folder) go as soon as it
 * completes; its rendered video stays MEDIA_RETENTION_DAYS once it is on YouTube (the thumbnail
 * stays for the history); call records, sign-in failures, limiter windows, spent tokens, ended
 * sessions and the alerts' dedupe rows are purged. A daily job runs all of it; every part is
 * idempotent and logs what it removed. pg-boss removes its own finished jobs (queue.ts).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Kept after the run: what the console still shows or the history needs. */
const KEPT_AFTER_RUN = new Set<string>([RUN_FILES.video, RUN_FILES.thumbnail, RUN_FILES.texts, RUN_FILES.story]);
/** Kept after the retention period: the thumbnail and the texts. */
const KEPT_AFTER_RETENTION = new Set<string>([RUN_FILES.thumbnail, RUN_FILES.texts, RUN_FILES.story]);
/** What is purged and after how long. */
export const RECORD_RETENTION = {
  loginFailuresDays: 1,
  rateLimitHours: 2,
  tokensDays: 7,
  sessionsDays: 7,
  alertsDays: 7,
  apiCallsDays: 400,
} as const;

export interface RetentionDeps {
  db: Db;
  now: () => Date;
  storage: MediaStorage;
  mediaRetentionDays: number;
}

export interface RetentionReport {
  intermediate: { runs: number; files: number; bytes: number };
  videos: { runs: number; files: number; bytes: number };
  records: Record<string, number>;
}

export function createRetention({ db, now, storage, mediaRetentionDays }: RetentionDeps) {
  /** A finished run keeps only its video, thumbnail and texts (called when a run completes, and daily). */
  async function pruneRun(executionId: string) {
    return storage.prune(executionId, (name) => KEPT_AFTER_RUN.has(name));
  }

  /** Runs that ended well (completed, or waiting for review) and may still hold intermediate files. */
  async function pruneFinished(): Promise<RetentionReport['intermediate']> {
    const rows = await db
      .select({ id: executions.id })
      .from(executions)
      .where(inArray(executions.status, ['completed', 'awaiting_review']));
    const total = { runs: 0, files: 0, bytes: 0 };
    for (const { id } of rows) {
      const { files, bytes } = await pruneRun(id);
      if (files > 0) total.runs += 1;
      total.files += files;
      total.bytes += bytes;
    }
    return total;
  }

  /** Rendered videos on YouTube for longer than the retention period: removed, thumbnail kept. */
  async function purgeVideos(): Promise<RetentionReport['videos']> {
    const before = new Date(now().getTime() - mediaRetentionDays * DAY_MS);
    const rows = await db
      .select({ id: executions.id })
      .from(executions)
      .innerJoin(publications, eq(publications.executionId, executions.id))
      .where(and(eq(executions.status, 'completed'), isNotNull(publications.videoId), lt(executions.finishedAt, before)));
    const total = { runs: 0, files: 0, bytes: 0 };
    for (const { id } of rows) {
      const { files, bytes } = await storage.prune(id, (name) => KEPT_AFTER_RETENTION.has(name));
      if (files > 0) total.runs += 1;
      total.files += files;
      total.bytes += bytes;
    }
    return total;
  }

  /** Records nobody needs any more. */
  async function purgeRecords(): Promise<Record<string, number>> {
    const ago = (ms: number) => new Date(now().getTime() - ms);
    const count = async (query: Promise<unknown[]>) => (await query).length;
    return {
      loginFailures: await count(
        db
          .delete(loginFailures)
          .where(lt(loginFailures.createdAt, ago(RECORD_RETENTION.loginFailuresDays * DAY_MS)))
          .returning({ id: loginFailures.id }),
      ),
      rateLimits: await count(
        db
          .delete(rateLimits)
          .where(lt(rateLimits.windowStart, ago(RECORD_RETENTION.rateLimitHours * 3_600_000)))
          .returning({ key: rateLimits.key }),
      ),
      resetTokens: await count(
        db
          .delete(passwordResetTokens)
          .where(lt(passwordResetTokens.expiresAt, ago(RECORD_RETENTION.tokensDays * DAY_MS)))
          .returning({ id: passwordResetTokens.id }),
      ),
      verificationTokens: await count(
        db
          .delete(emailVerificationTokens)
          .where(lt(emailVerificationTokens.expiresAt, ago(RECORD_RETENTION.tokensDays * DAY_MS)))
          .returning({ id: emailVerificationTokens.id }),
      ),
      sessions: await count(
        db
          .delete(sessions)
          .where(
            or(
              lt(sessions.expiresAt, ago(RECORD_RETENTION.sessionsDays * DAY_MS)),
              and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, ago(RECORD_RETENTION.sessionsDays * DAY_MS))),
            ),
          )
          .returning({ id: sessions.id }),
      ),
      apiCalls: await count(
        db
          .delete(apiCalls)
          .where(lt(apiCalls.createdAt, ago(RECORD_RETENTION.apiCallsDays * DAY_MS)))
          .returning({ id: apiCalls.id }),
      ),
    };
  }

  /** The daily job: everything above. */
  async function run(): Promise<RetentionReport> {
    return { intermediate: await pruneFinished(), videos: await purgeVideos(), records: await purgeRecords() };
  }

  return { pruneRun, pruneFinished, purgeVideos, purgeRecords, run };
}

export type Retention = ReturnType<typeof createRetention>;
