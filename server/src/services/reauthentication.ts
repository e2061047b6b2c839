import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { reauthFailures } from '../db/schema';
import { AppError } from '../errors';
import { HashQueueFull, verifyPassword, type HashOptions } from '../lib/passwords';

/** Wrong passwords a signed-in account may give (Settings, deleting the account) within the window. */
export const REAUTH_MAX_FAILURES = 10;
export const REAUTH_WINDOW_MINUTES = 15;

export interface ReauthenticationDeps {
  db: Db;
  now: () => Date;
  /** Hashes that may wait for a turn (PASSWORD_HASH_QUEUE). */
  hashQueue?: HashOptions['maxWaiting'];
}

/**
 * Checks of a signed-in user's password: the current password of a password or email change, the
 * password that confirms deleting the account. A session is not a licence to guess, nor to fill
 * the server's hash queue:
 *
 * - one check per account at a time in each process: a second one while the first is being hashed
 *   answers 429 at once (Retry-After: 1), so one user holds at most one of the two hash turns;
 * - at most REAUTH_MAX_FAILURES wrong passwords per account in REAUTH_WINDOW_MINUTES: each check is
 *   written (reauth_failures) before its hash is computed, under a per-account lock, so parallel
 *   checks, from any number of processes, cannot pass the limit; past it the answer is 429 with
 *   Retry-After, whatever the password, and nothing is hashed;
 * - a right password, or a password reset, removes the account's rows.
 */
export function createReauthentication({ db, now, hashQueue }: ReauthenticationDeps) {
  const checking = new Set<string>();
  const windowMs = REAUTH_WINDOW_MINUTES * 60_000;

  /**
   * Counts one check of `userId`'s password before its hash is computed; throws 429 when the
   * account already has REAUTH_MAX_FAILURES in the window (then nothing is written). Answers the
   * row, which `forget` removes if the check never happened.
   */
  async function count(userId: string): Promise<string> {
    const since = new Date(now().getTime() - windowMs);
    const outcome = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`reauth:user:${userId}`}))`);
      await tx.delete(reauthFailures).where(and(eq(reauthFailures.userId, userId), lte(reauthFailures.createdAt, since)));
      const [counted] = await tx
        .select({ count: sql<number>`count(*)::int`, oldest: sql<Date | string | null>`min(${reauthFailures.createdAt})` })
        .from(reauthFailures)
        .where(eq(reauthFailures.userId, userId));
      if ((counted?.count ?? 0) >= REAUTH_MAX_FAILURES) {
        return { refused: true as const, oldest: counted?.oldest ? new Date(counted.oldest) : now() };
      }
      const [row] = await tx.insert(reauthFailures).values({ userId, createdAt: now() }).returning({ id: reauthFailures.id });
      return { refused: false as const, id: row!.id };
    });
    if (outcome.refused) {
      const seconds = Math.max(1, Math.ceil((outcome.oldest.getTime() + windowMs - now().getTime()) / 1000));
      throw new AppError(
        429,
        'auth.tooManyPasswordChecks',
        { count: Math.ceil(seconds / 60) },
        { 'retry-after': String(seconds) },
      );
    }
    return outcome.id;
  }

  /** Removes one counted check that was never made (the hash queue was full). */
  async function forget(id: string): Promise<void> {
    await db.delete(reauthFailures).where(eq(reauthFailures.id, id));
  }

  /** Removes the account's counted checks: a right password was given, or the password was reset. */
  async function clear(userId: string): Promise<void> {
    await db.delete(reauthFailures).where(eq(reauthFailures.userId, userId));
  }

  /** Whether `password` is the user's: one at a time per account, counted before it is hashed (see above). */
  async function check(user: { id: string; passwordHash: string }, password: string): Promise<boolean> {
    if (checking.has(user.id)) throw new AppError(429, 'auth.passwordCheckRunning', {}, { 'retry-after': '1' });
    checking.add(user.id);
    try {
      const counted = await count(user.id);
      let right: boolean;
      try {
        right = await verifyPassword(password, user.passwordHash, { maxWaiting: hashQueue });
      } catch (error) {
        if (error instanceof HashQueueFull) await forget(counted);
        throw error;
      }
      if (right) await clear(user.id);
      return right;
    } finally {
      checking.delete(user.id);
    }
  }

  return { check, clear };
}

export type Reauthentication = ReturnType<typeof createReauthentication>;
