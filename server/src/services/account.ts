import { and, eq, ne, notExists, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { executions, processes, prompts, users } from '../db/schema';
import { unprocessable } from '../errors';
import type { Reauthentication } from './reauthentication';

type UserRow = typeof users.$inferSelect;

export interface AccountServiceDeps {
  db: Db;
  /** Removes the media folders of executions (after the records are gone). */
  removeMedia(executionIds: string[]): Promise<void>;
  /** Checks the confirming password: counted before it is hashed, one at a time per account. */
  reauthentication: Pick<Reauthentication, 'check'>;
}

/**
 * Deleting an account (Settings, danger zone). The user's password confirms it. Everything the
 * user owns goes in one transaction: processes, executions, channels, API configurations, the
 * chat-model key, publication records, story titles and call records (by foreign key), then the
 * executions' media files. Prompts the user wrote (admins write the catalogue) go too, unless
 * another user's process uses one: those stay, with no author. Voices and proxies an admin made are
 * shared catalogue and infrastructure and stay, with no author. Videos already on YouTube stay on
 * the user's channel. Nobody else's data changes.
 */
export function createAccountService({ db, removeMedia, reauthentication }: AccountServiceDeps) {
  async function remove(user: UserRow, password: string): Promise<void> {
    if (!password) throw unprocessable('auth.passwordRequired');
    if (!(await reauthentication.check(user, password))) throw unprocessable('auth.passwordWrong');
    const executionIds = await db.transaction(async (tx) => {
      const owned = await tx.select({ id: executions.id }).from(executions).where(eq(executions.userId, user.id));
      const usedByOthers = tx
        .select({ one: sql`1` })
        .from(processes)
        .where(and(eq(processes.promptId, prompts.id), ne(processes.userId, user.id)));
      await tx.delete(prompts).where(and(eq(prompts.userId, user.id), notExists(usedByOthers)));
      await tx.delete(users).where(eq(users.id, user.id));
      return owned.map((row) => row.id);
    });
    await removeMedia(executionIds);
  }

  return { remove };
}

export type AccountService = ReturnType<typeof createAccountService>;
