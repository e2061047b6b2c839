import crypto from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Database, Db } from '../db';
import { WatchedRows } from '../lib/watchedRows';
import { isUniqueViolation } from '../db/errors';
import {
  chatModelConfigs,
  emailVerificationTokens,
  loginFailures,
  notificationSettings,
  passwordResetTokens,
  users,
} from '../db/schema';
import { AppError, conflict, unauthorized, unprocessable } from '../errors';
import { translate, type Language } from '../messages';
import { DEFAULT_HASH_COST, HashQueueFull, dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../lib/passwords';
import { BILLING_PERIODS, DEFAULT_PLAN, isPlanId, planName, type BillingPeriod } from '../lib/plans';
import type { AuthResult, ProfileInput, RegisterInput, ResetPasswordInput, UserDto } from '../contracts/auth';
import { signToken, verifyToken } from '../lib/tokens';
import type { Mailer } from '../providers/mailer';
import type { AuthEmailJob } from '../jobs';
import { addressKey } from '../lib/clientAddress';
import { isCommonPassword } from '../lib/commonPasswords';
import type { Reauthentication } from './reauthentication';
import { SESSION_TTL_SECONDS, createSessionStore, type SessionClient } from './sessions';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export { SESSION_TTL_SECONDS };
/** SESSION_IDLE_HOURS unless the operator says otherwise. */
export const DEFAULT_SESSION_IDLE_HOURS = 72;
export const RESET_TOKEN_TTL_MINUTES = 60;
export const VERIFY_TOKEN_TTL_HOURS = 24;
/** A verification email is sent again at most this often for one account. */
export const RESEND_COOLDOWN_SECONDS = 60;
/** Sign-in limits (docs/security.md, "Sign-in"); a client address is an IPv4 address or an IPv6 /64 (lib/clientAddress). */
export const LOGIN_WINDOW_MINUTES = 15;
/** Failed sign-ins for one email from one client address before that address is refused for it (429). */
export const LOGIN_MAX_FAILURES_PER_EMAIL = 5;
/** Failed sign-ins from one client address, whatever the email, before it is refused (429). */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 20;
/** Failed sign-ins for one email from every address past which each try for it waits: slowed, never refused. */
export const LOGIN_SLOW_AFTER_FAILURES_PER_EMAIL = 50;
/** The wait grows by this much with each failure past LOGIN_SLOW_AFTER_FAILURES_PER_EMAIL, up to LOGIN_SLOWDOWN_MAX_MS. */
export const LOGIN_SLOWDOWN_STEP_MS = 250;
export const LOGIN_SLOWDOWN_MAX_MS = 5_000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type UserRow = typeof users.$inferSelect;

/** A confirmation either done, or waiting for the account's password (an admin address). */
export type VerifyEmailOutcome =
  | { status: 'verified' }
  | { status: 'password_required'; key: 'auth.adminConfirmNeedsPassword' | 'auth.adminConfirmPasswordWrong' };

export interface AuthDeps {
  db: Db;
  appSecret: string;
  adminEmails: string[];
  publicUrl: string;
  mailer: Mailer;
  /** Hands an email to the job queue (or to the background, without one). */
  enqueueEmail: (job: AuthEmailJob) => Promise<void>;
  /**
   * Checks a signed-in user's current password (a password or email change): counted before it is
   * hashed, one at a time per account (services/reauthentication.ts); `clear` forgets the counts.
   */
  reauthentication: Pick<Reauthentication, 'check' | 'clear'>;
  /** Hashes that may wait for a turn before more are refused with 503 (PASSWORD_HASH_QUEUE). */
  hashQueue?: number;
  /** Argon2id memory (2^cost KiB); DEFAULT_HASH_COST unless the operator (or a test) says otherwise. */
  passwordHashCost?: number;
  /** A session unused this long ends (SESSION_IDLE_HOURS). */
  sessionIdleHours?: number;
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
  if (isCommonPassword(password)) throw unprocessable('auth.passwordTooCommon');
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
  const hashOptions = { maxWaiting: deps.hashQueue };
  const sessionStore = createSessionStore({
    db,
    now,
    idleMs: (deps.sessionIdleHours ?? DEFAULT_SESSION_IDLE_HOURS) * 3_600_000,
  });

  const isAdminEmail = (email: string) => deps.adminEmails.includes(normalizeEmail(email));
  /** Admin rights need an ADMIN_EMAIL address that its owner has confirmed. */
  const isAdmin = (user: UserRow) => isAdminEmail(user.email) && user.emailVerifiedAt !== null;

  function toDto(user: UserRow): UserDto {
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      plan: isPlanId(user.plan) ? user.plan : DEFAULT_PLAN,
      plan_name: planName(user.plan),
      billing_period: user.billingPeriod,
      time_zone: user.timeZone,
      is_admin: isAdmin(user),
      email_verified: user.emailVerifiedAt !== null,
      is_admin_pending: isAdminEmail(user.email) && user.emailVerifiedAt === null,
      created_at: user.createdAt.toISOString(),
    };
  }

  /** Opens a session for the user (noting the browser and address it came from) and answers its token. */
  async function openSession(user: UserRow, client?: SessionClient): Promise<AuthResult> {
    const sid = await sessionStore.open(user.id, client);
    const token = signToken(
      { sub: user.id, sid, ver: user.tokenVersion, typ: 'session' },
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
  // Sessions change only through the session store (services/sessions.ts), which keeps them too.

  function findById(id: string): Promise<UserRow | undefined> {
    return signedIn.get(id);
  }

  /** Keeps users and sessions in memory from now on, dropping each user the database says changed. */
  async function followUserChanges(watch: NonNullable<Database['watchUsers']>): Promise<() => Promise<void>> {
    const stopSessions = await sessionStore.follow();
    const stopUsers = await signedIn.follow(watch);
    return async () => {
      await stopUsers();
      await stopSessions();
    };
  }

  /** Revokes sessions of `userId` (all of them, or all but `keep`); answers how many ended. */
  function revokeSessions(userId: string, keep?: string): Promise<number> {
    return sessionStore.revokeAll(userId, keep);
  }

  async function register(input: RegisterInput, language: Language = 'en', client?: SessionClient): Promise<AuthResult> {
    if (!input.name.trim() || !input.email.trim() || !input.password) throw unprocessable('auth.fillAllFields');
    const name = checkName(input.name);
    const email = checkEmail(input.email);
    checkPassword(input.password);
    const billing: BillingPeriod = input.plan ?? 'monthly';
    if (!BILLING_PERIODS.includes(billing)) throw unprocessable('auth.invalidPlan');
    const timeZone = input.time_zone?.trim() || 'UTC';
    if (!validTimeZone(timeZone)) throw unprocessable('auth.invalidTimeZone', { timeZone });

    if (await findByEmail(email)) throw conflict('auth.emailTaken');
    const passwordHash = await hashPassword(input.password, cost, hashOptions);
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
    return openSession(user, client);
  }

  /**
   * Counts this sign-in attempt before the password is checked (docs/security.md, "Sign-in"). The
   * client address (`addressKey`: an IPv4 address or an IPv6 /64) is refused (429) once it has
   * LOGIN_MAX_FAILURES_PER_EMAIL failures for this email, or LOGIN_MAX_FAILURES_PER_ADDRESS in all,
   * within the window: a refused attempt is not written, so nobody can add to another's counts by
   * hammering a closed door. Otherwise the attempt is written (a success removes it) and answered
   * with the wait the email's failures from every address call for: none up to
   * LOGIN_SLOW_AFTER_FAILURES_PER_EMAIL, then LOGIN_SLOWDOWN_STEP_MS more per failure up to
   * LOGIN_SLOWDOWN_MAX_MS. The account is slowed down, never shut, so nobody can lock its owner out.
   */
  async function countAttempt(email: string, address: string): Promise<{ id: string; waitMs: number }> {
    const since = new Date(now().getTime() - LOGIN_WINDOW_MINUTES * 60_000);
    // The attempts of one address are counted one at a time (a transaction-scoped advisory lock),
    // so on a server with many connections exactly the first LOGIN_MAX_FAILURES_PER_EMAIL parallel
    // tries of an address are checked. The account's count only sets the wait: it needs no lock.
    const outcome = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login:address:${address}`}))`);
      const ofPair = sql`${loginFailures.email} = ${email} and ${loginFailures.address} = ${address}`;
      const ofAddress = sql`${loginFailures.address} = ${address}`;
      const ofEmail = sql`${loginFailures.email} = ${email}`;
      const [counted] = await tx
        .select({
          pair: sql<number>`(count(*) filter (where ${ofPair}))::int`,
          pairOldest: sql<Date | string | null>`min(${loginFailures.createdAt}) filter (where ${ofPair})`,
          address: sql<number>`(count(*) filter (where ${ofAddress}))::int`,
          addressOldest: sql<Date | string | null>`min(${loginFailures.createdAt}) filter (where ${ofAddress})`,
          email: sql<number>`(count(*) filter (where ${ofEmail}))::int`,
        })
        .from(loginFailures)
        .where(and(sql`(${ofEmail} or ${ofAddress})`, gt(loginFailures.createdAt, since)));
      if ((counted?.pair ?? 0) >= LOGIN_MAX_FAILURES_PER_EMAIL) return { refused: counted?.pairOldest ?? null };
      if ((counted?.address ?? 0) >= LOGIN_MAX_FAILURES_PER_ADDRESS) return { refused: counted?.addressOldest ?? null };
      const [attempt] = await tx
        .insert(loginFailures)
        .values({ email, address, createdAt: now() })
        .returning({ id: loginFailures.id });
      return { id: attempt!.id, byEmail: counted?.email ?? 0 };
    });
    if ('refused' in outcome) throw tooMany(outcome.refused ? new Date(outcome.refused) : null);
    const past = outcome.byEmail - LOGIN_SLOW_AFTER_FAILURES_PER_EMAIL + 1;
    return { id: outcome.id, waitMs: past > 0 ? Math.min(LOGIN_SLOWDOWN_MAX_MS, past * LOGIN_SLOWDOWN_STEP_MS) : 0 };
  }

  function tooMany(oldest: Date | null): AppError {
    const unblockAt = (oldest ?? now()).getTime() + LOGIN_WINDOW_MINUTES * 60_000;
    const seconds = Math.max(1, Math.ceil((unblockAt - now().getTime()) / 1000));
    return new AppError(429, 'auth.tooManyAttempts', { count: Math.ceil(seconds / 60) }, { 'retry-after': String(seconds) });
  }

  async function login(
    input: { email: string; password: string },
    address: string,
    language?: Language,
    userAgent?: string,
  ): Promise<AuthResult> {
    if (!input.email.trim() || !input.password) throw unprocessable('auth.fillAllFields');
    const email = normalizeEmail(input.email);
    const key = addressKey(address);
    const attempt = await countAttempt(email, key);
    if (attempt.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, attempt.waitMs));

    const user = await findByEmail(email);
    let valid: boolean;
    try {
      valid = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash(cost)), hashOptions);
    } catch (error) {
      // The server was too busy to check it (503): the attempt was not made, so it is not counted.
      if (error instanceof HashQueueFull) await db.delete(loginFailures).where(eq(loginFailures.id, attempt.id));
      throw error;
    }
    if (!user || !valid) throw unauthorized('auth.invalidCredentials');
    // This address's failures for the account go; other addresses' stay (they may be someone else's).
    await db.delete(loginFailures).where(and(eq(loginFailures.email, email), eq(loginFailures.address, key)));
    // A hash made cheaper than today's cost is made again, now that the password is known; the
    // interface language is kept for what is sent while the user is away (alerts).
    const changes: Partial<UserRow> = {};
    if (needsRehash(user.passwordHash, cost)) changes.passwordHash = await hashPassword(input.password, cost, hashOptions);
    if (language && language !== user.language) changes.language = language;
    if (Object.keys(changes).length > 0) await db.update(users).set(changes).where(eq(users.id, user.id));
    return openSession(user, { userAgent, ip: address });
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
    const [session, user] = await Promise.all([sessionStore.get(claims.sid), findById(claims.sub)]);
    // Revoked, past its 7 days, or unused for SESSION_IDLE_HOURS: signed out.
    if (!sessionStore.live(session, claims.sub)) throw unauthorized('auth.sessionExpired');
    if (!user || user.tokenVersion !== claims.ver) throw unauthorized('auth.sessionExpired');
    sessionStore.touch(session);
    return { user, sessionId: session.id };
  }

  async function authenticate(token: string | undefined): Promise<UserRow> {
    return (await authenticateSession(token)).user;
  }

  /** Ends the session of `token` on the server: the token answers 401 from now on. */
  async function logout(token: string | undefined): Promise<void> {
    const { user, sessionId } = await authenticateSession(token);
    await sessionStore.revokeOne(user.id, sessionId);
  }

  /** Settings › Security: the account's sessions that still work, the caller's marked `current`. */
  function listSessions(user: UserRow, currentSessionId: string) {
    return sessionStore.list(user.id, currentSessionId);
  }

  /** Signs one of the caller's own sessions out (the current one too: that is signing out). */
  function revokeSession(user: UserRow, sessionId: string): Promise<void> {
    return sessionStore.revokeOne(user.id, sessionId);
  }

  /** "Sign out everywhere else": every session of the account but the caller's; answers how many ended. */
  function revokeOtherSessions(user: UserRow, currentSessionId: string): Promise<number> {
    return revokeSessions(user.id, currentSessionId);
  }

  /**
   * Name, email and time zone. A new email needs the current password; it ends the account's
   * other sessions, spends outstanding reset links (they were sent to the old address) and must be
   * confirmed again (admin rights wait for that).
   */
  async function updateProfile(
    user: UserRow,
    input: ProfileInput,
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
      if (!(await deps.reauthentication.check(user, input.current_password))) throw unprocessable('auth.currentPasswordWrong');
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
    const passwordHash = await hashPassword(password, cost, hashOptions);
    const [updated] = await db
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: now(), ...extra })
      .where(eq(users.id, userId))
      .returning();
    await passwordChanged(userId);
    return updated!;
  }

  /**
   * What follows a new password, changed in Settings or reset from the email link, once it is
   * stored (and the token version moved): every session ends. Anything else a new password must
   * cancel belongs here, so that both ways do it.
   */
  async function passwordChanged(userId: string): Promise<void> {
    await revokeSessions(userId);
  }

  /**
   * A reset gives the account to whoever reads its mailbox. The addresses the account sends data
   * to, which someone else may have set while they had it, are cleared so that they must be entered
   * again: the notification webhook (and its secret); the chat model's own server (the whole
   * configuration goes, since its key was saved for that server and may go nowhere else); the
   * speech and image servers. Answers whether anything was cleared (docs/decisions.md).
   */
  async function clearOutboundUrls(userId: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const webhooks = await tx
        .update(notificationSettings)
        .set({ webhookUrl: null, webhookSecretEnc: null, updatedAt: now() })
        .where(and(eq(notificationSettings.userId, userId), isNotNull(notificationSettings.webhookUrl)))
        .returning({ userId: notificationSettings.userId });
      const chatServers = await tx
        .delete(chatModelConfigs)
        .where(and(eq(chatModelConfigs.userId, userId), isNotNull(chatModelConfigs.baseUrl)))
        .returning({ id: chatModelConfigs.id });
      const mediaServers = await tx
        .update(chatModelConfigs)
        .set({ speechBaseUrl: null, imageBaseUrl: null, updatedAt: now() })
        .where(
          and(
            eq(chatModelConfigs.userId, userId),
            or(isNotNull(chatModelConfigs.speechBaseUrl), isNotNull(chatModelConfigs.imageBaseUrl)),
          ),
        )
        .returning({ id: chatModelConfigs.id });
      return webhooks.length + chatServers.length + mediaServers.length > 0;
    });
  }

  /** Changes the password; every earlier session ends, and a new one is answered. */
  async function changePassword(
    user: UserRow,
    input: { current_password: string; new_password: string },
    client?: SessionClient,
  ): Promise<AuthResult> {
    if (!input.current_password || !input.new_password) throw unprocessable('auth.fillAllFields');
    checkPassword(input.new_password);
    if (!(await deps.reauthentication.check(user, input.current_password))) throw unprocessable('auth.currentPasswordWrong');
    return openSession(await setPassword(user.id, input.new_password), client);
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

  /** Answers whether outbound addresses were cleared (clearOutboundUrls): the answer says so. */
  async function resetPassword(input: ResetPasswordInput): Promise<{ urlsCleared: boolean }> {
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
    const reset = await setPassword(userId, input.new_password, { emailVerifiedAt: now() });
    // Whoever reads the mailbox owns the account: its failed sign-ins (from every address) and
    // failed password checks no longer hold it back.
    await db.delete(loginFailures).where(eq(loginFailures.email, normalizeEmail(reset.email)));
    await deps.reauthentication.clear(userId);
    // One link resets once: any other outstanding link of this user is spent too.
    await db
      .update(passwordResetTokens)
      .set({ usedAt: now() })
      .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
    return { urlsCleared: await clearOutboundUrls(userId) };
  }

  /**
   * Confirms an address with the token of a link: one-time, within 24 hours, and only while the
   * account still has the address the link was sent to. Needs no session (the link may be opened
   * on another device). An ADMIN_EMAIL address also needs the account's password in the same call:
   * the token alone never makes an admin (whoever signed up with the address may not own the
   * mailbox, and its owner's click must not give them admin rights). Without it, or with a wrong
   * one, nothing is spent and the answer says a password is needed.
   */
  async function verifyEmail(token: string, password?: string): Promise<VerifyEmailOutcome> {
    const tokenHash = hashToken(token);
    const [pending] = await db
      .select({ userId: emailVerificationTokens.userId, email: emailVerificationTokens.email })
      .from(emailVerificationTokens)
      .where(
        and(
          eq(emailVerificationTokens.tokenHash, tokenHash),
          isNull(emailVerificationTokens.usedAt),
          gt(emailVerificationTokens.expiresAt, now()),
        ),
      )
      .limit(1);
    if (!pending) throw unprocessable('auth.verifyTokenInvalid');
    if (isAdminEmail(pending.email)) {
      if (!password) return { status: 'password_required', key: 'auth.adminConfirmNeedsPassword' };
      const [owner] = await db.select().from(users).where(eq(users.id, pending.userId)).limit(1);
      if (!owner || normalizeEmail(owner.email) !== pending.email) throw unprocessable('auth.verifyTokenInvalid');
      // A re-authentication like Settings' own: counted before it is hashed, one at a time per account.
      if (!(await deps.reauthentication.check(owner, password))) {
        return { status: 'password_required', key: 'auth.adminConfirmPasswordWrong' };
      }
    }
    const [claimed] = await db
      .update(emailVerificationTokens)
      .set({ usedAt: now() })
      .where(
        and(
          eq(emailVerificationTokens.tokenHash, tokenHash),
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
    return { status: 'verified' };
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
    listSessions,
    revokeSession,
    revokeOtherSessions,
    deliverEmail,
    isAdmin,
    followUserChanges,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type AuthService = ReturnType<typeof createAuthService>;
export type User = UserRow;
