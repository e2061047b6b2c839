import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { sessions } from '../db/schema';
import { notFound } from '../errors';
import { WatchedRows } from '../lib/watchedRows';
import type { SessionDto } from '../contracts/auth';

/** A session lasts this long whatever happens (the token's own expiry too). */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/** A session's last use is written at most this often: a request finds it fresh and writes nothing. */
export const SESSION_TOUCH_MS = 5 * 60_000;
/** What is kept of the browser's User-Agent. */
export const USER_AGENT_MAX_LENGTH = 200;
/** The most sessions Settings › Security lists (the most recently used first). */
export const SESSIONS_LISTED_MAX = 100;

type SessionRow = typeof sessions.$inferSelect;

/** Where a session was opened from, as the request told it. */
export interface SessionClient {
  userAgent?: string | undefined;
  ip?: string | undefined;
}

/**
 * The User-Agent as it is kept: control characters made spaces, runs of spaces made one, cut to
 * USER_AGENT_MAX_LENGTH characters. The web app shows it as "browser on system"; the server never
 * interprets it.
 */
export function cleanUserAgent(raw: string | undefined): string {
  if (!raw) return '';
  // eslint-disable-next-line no-control-regex
  const text = raw.slice(0, 4 * USER_AGENT_MAX_LENGTH).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  return [...text.replace(/\s+/g, ' ').trim()].slice(0, USER_AGENT_MAX_LENGTH).join('').trim();
}

/** The client address as Fastify gave it (after TRUST_PROXY): an IPv4 or IPv6 address, kept whole. */
export function cleanIp(raw: string | undefined): string {
  const ip = (raw ?? '').trim();
  return /^[0-9a-fA-F:.]{1,45}$/.test(ip) ? ip : '';
}

export interface SessionStoreDeps {
  db: Db;
  now: () => Date;
  /** A session unused for this long ends (SESSION_IDLE_HOURS). */
  idleMs: number;
}

/**
 * The rows of `sessions`: opening one, the checks every signed-in request makes, the idle timeout,
 * the list of Settings › Security and signing sessions out. Sessions change only through here.
 */
export function createSessionStore({ db, now, idleMs }: SessionStoreDeps) {
  const sessionById = db
    .select()
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('id')))
    .limit(1)
    .prepare('auth_session_by_id');
  // On the embedded database (one process) rows are kept in memory and forgotten here when they
  // change; with PostgreSQL every request reads its session.
  const rows = new WatchedRows<SessionRow>(async (id) => (await sessionById.execute({ id }))[0]);
  /**
   * When this process last saw each session used, ahead of the row (whose `last_used_at` is written
   * at most every SESSION_TOUCH_MS, after the answer): the idle check and the list read the later.
   */
  const seen = new Map<string, number>();

  const lastUsed = (row: SessionRow) => Math.max(row.lastUsedAt.getTime(), seen.get(row.id) ?? 0);

  async function open(userId: string, client: SessionClient = {}): Promise<string> {
    const at = now();
    const [row] = await db
      .insert(sessions)
      .values({
        userId,
        expiresAt: new Date(at.getTime() + SESSION_TTL_SECONDS * 1000),
        createdAt: at,
        lastUsedAt: at,
        userAgent: cleanUserAgent(client.userAgent),
        ip: cleanIp(client.ip),
      })
      .returning({ id: sessions.id });
    return row!.id;
  }

  /** Whether the row is a session of `userId` that still works: not revoked, not expired, not idle too long. */
  function live(row: SessionRow | undefined, userId: string): row is SessionRow {
    if (!row || row.userId !== userId || row.revokedAt !== null) return false;
    const at = now().getTime();
    return row.expiresAt.getTime() > at && lastUsed(row) + idleMs > at;
  }

  /**
   * Notes that the session was used now. The row is written only when its last use is older than
   * SESSION_TOUCH_MS, and not waited for: the request keeps its one round trip to the database.
   */
  function touch(row: SessionRow): void {
    const at = now().getTime();
    if (at - lastUsed(row) < SESSION_TOUCH_MS) return;
    if (seen.size >= 10_000) seen.clear();
    seen.set(row.id, at);
    void db
      .update(sessions)
      .set({ lastUsedAt: new Date(at) })
      .where(and(eq(sessions.id, row.id), lt(sessions.lastUsedAt, new Date(at - SESSION_TOUCH_MS))))
      .then(
        () => rows.forget(row.id),
        // Written again at the next use after SESSION_TOUCH_MS; meanwhile this process remembers it.
        () => undefined,
      );
  }

  /** Revokes sessions of `userId`: all of them, or all but `keep`. Answers how many ended. */
  async function revokeAll(userId: string, keep?: string): Promise<number> {
    const revoked = await db
      .update(sessions)
      .set({ revokedAt: now() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : undefined))
      .returning({ id: sessions.id });
    for (const { id } of revoked) forget(id);
    return revoked.length;
  }

  /** Revokes one session of `userId`; another user's session, or one already ended, is 404. */
  async function revokeOne(userId: string, id: string): Promise<void> {
    const revoked = await db
      .update(sessions)
      .set({ revokedAt: now() })
      .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now())))
      .returning({ id: sessions.id });
    if (revoked.length === 0) throw notFound('auth.sessionNotFound');
    forget(id);
  }

  /** The sessions of `userId` that still work, the most recently used first. */
  async function list(userId: string, currentId: string): Promise<SessionDto[]> {
    const found = await db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now())))
      .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt))
      .limit(2 * SESSIONS_LISTED_MAX);
    return found
      .filter((row) => live(row, userId))
      .sort((a, b) => lastUsed(b) - lastUsed(a) || b.createdAt.getTime() - a.createdAt.getTime())
      .slice(0, SESSIONS_LISTED_MAX)
      .map((row) => ({
        id: row.id,
        created_at: row.createdAt.toISOString(),
        last_used_at: new Date(lastUsed(row)).toISOString(),
        user_agent: row.userAgent,
        ip: row.ip,
        current: row.id === currentId,
      }));
  }

  function forget(id: string): void {
    rows.forget(id);
    seen.delete(id);
  }

  return {
    open,
    get: (id: string) => rows.get(id),
    live,
    touch,
    revokeAll,
    revokeOne,
    list,
    forget,
    /** Keeps rows in memory (the embedded database): only this process changes them. */
    follow: () => rows.follow(async () => async () => undefined),
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
