import crypto from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { oauthStates, users } from '../db/schema';
import type { Message, MessageKey } from '../messages';
import type { SecretBox } from '../lib/secrets';

/**
 * The `state` of an OAuth consent screen, bound to the browser that asked for it (issue 28).
 *
 * A signed-in console asks for an authorization with a same-origin fetch; the answer sets a
 * cookie holding a random nonce (HttpOnly, SameSite=Lax, Secure on https, scoped to the
 * provider's window path, 10 minutes) and gives the state `<state id>.<sha256 of the nonce>`. The
 * state id names a row here (who, what for, the nonce's hash, the user's token version, when it
 * expires, when it was used). The window's start and the provider's redirect back both need the
 * cookie to match, so a state carried to another browser (a link sent to a victim) is refused and
 * nothing is stored; the redirect back spends it (once); a password change or reset moves the
 * user's token version, which voids every state issued before.
 *
 * SameSite=Lax, not Strict: the provider's redirect back is a top-level navigation from the
 * provider's site, and a Strict cookie is not sent on it. Lax is sent on top-level GET navigations
 * only, which is all these two addresses are.
 *
 * Keyed by a provider name (youtube, tiktok, instagram), each with its own window path. A PKCE
 * code verifier (TikTok) may ride along: stored sealed with the secret box, answered back once by
 * `consume`, so it never reaches the browser.
 */

export const OAUTH_STATE_TTL_SECONDS = 600;
/** States a user may have pending per provider; older ones are dropped when more are asked for. */
export const OAUTH_STATES_PER_USER = 20;
const COOKIE_PREFIX = 'storyflow_oauth_';
const STATE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const NONCE = /^[A-Za-z0-9_-]{43}$/;

/** Why a state was refused. `other_browser`: this browser did not ask for it (or its cookie expired). */
export type OauthStateRefusal = 'invalid' | 'used' | 'other_browser';

export class OauthStateRefused extends Error {
  constructor(readonly reason: OauthStateRefusal) {
    super(`OAuth state refused: ${reason}`);
    this.name = 'OauthStateRefused';
  }
}

/**
 * A refused state as the authorization window's message, in the words of `keys` (each provider's
 * own); any other error goes on.
 */
export function refusalMessage(error: unknown, keys: Record<OauthStateRefusal, MessageKey>): Message {
  if (error instanceof OauthStateRefused) return { key: keys[error.reason] };
  throw error;
}

export interface OauthStateDeps {
  db: Db;
  now: () => Date;
  /** Cookies get `Secure` (PUBLIC_URL is https). */
  secureCookies: boolean;
  /** Seals the PKCE code verifiers at rest. */
  secrets: SecretBox;
}

export interface OauthTarget {
  userId: string;
  subject: string;
}

/** A state's target, with the PKCE code verifier issued with it (if any). */
export interface ConsumedOauthState extends OauthTarget {
  codeVerifier?: string;
}

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('base64url');

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

/** The value of cookie `name` in a Cookie header (the first one wins). */
function cookieIn(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.slice(0, 16_384).split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

export function createOauthStates({ db, now, secureCookies, secrets }: OauthStateDeps) {
  function cookie(name: string, value: string, path: string, maxAge: number): string {
    return `${name}=${value}; Max-Age=${maxAge}; Path=${path}; HttpOnly; SameSite=Lax${secureCookies ? '; Secure' : ''}`;
  }

  /**
   * A new pending authorization of `subject` for the user: the state to send through the consent
   * screen, and the Set-Cookie header (for `path`, the provider's window) that binds it to the
   * browser that asked.
   */
  async function issue(input: {
    provider: string;
    userId: string;
    tokenVersion: number;
    subject: string;
    path: string;
    /** A PKCE code verifier to keep (sealed) until the redirect back. */
    codeVerifier?: string;
  }): Promise<{ state: string; setCookie: string }> {
    const id = crypto.randomBytes(16).toString('base64url');
    const nonce = crypto.randomBytes(32).toString('base64url');
    const nonceHash = sha256(nonce);
    const at = now();
    await db.transaction(async (tx) => {
      await tx.delete(oauthStates).where(lt(oauthStates.expiresAt, at));
      // A bounded number pending per user: the newest stay.
      const keep = tx
        .select({ id: oauthStates.id })
        .from(oauthStates)
        .where(and(eq(oauthStates.userId, input.userId), eq(oauthStates.provider, input.provider)))
        .orderBy(desc(oauthStates.createdAt))
        .limit(OAUTH_STATES_PER_USER - 1);
      await tx
        .delete(oauthStates)
        .where(
          and(eq(oauthStates.userId, input.userId), eq(oauthStates.provider, input.provider), notInArray(oauthStates.id, keep)),
        );
      await tx.insert(oauthStates).values({
        id,
        provider: input.provider,
        userId: input.userId,
        subject: input.subject,
        nonceHash,
        codeVerifierEnc: input.codeVerifier === undefined ? null : secrets.seal(input.codeVerifier),
        tokenVersion: input.tokenVersion,
        expiresAt: new Date(at.getTime() + OAUTH_STATE_TTL_SECONDS * 1000),
        createdAt: at,
      });
    });
    return { state: `${id}.${nonceHash}`, setCookie: cookie(COOKIE_PREFIX + id, nonce, input.path, OAUTH_STATE_TTL_SECONDS) };
  }

  /** The row of a well-formed state of this provider whose cookie this browser holds; refuses otherwise. */
  async function verified(provider: string, state: string | undefined, cookieHeader: string | undefined) {
    const parts = state ? STATE.exec(state) : null;
    if (!parts) throw new OauthStateRefused('invalid');
    const [, id, nonceHash] = parts as unknown as [string, string, string];
    const [row] = await db
      .select({
        id: oauthStates.id,
        userId: oauthStates.userId,
        subject: oauthStates.subject,
        nonceHash: oauthStates.nonceHash,
        codeVerifierEnc: oauthStates.codeVerifierEnc,
        usedAt: oauthStates.usedAt,
        current: sql<boolean>`${oauthStates.tokenVersion} = ${users.tokenVersion}`,
      })
      .from(oauthStates)
      .innerJoin(users, eq(users.id, oauthStates.userId))
      .where(and(eq(oauthStates.id, id), eq(oauthStates.provider, provider), gt(oauthStates.expiresAt, now())));
    if (!row || !row.current || !sameText(row.nonceHash, nonceHash)) throw new OauthStateRefused('invalid');
    if (row.usedAt) throw new OauthStateRefused('used');
    const nonce = cookieIn(cookieHeader, COOKIE_PREFIX + id);
    if (!nonce || !NONCE.test(nonce) || !sameText(sha256(nonce), nonceHash)) throw new OauthStateRefused('other_browser');
    return row;
  }

  /** Whose authorization this is, when this browser asked for it and it is still pending; never spends it. */
  async function check(
    provider: string,
    state: string | undefined,
    cookieHeader: string | undefined,
  ): Promise<ConsumedOauthState> {
    return target(await verified(provider, state, cookieHeader));
  }

  /** Whose, for what, and the PKCE verifier issued with it (the window's start derives the challenge from it). */
  function target(row: { userId: string; subject: string; codeVerifierEnc: string | null }): ConsumedOauthState {
    const codeVerifier = secrets.tryOpen(row.codeVerifierEnc);
    return { userId: row.userId, subject: row.subject, ...(codeVerifier === undefined ? {} : { codeVerifier }) };
  }

  /**
   * Spends the state (the provider's redirect back): the same checks as `check`, and only one
   * caller ever gets the target. Refused states change nothing.
   */
  async function consume(
    provider: string,
    state: string | undefined,
    cookieHeader: string | undefined,
  ): Promise<ConsumedOauthState> {
    const row = await verified(provider, state, cookieHeader);
    const spent = await db
      .update(oauthStates)
      .set({ usedAt: now() })
      .where(
        and(
          eq(oauthStates.id, row.id),
          isNull(oauthStates.usedAt),
          gt(oauthStates.expiresAt, now()),
          // A password changed since the check voids it too.
          sql`${oauthStates.tokenVersion} = (select ${users.tokenVersion} from ${users} where ${users.id} = ${oauthStates.userId})`,
        ),
      )
      .returning({ id: oauthStates.id });
    if (spent.length === 0) throw new OauthStateRefused('used');
    return target(row);
  }

  /** The Set-Cookie header that removes a state's cookie from the browser (after the redirect back). */
  function clearCookie(state: string | undefined, path: string): string | undefined {
    const parts = state ? STATE.exec(state) : null;
    return parts ? cookie(COOKIE_PREFIX + parts[1], '', path, 0) : undefined;
  }

  return { issue, check, consume, clearCookie };
}

export type OauthStates = ReturnType<typeof createOauthStates>;
