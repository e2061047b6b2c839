import crypto from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Database, Db } from '../db';
import { WatchedRows } from '../lib/watchedRows';
import { isUniqueViolation } from '../db/errors';
import { emailVerificationTokens, loginFailures, passwordResetTokens, sessions, users } from '../db/schema';
import { AppError, conflict, unauthorized, unprocessable } from '../errors';
import { translate, type Language } from '../messages';
import { DEFAULT_HASH_COST, dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../lib/passwords';
import { BILLING_PERIODS, DEFAULT_PLAN, planName, type BillingPeriod } from '../lib/plans';
import { signToken, verifyToken } from '../lib/tokens';
import type { Mailer } from '../providers/mailer';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
export const RESET_TOKEN_TTL_MINUTES = 60;
export const VERIFY_TOKEN_TTL_HOURS = 24;
/** A verification email is sent again at most this often for one account. */
export const RESEND_COOLDOWN_SECONDS = 60;
export const LOGIN_WINDOW_MINUTES = 15;
export const LOGIN_MAX_FAILURES_PER_EMAIL = 5;
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 20;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface UserDto {
  id: string;
  name: string;
  email: string;
  plan: string;
  plan_name: string;
  billing_period: string;
  time_zone: string;
  is_admin: boolean;
  /** The owner followed the confirmation link sent to this address. */
  email_verified: boolean;
  /** An administrator's address (ADMIN_EMAIL) not yet confirmed: admin rights come with the confirmation. */
  is_admin_pending: boolean;
  created_at: string;
}

export interface AuthResult {
  access_token: string;
  token_type: 'bearer';
  user: UserDto;
}

type UserRow = typeof users.$inferSelect;

/** An email the auth service sends from the job queue (never inside the request that asks for it). */
export type AuthEmailJob =
  { kind: 'reset'; email: string; language: Language } | { kind: 'verify'; userId: string; language: Language };

export interface AuthDeps {
  db: Db;
  appSecret: string;
  adminEmails: string[];
  publicUrl: string;
  mailer: Mailer;
  /** Hands an email to the job queue (or to the background, without one). */
  enqueueEmail: (job: AuthEmailJob) => Promise<void>;
  /** Argon2id memory (2^cost KiB); DEFAULT_HASH_COST unless the operator (or a test) says otherwise. */
  passwordHashCost?: number;
  now?: () => Date;
}

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function validTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw unprocessable('auth.passwordTooShort', { min: PASSWORD_MIN_LENGTH });
  if (password.length > PASSWORD_MAX_LENGTH) throw unprocessable('auth.passwordTooLong', { max: PASSWORD_MAX_LENGTH });
}

function checkEmail(email: string): string {
  const normalized = normalizeEmail(email);
  if (!normalized) throw unprocessable('auth.emailRequired');
  if (!EMAIL.test(normalized) || normalized.length > 254) throw unprocessable('auth.invalidEmail');
  return normalized;
}

function checkName(name: string): string {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  if (!trimmed) throw unprocessable('auth.nameRequired');
  return trimmed.slice(0, 120);
}

export function createAuthService(deps: AuthDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const cost = deps.passwordHashCost ?? DEFAULT_HASH_COST;

  const isAdminEmail = (email: string) => deps.adminEmails.includes(normalizeEmail(email));
  /** Admin rights need an ADMIN_EMAIL address that its owner has confirmed. */
  const isAdmin = (user: UserRow) => isAdminEmail(user.email) && user.emailVerifiedAt !== null;

  function toDto(user: UserRow): UserDto {
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      plan: user.plan,
      plan_name: planName(user.plan),
      billing_period: user.billingPeriod,
      time_zone: user.timeZone,
      is_admin: isAdmin(user),
      email_verified: user.emailVerifiedAt !== null,
      is_admin_pending: isAdminEmail(user.email) && user.emailVerifiedAt === null,
      created_at: user.createdAt.toISOString(),
    };
  }

  /** Opens a session for the user and answers its token. */
  async function openSession(user: UserRow): Promise<AuthResult> {
    const [row] = await db
      .insert(sessions)
      .values({ userId: user.id, expiresAt: new Date(now().getTime() + SESSION_TTL_SECONDS * 1000), createdAt: now() })
      .returning({ id: sessions.id });
    const token = signToken(
      { sub: user.id, sid: row!.id, ver: user.tokenVersion, typ: 'session' },
      deps.appSecret,
      SESSION_TTL_SECONDS,
      now().getTime(),
    );
    return { access_token: token, token_type: 'bearer', user: toDto(user) };
  }

  async function findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`)
      .limit(1);
    return row;
  }

  // Every signed-in request reads its session and its user: prepared once, and kept in memory where
  // the database tells this process of every change (the embedded one; see followUserChanges).
  const userById = db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('auth_user_by_id');
  const signedIn = new WatchedRows<UserRow>(async (id) => (await userById.execute({ id }))[0]);
  const sessionById = db
    .select()
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('id')))
    .limit(1)
    .prepare('auth_session_by_id');
  // Sessions change only through this service: on the embedded database (one process) forgetting
  // them here is enough; with PostgreSQL every request reads its session.
  const openSessions = new WatchedRows<typeof sessions.$inferSelect>(async (id) => (await sessionById.execute({ id }))[0]);

  function findById(id: string): Promise<UserRow | undefined> {
    return signedIn.get(id);
  }

  /** Keeps users and sessions in memory from now on, dropping each user the database says changed. */
  async function followUserChanges(watch: NonNullable<Database['watchUsers']>): Promise<() => Promise<void>> {
    const stopSessions = await openSessions.follow(async () => async () => undefined);
    const stopUsers = await signedIn.follow(watch);
    return async () => {
      await stopUsers();
      await stopSessions();
    };
  }

  /** Revokes sessions of `userId` (all of them, or all but `keep`). */
  async function revokeSessions(userId: string, keep?: string): Promise<void> {
    const revoked = await db
      .update(sessions)
      .set({ revokedAt: now() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : undefined))
      .returning({ id: sessions.id });
    for (const { id } of revoked) openSessions.forget(id);
  }

  async function register(
    input: {
      name: string;
      email: string;
      password: string;
      plan?: string;
      time_zone?: string;
    },
    language: Language = 'en',
  ): Promise<AuthResult> {
    if (!input.name.trim() || !input.email.trim() || !input.password) throw unprocessable('auth.fillAllFields');
    const name = checkName(input.name);
    const email = checkEmail(input.email);
    checkPassword(input.password);
    const billing = (input.plan ?? 'monthly') as BillingPeriod;
    if (!BILLING_PERIODS.includes(billing)) throw unprocessable('auth.invalidPlan');
    const timeZone = input.time_zone?.trim() || 'UTC';
    if (!validTimeZone(timeZone)) throw unprocessable('auth.invalidTimeZone', { timeZone });

    if (await findByEmail(email)) throw conflict('auth.emailTaken');
    const passwordHash = await hashPassword(input.password, cost);
    let user: UserRow;
    try {
      [user] = (await db
        .insert(users)
        .values({ name, email, passwordHash, plan: DEFAULT_PLAN, billingPeriod: billing, timeZone, language })
        .returning()) as [UserRow];
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('auth.emailTaken');
      throw error;
    }
    await deps.enqueueEmail({ kind: 'verify', userId: user.id, language });
    return openSession(user);
  }

  /**
   * Counts this sign-in attempt for the email and the address before the password is checked, in
   * one statement each, so parallel tries can never all pass a limit read before it was written.
   * A success removes the email's attempts; a failure leaves its row for the window.
   */
  async function countAttempt(email: string, address: string): Promise<string> {
    // Attempts for one email (and one address) are counted one at a time: a transaction-scoped
    // advisory lock per key makes each insert-and-count see every earlier attempt, so on a server
    // with many connections exactly the first LOGIN_MAX_FAILURES_PER_EMAIL parallel tries are checked.
    const counts = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login:email:${email}`}))`);
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login:address:${address}`}))`);
      const [attempt] = await tx
        .insert(loginFailures)
        .values({ email, address, createdAt: now() })
        .returning({ id: loginFailures.id });
      const since = new Date(now().getTime() - LOGIN_WINDOW_MINUTES * 60_000);
      const counted = async (column: typeof loginFailures.email | typeof loginFailures.address, value: string) => {
        const [row] = await tx
          .select({ count: sql<number>`count(*)::int`, oldest: sql<Date | string | null>`min(${loginFailures.createdAt})` })
          .from(loginFailures)
          .where(and(eq(column, value), gt(loginFailures.createdAt, since)));
        return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
      };
      return {
        id: attempt!.id,
        byEmail: await counted(loginFailures.email, email),
        byAddress: await counted(loginFailures.address, address),
      };
    });
    // The attempt stays counted even when it is refused (thrown after the commit).
    if (counts.byEmail.count > LOGIN_MAX_FAILURES_PER_EMAIL) throw tooMany(counts.byEmail.oldest);
    if (counts.byAddress.count > LOGIN_MAX_FAILURES_PER_ADDRESS) throw tooMany(counts.byAddress.oldest);
    return counts.id;
  }

  function tooMany(oldest: Date | null): AppError {
    const unblockAt = (oldest ?? now()).getTime() + LOGIN_WINDOW_MINUTES * 60_000;
    const seconds = Math.max(1, Math.ceil((unblockAt - now().getTime()) / 1000));
    return new AppError(429, 'auth.tooManyAttempts', { count: Math.ceil(seconds / 60) }, { 'retry-after': String(seconds) });
  }

  async function login(input: { email: string; password: string }, address: string, language?: Language): Promise<AuthResult> {
    if (!input.email.trim() || !input.password) throw unprocessable('auth.fillAllFields');
    const email = normalizeEmail(input.email);
    await countAttempt(email, address);

    const user = await findByEmail(email);
    const valid = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash(cost)));
    if (!user || !valid) throw unauthorized('auth.invalidCredentials');
    await db.delete(loginFailures).where(eq(loginFailures.email, email));
    // A hash made cheaper than today's cost is made again, now that the password is known; the
    // interface language is kept for what is sent while the user is away (alerts).
    const changes: Partial<UserRow> = {};
    if (needsRehash(user.passwordHash, cost)) changes.passwordHash = await hashPassword(input.password, cost);
    if (language && language !== user.language) changes.language = language;
    if (Object.keys(changes).length > 0) await db.update(users).set(changes).where(eq(users.id, user.id));
    return openSession(user);
  }

  /** Resolves a bearer token to its user and session; throws 401 when missing, invalid, expired or revoked. */
  async function authenticateSession(token: string | undefined): Promise<{ user: UserRow; sessionId: string }> {
    if (!token) throw unauthorized('auth.notAuthenticated');
    const result = verifyToken(token, deps.appSecret, now().getTime());
    if (!result.ok) throw unauthorized(result.reason === 'expired' ? 'auth.sessionExpired' : 'auth.notAuthenticated');
    const { claims } = result;
    if (claims.typ !== 'session' || typeof claims.sid !== 'string') throw unauthorized('auth.notAuthenticated');
    if (!UUID.test(claims.sid) || !UUID.test(String(claims.sub))) throw unauthorized('auth.sessionExpired');
    // Side by side: every signed-in request waits for one round trip to the database, not two
    // (the signature already vouches for both ids; each is checked below before anything is answered).
    const [session, user] = await Promise.all([openSessions.get(claims.sid), findById(claims.sub)]);
    if (!session || session.userId !== claims.sub || session.revokedAt !== null || session.expiresAt <= now()) {
      throw unauthorized('auth.sessionExpired');
    }
    if (!user || user.tokenVersion !== claims.ver) throw unauthorized('auth.sessionExpired');
    return { user, sessionId: session.id };
  }

  async function authenticate(token: string | undefined): Promise<UserRow> {
    return (await authenticateSession(token)).user;
  }

  /** Ends the session of `token` on the server: the token answers 401 from now on. */
  async function logout(token: string | undefined): Promise<void> {
    const { sessionId } = await authenticateSession(token);
    await db.update(sessions).set({ revokedAt: now() }).where(eq(sessions.id, sessionId));
    openSessions.forget(sessionId);
  }

  /**
   * Name, email and time zone. A new email needs the current password; it ends the account's
   * other sessions, spends outstanding reset links (they were sent to the old address) and must be
   * confirmed again (admin rights wait for that).
   */
  async function updateProfile(
    user: UserRow,
    input: { name: string; email: string; time_zone?: string; current_password?: string },
    sessionId: string,
    language: Language = 'en',
  ): Promise<UserDto> {
    if (!input.name.trim() || !input.email.trim()) throw unprocessable('auth.fillAllFields');
    const name = checkName(input.name);
    const email = checkEmail(input.email);
    const timeZone = input.time_zone === undefined ? user.timeZone : input.time_zone.trim();
    if (!validTimeZone(timeZone)) throw unprocessable('auth.invalidTimeZone', { timeZone });
    const emailChanged = email !== normalizeEmail(user.email);
    if (emailChanged) {
      if (!input.current_password) throw unprocessable('auth.emailChangeNeedsPassword');
      if (!(await verifyPassword(input.current_password, user.passwordHash))) throw unprocessable('auth.currentPasswordWrong');
      const other = await findByEmail(email);
      if (other && other.id !== user.id) throw conflict('auth.emailTaken');
    }
    let updated: UserRow;
    try {
      [updated] = (await db
        .update(users)
        .set({ name, email, timeZone, language, updatedAt: now(), ...(emailChanged ? { emailVerifiedAt: null } : {}) })
        .where(eq(users.id, user.id))
        .returning()) as [UserRow];
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('auth.emailTaken');
      throw error;
    }
    if (emailChanged) {
      await revokeSessions(user.id, sessionId);
      await db
        .update(passwordResetTokens)
        .set({ usedAt: now() })
        .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
      await deps.enqueueEmail({ kind: 'verify', userId: user.id, language });
    }
    return toDto(updated);
  }

  async function setPassword(userId: string, password: string, extra: Partial<UserRow> = {}): Promise<UserRow> {
    const passwordHash = await hashPassword(password, cost);
    const [updated] = await db
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: now(), ...extra })
      .where(eq(users.id, userId))
      .returning();
    await revokeSessions(userId);
    return updated!;
  }

  /** Changes the password; every earlier session ends, and a new one is answered. */
  async function changePassword(user: UserRow, input: { current_password: string; new_password: string }): Promise<AuthResult> {
    if (!input.current_password || !input.new_password) throw unprocessable('auth.fillAllFields');
    checkPassword(input.new_password);
    if (!(await verifyPassword(input.current_password, user.passwordHash))) throw unprocessable('auth.currentPasswordWrong');
    return openSession(await setPassword(user.id, input.new_password));
  }

  /**
   * Asks for a reset link. The answer is the same, and as quick, whether or not the email has an
   * account: the lookup, the token and the email all happen in the job (deliverEmail).
   */
  async function requestPasswordReset(rawEmail: string, language: Language): Promise<void> {
    if (!rawEmail.trim()) throw unprocessable('auth.emailRequired');
    const email = checkEmail(rawEmail);
    await deps.enqueueEmail({ kind: 'reset', email, language });
  }

  /** A one-time token: the secret for the link and the hash kept in the database. */
  function newToken(): { token: string; tokenHash: string } {
    const token = crypto.randomBytes(32).toString('base64url');
    return { token, tokenHash: hashToken(token) };
  }

  const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

  /** The job's side of the emails: makes the token and sends the link (nothing when there is nobody to send to). */
  async function deliverEmail(job: AuthEmailJob): Promise<void> {
    if (job.kind === 'reset') {
      const user = await findByEmail(job.email);
      if (!user) return;
      const { token, tokenHash } = newToken();
      await db.insert(passwordResetTokens).values({
        userId: user.id,
        tokenHash,
        expiresAt: new Date(now().getTime() + RESET_TOKEN_TTL_MINUTES * 60_000),
      });
      const link = `${deps.publicUrl}/reset-password?token=${token}`;
      await deps.mailer.send({
        to: user.email,
        subject: translate(job.language, 'auth.resetEmailSubject'),
        text: translate(job.language, 'auth.resetEmailBody', { name: user.name, link, minutes: RESET_TOKEN_TTL_MINUTES }),
      });
      return;
    }
    const [user] = await db.select().from(users).where(eq(users.id, job.userId));
    if (!user || user.emailVerifiedAt !== null) return;
    const { token, tokenHash } = newToken();
    await db.insert(emailVerificationTokens).values({
      userId: user.id,
      email: normalizeEmail(user.email),
      tokenHash,
      expiresAt: new Date(now().getTime() + VERIFY_TOKEN_TTL_HOURS * 3_600_000),
      createdAt: now(),
    });
    const link = `${deps.publicUrl}/verify-email?token=${token}`;
    await deps.mailer.send({
      to: user.email,
      subject: translate(job.language, 'auth.verifyEmailSubject'),
      text: translate(job.language, 'auth.verifyEmailBody', {
        name: user.name,
        link,
        hours: VERIFY_TOKEN_TTL_HOURS,
        email: user.email,
      }),
    });
  }

  async function resetPassword(input: { token: string; new_password: string }): Promise<void> {
    checkPassword(input.new_password);
    const claimed = await db
      .update(passwordResetTokens)
      .set({ usedAt: now() })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(input.token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now()),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    const userId = claimed[0]?.userId;
    if (!userId) throw unprocessable('auth.resetTokenInvalid');
    // The link reached the account's address (an email change spends older links): that confirms it too.
    await setPassword(userId, input.new_password, { emailVerifiedAt: now() });
    // One link resets once: any other outstanding link of this user is spent too.
    await db
      .update(passwordResetTokens)
      .set({ usedAt: now() })
      .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
  }

  /**
   * Confirms an address with the token of a link: one-time, within 24 hours, and only while the
   * account still has the address the link was sent to. Needs no session (the link may be opened
   * on another device).
   */
  async function verifyEmail(token: string): Promise<void> {
    const [claimed] = await db
      .update(emailVerificationTokens)
      .set({ usedAt: now() })
      .where(
        and(
          eq(emailVerificationTokens.tokenHash, hashToken(token)),
          isNull(emailVerificationTokens.usedAt),
          gt(emailVerificationTokens.expiresAt, now()),
        ),
      )
      .returning({ userId: emailVerificationTokens.userId, email: emailVerificationTokens.email });
    if (!claimed) throw unprocessable('auth.verifyTokenInvalid');
    const confirmed = await db
      .update(users)
      .set({ emailVerifiedAt: now(), updatedAt: now() })
      .where(and(eq(users.id, claimed.userId), sql`lower(${users.email}) = ${claimed.email}`))
      .returning({ id: users.id });
    if (confirmed.length === 0) throw unprocessable('auth.verifyTokenInvalid');
  }

  /** Sends the confirmation link again (the route throttles it per account and address). */
  async function resendVerification(user: UserRow, language: Language): Promise<void> {
    if (user.emailVerifiedAt !== null) throw conflict('auth.alreadyVerified');
    const [recent] = await db
      .select({ at: sql<Date | string>`max(${emailVerificationTokens.createdAt})` })
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.userId, user.id));
    const last = recent?.at ? new Date(recent.at).getTime() : 0;
    const wait = Math.ceil((last + RESEND_COOLDOWN_SECONDS * 1000 - now().getTime()) / 1000);
    if (wait > 0) throw new AppError(429, 'common.tooManyRequests', { count: 1 }, { 'retry-after': String(wait) });
    await deps.enqueueEmail({ kind: 'verify', userId: user.id, language });
  }

  return {
    register,
    login,
    logout,
    authenticate,
    authenticateSession,
    me: toDto,
    updateProfile,
    changePassword,
    requestPasswordReset,
    resetPassword,
    verifyEmail,
    resendVerification,
    deliverEmail,
    isAdmin,
    followUserChanges,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type AuthService = ReturnType<typeof createAuthService>;
export type User = UserRow;
