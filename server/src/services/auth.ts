import crypto from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database, Db } from '../db';
import { WatchedRows } from '../lib/watchedRows';
import { isUniqueViolation } from '../db/errors';
import { loginFailures, passwordResetTokens, users } from '../db/schema';
import { AppError, conflict, unauthorized, unprocessable } from '../errors';
import { translate, type Language } from '../messages';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../lib/passwords';
import { BILLING_PERIODS, DEFAULT_PLAN, planName, type BillingPeriod } from '../lib/plans';
import { signToken, verifyToken } from '../lib/tokens';
import type { Mailer } from '../providers/mailer';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
export const RESET_TOKEN_TTL_MINUTES = 60;
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
  created_at: string;
}

export interface AuthResult {
  access_token: string;
  token_type: 'bearer';
  user: UserDto;
}

type UserRow = typeof users.$inferSelect;

export interface AuthDeps {
  db: Db;
  appSecret: string;
  adminEmails: string[];
  publicUrl: string;
  mailer: Mailer;
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

  const isAdminEmail = (email: string) => deps.adminEmails.includes(normalizeEmail(email));

  function toDto(user: UserRow): UserDto {
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      plan: user.plan,
      plan_name: planName(user.plan),
      billing_period: user.billingPeriod,
      time_zone: user.timeZone,
      is_admin: isAdminEmail(user.email),
      created_at: user.createdAt.toISOString(),
    };
  }

  function issueToken(user: UserRow): string {
    return signToken({ sub: user.id, ver: user.tokenVersion, typ: 'session' }, deps.appSecret, SESSION_TTL_SECONDS, now().getTime());
  }

  const session = (user: UserRow): AuthResult => ({ access_token: issueToken(user), token_type: 'bearer', user: toDto(user) });

  async function findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${normalizeEmail(email)}`)
      .limit(1);
    return row;
  }

  // Every signed-in request reads its user: prepared once, and kept in memory where the database
  // tells this process of every change (the embedded one; see followUserChanges).
  const userById = db.select().from(users).where(eq(users.id, sql.placeholder('id'))).limit(1).prepare('auth_user_by_id');
  const signedIn = new WatchedRows<UserRow>(async (id) => (await userById.execute({ id }))[0]);

  function findById(id: string): Promise<UserRow | undefined> {
    return signedIn.get(id);
  }

  /** Keeps users in memory from now on, dropping each one the database says changed. */
  function followUserChanges(watch: NonNullable<Database['watchUsers']>): Promise<() => Promise<void>> {
    return signedIn.follow(watch);
  }

  async function register(input: {
    name: string;
    email: string;
    password: string;
    plan?: string;
    time_zone?: string;
  }): Promise<AuthResult> {
    if (!input.name.trim() || !input.email.trim() || !input.password) throw unprocessable('auth.fillAllFields');
    const name = checkName(input.name);
    const email = checkEmail(input.email);
    checkPassword(input.password);
    const billing = (input.plan ?? 'monthly') as BillingPeriod;
    if (!BILLING_PERIODS.includes(billing)) throw unprocessable('auth.invalidPlan');
    const timeZone = input.time_zone?.trim() || 'UTC';
    if (!validTimeZone(timeZone)) throw unprocessable('auth.invalidTimeZone', { timeZone });

    if (await findByEmail(email)) throw conflict('auth.emailTaken');
    const passwordHash = await hashPassword(input.password);
    try {
      const [user] = await db
        .insert(users)
        .values({ name, email, passwordHash, plan: DEFAULT_PLAN, billingPeriod: billing, timeZone })
        .returning();
      return session(user!);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('auth.emailTaken');
      throw error;
    }
  }

  async function recentFailures(column: typeof loginFailures.email | typeof loginFailures.address, value: string) {
    const since = new Date(now().getTime() - LOGIN_WINDOW_MINUTES * 60_000);
    const [row] = await db
      .select({ count: sql<number>`count(*)::int`, oldest: sql<Date | string | null>`min(${loginFailures.createdAt})` })
      .from(loginFailures)
      .where(and(eq(column, value), gt(loginFailures.createdAt, since)));
    return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
  }

  function tooMany(oldest: Date | null): AppError {
    const unblockAt = (oldest ?? now()).getTime() + LOGIN_WINDOW_MINUTES * 60_000;
    const seconds = Math.max(1, Math.ceil((unblockAt - now().getTime()) / 1000));
    return new AppError(429, 'auth.tooManyAttempts', { minutes: Math.ceil(seconds / 60) }, { 'retry-after': String(seconds) });
  }

  async function login(input: { email: string; password: string }, address: string): Promise<AuthResult> {
    if (!input.email.trim() || !input.password) throw unprocessable('auth.fillAllFields');
    const email = normalizeEmail(input.email);

    const byEmail = await recentFailures(loginFailures.email, email);
    if (byEmail.count >= LOGIN_MAX_FAILURES_PER_EMAIL) throw tooMany(byEmail.oldest);
    const byAddress = await recentFailures(loginFailures.address, address);
    if (byAddress.count >= LOGIN_MAX_FAILURES_PER_ADDRESS) throw tooMany(byAddress.oldest);

    const user = await findByEmail(email);
    const valid = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
    if (!user || !valid) {
      await db.insert(loginFailures).values({ email, address, createdAt: now() });
      throw unauthorized('auth.invalidCredentials');
    }
    await db.delete(loginFailures).where(eq(loginFailures.email, email));
    return session(user);
  }

  /** Resolves a bearer token to its user; throws 401 when it is missing, invalid, expired or revoked. */
  async function authenticate(token: string | undefined): Promise<UserRow> {
    if (!token) throw unauthorized('auth.notAuthenticated');
    const result = verifyToken(token, deps.appSecret, now().getTime());
    if (!result.ok) throw unauthorized(result.reason === 'expired' ? 'auth.sessionExpired' : 'auth.notAuthenticated');
    if (result.claims.typ !== 'session') throw unauthorized('auth.notAuthenticated');
    const user = await findById(result.claims.sub);
    if (!user || user.tokenVersion !== result.claims.ver) throw unauthorized('auth.sessionExpired');
    return user;
  }

  async function updateProfile(user: UserRow, input: { name: string; email: string; time_zone?: string }): Promise<UserDto> {
    if (!input.name.trim() || !input.email.trim()) throw unprocessable('auth.fillAllFields');
    const name = checkName(input.name);
    const email = checkEmail(input.email);
    const timeZone = input.time_zone === undefined ? user.timeZone : input.time_zone.trim();
    if (!validTimeZone(timeZone)) throw unprocessable('auth.invalidTimeZone', { timeZone });
    if (email !== normalizeEmail(user.email)) {
      // Admin rights follow ADMIN_EMAIL, so nobody may move their account onto that address.
      if (isAdminEmail(email)) throw unprocessable('auth.emailReserved');
      const other = await findByEmail(email);
      if (other && other.id !== user.id) throw conflict('auth.emailTaken');
    }
    try {
      const [updated] = await db
        .update(users)
        .set({ name, email, timeZone, updatedAt: now() })
        .where(eq(users.id, user.id))
        .returning();
      return toDto(updated!);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('auth.emailTaken');
      throw error;
    }
  }

  async function setPassword(userId: string, password: string): Promise<UserRow> {
    const passwordHash = await hashPassword(password);
    const [updated] = await db
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: now() })
      .where(eq(users.id, userId))
      .returning();
    return updated!;
  }

  /** Changes the password; every earlier token stops working, and a new one is answered. */
  async function changePassword(
    user: UserRow,
    input: { current_password: string; new_password: string },
  ): Promise<AuthResult> {
    if (!input.current_password || !input.new_password) throw unprocessable('auth.fillAllFields');
    checkPassword(input.new_password);
    if (!(await verifyPassword(input.current_password, user.passwordHash))) throw unprocessable('auth.currentPasswordWrong');
    return session(await setPassword(user.id, input.new_password));
  }

  /** Answers the same whether or not the email has an account. */
  async function requestPasswordReset(rawEmail: string, language: Language): Promise<void> {
    if (!rawEmail.trim()) throw unprocessable('auth.emailRequired');
    const email = checkEmail(rawEmail);
    const user = await findByEmail(email);
    if (!user) return;
    const token = crypto.randomBytes(32).toString('base64url');
    const tokenHash = crypto.createHash('sha256').update(token).digest('hex');
    await db.insert(passwordResetTokens).values({
      userId: user.id,
      tokenHash,
      expiresAt: new Date(now().getTime() + RESET_TOKEN_TTL_MINUTES * 60_000),
    });
    const link = `${deps.publicUrl}/reset-password?token=${token}`;
    await deps.mailer.send({
      to: user.email,
      subject: translate(language, 'auth.resetEmailSubject'),
      text: translate(language, 'auth.resetEmailBody', { name: user.name, link, minutes: RESET_TOKEN_TTL_MINUTES }),
    });
  }

  async function resetPassword(input: { token: string; new_password: string }): Promise<void> {
    checkPassword(input.new_password);
    const tokenHash = crypto.createHash('sha256').update(input.token).digest('hex');
    const claimed = await db
      .update(passwordResetTokens)
      .set({ usedAt: now() })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, tokenHash),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now()),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    const userId = claimed[0]?.userId;
    if (!userId) throw unprocessable('auth.resetTokenInvalid');
    await setPassword(userId, input.new_password);
    // One link resets once: any other outstanding link of this user is spent too.
    await db
      .update(passwordResetTokens)
      .set({ usedAt: now() })
      .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
  }

  return {
    register,
    login,
    authenticate,
    me: toDto,
    updateProfile,
    changePassword,
    requestPasswordReset,
    resetPassword,
    isAdmin: (user: UserRow) => isAdminEmail(user.email),
    followUserChanges,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
export type User = UserRow;
