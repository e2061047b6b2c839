import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { platformAccounts, type PlatformAccountChoice } from '../db/schema';
import { AppError, conflict, notFound, unprocessable } from '../errors';
import type { Message, MessageKey } from '../messages';
import type { SecretBox } from '../lib/secrets';
import {
  PlatformError,
  type AppCredentials,
  type ExchangeOptions,
  type Platform,
  type PlatformFailure,
  type Publisher,
  type Tokens,
} from '../providers/publishers/contract';
import type { InstagramPublisher } from '../providers/publishers/instagram';
import { tiktokCodeVerifier } from '../providers/publishers/tiktok';
import { refusalMessage, type OauthStateRefusal, type OauthStates } from './oauthStates';
import type { Page } from './paging';
import type { CreatePlatformAccountInput, PlatformAccountDto, UpdatePlatformAccountInput } from '../contracts/platformAccounts';

/**
 * The user's TikTok and Instagram accounts (issue 31): the app each authorizes with (its own, or
 * the operator's from the settings), the OAuth window bound to the browser that asked
 * (services/oauthStates.ts, with TikTok's PKCE verifier kept sealed beside the state), the tokens
 * sealed at rest, and the check that fills in who the account is and what it may post.
 */

type Row = typeof platformAccounts.$inferSelect;

/** An account as the service answers it: `disconnect_reason` is still a message key (the route translates it). */
export type PlatformAccountView = Omit<PlatformAccountDto, 'disconnect_reason'> & { disconnect_reason: MessageKey | null };

export interface PlatformTestResult {
  is_connected: boolean;
  last_tested: string;
  needs_authorization: boolean;
  message: Message;
}

/** What the pipeline publishes with: the account's tokens (refreshed when near their end) and its app. */
export interface PlatformCredentials {
  accountId: string;
  platform: Platform;
  externalId: string;
  app: AppCredentials;
  tokens: Tokens;
  privateOnly: boolean;
}

const PLATFORM_NAMES: Record<Platform, string> = { tiktok: 'TikTok', instagram: 'Instagram' };
/** The authorization window of each platform (the state cookie's path). */
export const platformWindowPath = (platform: Platform) => `/api/v1/platform-auth/${platform}`;

const REFUSALS: Record<OauthStateRefusal, MessageKey> = {
  invalid: 'platformAccounts.authStateInvalid',
  used: 'platformAccounts.authStateUsed',
  other_browser: 'platformAccounts.authOtherBrowser',
};

const FAILURES: Record<PlatformFailure, MessageKey> = {
  reauthorize: 'platformAccounts.failure.reauthorize',
  rate_limit: 'platformAccounts.failure.rateLimit',
  daily_limit: 'platformAccounts.failure.dailyLimit',
  private_only: 'platformAccounts.failure.privateOnly',
  restricted: 'platformAccounts.failure.restricted',
  unreachable: 'platformAccounts.failure.unreachable',
  media_rejected: 'platformAccounts.failure.other',
  in_doubt: 'platformAccounts.failure.unreachable',
  too_large: 'platformAccounts.failure.other',
  other: 'platformAccounts.failure.other',
};

/**
 * Calls a person waits for (a check, the window's callback): no retry, so a rate limit or an outage
 * at the platform answers at once ("try again in a minute") rather than after a wait that would
 * likely meet the same limit (TikTok's windows are a minute long). The pipeline's calls keep the
 * publishers' full backoff.
 */
const INTERACTIVE: ExchangeOptions = { maxRetries: 0, timeoutMs: 30_000 };
/**
 * The refresh made while the account's row is locked: bounded, since the lock holds a database
 * connection (with the embedded database, the only one) until TikTok answers.
 */
const UNDER_LOCK: ExchangeOptions = { maxRetries: 1, timeoutMs: 20_000 };

/** A stored secret sealed under another APP_SECRET: the account needs its secret typed again, then authorizing. */
class SecretUnreadable extends Error {}

/** PostgreSQL's unique_violation: the user has this platform account in another entry. */
const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
  }
  return false;
}

export interface PlatformAccountDeps {
  db: Db;
  now: () => Date;
  secrets: SecretBox;
  oauthStates: OauthStates;
  publicUrl: string;
  tiktok: Publisher;
  instagram: InstagramPublisher;
  /** The operator's apps (settings), when set. */
  operatorApps: Partial<Record<Platform, AppCredentials>>;
  /** The operator's TikTok app passed TikTok's audit: its posts may be public. */
  tiktokAudited: boolean;
}

export function createPlatformAccountService(deps: PlatformAccountDeps) {
  const { db, now, secrets } = deps;
  const publishers: Record<Platform, Publisher> = { tiktok: deps.tiktok, instagram: deps.instagram };
  const redirectUri = (platform: Platform) => `${deps.publicUrl}${platformWindowPath(platform)}/callback`;
  const named = (platform: Platform) => ({ platform: PLATFORM_NAMES[platform] });

  function toView(row: Row): PlatformAccountView {
    const choices = row.choices;
    return {
      id: row.id,
      platform: row.platform,
      name: row.name,
      username: row.username,
      display_name: row.displayName,
      avatar_url: row.avatarUrl,
      external_id: row.externalId,
      is_active: row.isActive,
      is_connected: row.isConnected,
      private_only: row.privateOnly,
      needs_authorization:
        (row.accessTokenEnc === null && choices === null) ||
        row.disconnectReason === FAILURES.reauthorize ||
        row.disconnectReason === 'platformAccounts.secretUnreadable',
      choices:
        choices?.map((c) => ({
          external_id: c.externalId,
          username: c.username,
          page_name: c.pageName,
          picture_url: c.pictureUrl,
        })) ?? null,
      uses_operator_app: row.clientId === null,
      client_id: row.clientId,
      has_client_secret: row.clientSecretEnc !== null,
      max_duration_sec: row.maxDurationSec,
      disconnect_reason: (row.disconnectReason as MessageKey | null) ?? null,
      last_tested: row.lastTested?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  async function findRow(userId: string, id: string): Promise<Row> {
    const [row] = await db
      .select()
      .from(platformAccounts)
      .where(and(eq(platformAccounts.id, id), eq(platformAccounts.userId, userId)));
    if (!row) throw notFound('platformAccounts.notFound');
    return row;
  }

  /** Changes a row (always its updated_at), answering it. */
  async function save(id: string, changes: Partial<typeof platformAccounts.$inferInsert>): Promise<Row> {
    const [row] = await db
      .update(platformAccounts)
      .set({ ...changes, updatedAt: now() })
      .where(eq(platformAccounts.id, id))
      .returning();
    if (!row) throw notFound('platformAccounts.notFound');
    return row;
  }

  const operatorApps = () => ({
    tiktok: deps.operatorApps.tiktok !== undefined,
    instagram: deps.operatorApps.instagram !== undefined,
  });

  /** The app this account authorizes with: its own, else the operator's; a 422 saying what to set when neither. */
  function appFor(row: Row): AppCredentials {
    if (row.clientId !== null) {
      const clientSecret = secrets.tryOpen(row.clientSecretEnc);
      if (clientSecret === undefined) throw new SecretUnreadable();
      return { clientId: row.clientId, clientSecret };
    }
    const app = deps.operatorApps[row.platform];
    if (!app) throw missingApp(row.platform);
    return app;
  }

  const missingApp = (platform: Platform) =>
    unprocessable(platform === 'tiktok' ? 'platformAccounts.appMissingTiktok' : 'platformAccounts.appMissingInstagram');

  /** The stored tokens, opened; undefined when there are none (not authorized, or waiting for a choice). */
  function tokensOf(row: Row): Tokens | undefined {
    if (row.accessTokenEnc === null) return undefined;
    const accessToken = secrets.tryOpen(row.accessTokenEnc);
    const refreshToken = row.refreshTokenEnc === null ? undefined : secrets.tryOpen(row.refreshTokenEnc);
    if (accessToken === undefined || (row.refreshTokenEnc !== null && refreshToken === undefined)) throw new SecretUnreadable();
    return {
      accessToken,
      accessExpiresAt: row.accessExpiresAt,
      ...(refreshToken === undefined ? {} : { refreshToken, refreshExpiresAt: row.refreshExpiresAt }),
      scopes: row.scopes,
    };
  }

  /** The columns that keep `tokens`, sealed. */
  function tokenColumns(tokens: Tokens): Partial<typeof platformAccounts.$inferInsert> {
    return {
      accessTokenEnc: secrets.seal(tokens.accessToken),
      accessExpiresAt: tokens.accessExpiresAt,
      refreshTokenEnc: tokens.refreshToken === undefined ? null : secrets.seal(tokens.refreshToken),
      refreshExpiresAt: tokens.refreshExpiresAt ?? null,
      scopes: tokens.scopes,
    };
  }

  function failureMessage(platform: Platform, error: unknown): Message {
    if (error instanceof SecretUnreadable) return { key: 'platformAccounts.secretUnreadable' };
    if (error instanceof AppError) return { key: error.key, params: error.params };
    const kind = error instanceof PlatformError ? error.kind : 'other';
    return { key: FAILURES[kind], params: named(platform) };
  }

  async function list(userId: string, page: Page) {
    const where = eq(platformAccounts.userId, userId);
    const rows = await db
      .select()
      .from(platformAccounts)
      .where(where)
      .orderBy(asc(platformAccounts.createdAt), asc(platformAccounts.id))
      .offset(page.skip)
      .limit(page.limit);
    const [total] = await db.select({ n: count() }).from(platformAccounts).where(where);
    return {
      platform_accounts: rows.map(toView),
      total: total?.n ?? 0,
      redirect_uris: { tiktok: redirectUri('tiktok'), instagram: redirectUri('instagram') },
      operator_apps: operatorApps(),
    };
  }

  async function get(userId: string, id: string): Promise<PlatformAccountView> {
    return toView(await findRow(userId, id));
  }

  async function create(userId: string, input: CreatePlatformAccountInput): Promise<PlatformAccountView> {
    const platform = input.platform;
    const name = input.name.trim();
    if (!name) throw unprocessable('platformAccounts.nameRequired');
    const clientId = input.client_id?.trim() || null;
    const clientSecret = input.client_secret?.trim() || null;
    if ((clientId === null) !== (clientSecret === null)) throw unprocessable('platformAccounts.clientPairRequired');
    if (clientId === null && !deps.operatorApps[platform]) throw missingApp(platform);
    const [row] = await db
      .insert(platformAccounts)
      .values({
        userId,
        platform,
        name,
        clientId,
        clientSecretEnc: clientSecret === null ? null : secrets.seal(clientSecret),
        // An unaudited TikTok app may only post SELF_ONLY (TikTok's Content Posting API guidelines).
        privateOnly: platform === 'tiktok' && !deps.tiktokAudited,
      })
      .returning();
    return toView(row!);
  }

  /** Renames, and/or makes the Instagram account picked from `choices` this connection's. */
  async function update(userId: string, id: string, input: UpdatePlatformAccountInput): Promise<PlatformAccountView> {
    let row = await findRow(userId, id);
    if (input.name !== undefined) {
      const name = input.name.trim();
      if (!name) throw unprocessable('platformAccounts.nameRequired');
      row = await save(row.id, { name });
    }
    if (input.external_id !== undefined) {
      const choice = row.choices?.find((c) => c.externalId === input.external_id);
      if (!choice || row.refreshTokenEnc === null) throw unprocessable('platformAccounts.choiceNotListed');
      const userToken = secrets.tryOpen(row.refreshTokenEnc);
      const pageToken = secrets.tryOpen(choice.pageAccessTokenEnc);
      if (userToken === undefined || pageToken === undefined) throw unprocessable('platformAccounts.secretUnreadable');
      const tokens = deps.instagram.chosenTokens(
        { accessToken: userToken, accessExpiresAt: row.refreshExpiresAt, scopes: row.scopes },
        {
          pageId: choice.pageId,
          pageName: choice.pageName,
          igUserId: choice.externalId,
          username: choice.username,
          pictureUrl: choice.pictureUrl,
          pageAccessToken: pageToken,
        },
      );
      row = await keepAccount(
        row,
        { externalId: choice.externalId, username: choice.username, avatarUrl: choice.pictureUrl },
        tokens,
      );
      await test(userId, row.id);
      row = await findRow(userId, id);
    }
    return toView(row);
  }

  /**
   * Stores who the account is and its tokens; a 409 when the user has this platform account in
   * another entry already (the unique index), and then nothing changes.
   */
  async function keepAccount(
    row: Row,
    who: { externalId: string; username: string | null; displayName?: string | null; avatarUrl: string | null },
    tokens: Tokens,
  ): Promise<Row> {
    try {
      return await save(row.id, {
        externalId: who.externalId,
        username: who.username,
        ...(who.displayName === undefined ? {} : { displayName: who.displayName }),
        avatarUrl: who.avatarUrl,
        choices: null,
        isConnected: false,
        disconnectReason: null,
        ...tokenColumns(tokens),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('platformAccounts.alreadyConnected', named(row.platform));
      throw error;
    }
  }

  async function toggle(userId: string, id: string): Promise<PlatformAccountView> {
    const [row] = await db
      .update(platformAccounts)
      .set({ isActive: sql`not ${platformAccounts.isActive}`, updatedAt: now() })
      .where(and(eq(platformAccounts.id, id), eq(platformAccounts.userId, userId)))
      .returning();
    if (!row) throw notFound('platformAccounts.notFound');
    return toView(row);
  }

  /** Revokes the authorization at the platform (best effort: the account goes either way), then deletes it. */
  async function remove(userId: string, id: string, log?: (error: unknown) => void): Promise<void> {
    const row = await findRow(userId, id);
    try {
      const tokens = tokensOf(row);
      if (tokens) await publishers[row.platform].revoke({ app: appFor(row), tokens }, { timeoutMs: 15_000, maxRetries: 1 });
    } catch (error) {
      log?.(error);
    }
    await db.delete(platformAccounts).where(and(eq(platformAccounts.id, id), eq(platformAccounts.userId, userId)));
  }

  /**
   * Checks the authorization for real: refreshes the token when near its end, then who the account
   * is and what it may post. Only an authorization that no longer works (or secrets that can no
   * longer be read) disconnects the account: a rate limit or an outage at the platform says so and
   * leaves it as it was, so a blip does not stop the processes that publish to it.
   */
  async function test(userId: string, id: string, log?: (error: unknown) => void): Promise<PlatformTestResult> {
    const row = await findRow(userId, id);
    const publisher = publishers[row.platform];
    const result = (connected: boolean, testedAt: Date, message: Message, needsAuthorization = false) => ({
      is_connected: connected,
      last_tested: testedAt.toISOString(),
      needs_authorization: needsAuthorization,
      message,
    });
    if (row.accessTokenEnc === null) {
      const testedAt = now();
      await save(row.id, { isConnected: false, lastTested: testedAt });
      const waiting = row.choices !== null;
      return result(
        false,
        testedAt,
        waiting
          ? { key: 'platformAccounts.needsChoice' }
          : { key: 'platformAccounts.needsAuthorization', params: named(row.platform) },
        !waiting,
      );
    }
    try {
      const app = appFor(row);
      let tokens = tokensOf(row)!;
      const renewed = await publisher.refresh({ app, tokens }, INTERACTIVE);
      if (renewed) {
        tokens = renewed;
        await save(row.id, tokenColumns(renewed));
      }
      const profile = await publisher.profile({ accessToken: tokens.accessToken }, INTERACTIVE);
      const preflight = await publisher.preflight(
        { accessToken: tokens.accessToken, externalId: profile.externalId },
        INTERACTIVE,
      );
      const testedAt = now();
      await save(row.id, {
        username: profile.username,
        displayName: profile.displayName,
        avatarUrl: profile.avatarUrl,
        maxDurationSec: preflight.maxDurationSec,
        privacyLevels: preflight.privacyLevels,
        isConnected: true,
        disconnectReason: null,
        lastTested: testedAt,
      });
      const account = profile.username ? `@${profile.username}` : (profile.displayName ?? profile.externalId);
      return result(true, testedAt, { key: 'platformAccounts.connected', params: { ...named(row.platform), account } });
    } catch (error) {
      log?.(error);
      const testedAt = now();
      const message = failureMessage(row.platform, error);
      const lost = error instanceof SecretUnreadable || (error instanceof PlatformError && error.kind === 'reauthorize');
      await save(row.id, {
        lastTested: testedAt,
        ...(lost ? { isConnected: false, disconnectReason: message.key } : {}),
      });
      return result(lost ? false : row.isConnected, testedAt, message, lost);
    }
  }

  /**
   * The URL of our authorization window for this account, and the cookie that binds its state to
   * the browser asking (services/oauthStates.ts). TikTok's PKCE verifier is made here and kept
   * sealed with the state: the window's start derives the challenge, the callback sends the verifier.
   */
  async function authorizeUrl(
    user: { id: string; tokenVersion: number },
    id: string,
  ): Promise<{ url: string; setCookie: string }> {
    const row = await findRow(user.id, id);
    try {
      appFor(row);
    } catch (error) {
      if (error instanceof SecretUnreadable) throw unprocessable('platformAccounts.secretUnreadable');
      throw error;
    }
    const path = platformWindowPath(row.platform);
    const { state, setCookie } = await deps.oauthStates.issue({
      provider: row.platform,
      userId: user.id,
      tokenVersion: user.tokenVersion,
      subject: row.id,
      path,
      ...(row.platform === 'tiktok' ? { codeVerifier: tiktokCodeVerifier() } : {}),
    });
    return { url: `${deps.publicUrl}${path}?state=${encodeURIComponent(state)}`, setCookie };
  }

  const refusal = (error: unknown) => refusalMessage(error, REFUSALS);

  /** Where the window goes: the platform's consent page, when this browser asked for the state; otherwise the message to show. */
  async function consentRedirect(
    platform: Platform,
    state: string | undefined,
    cookieHeader: string | undefined,
  ): Promise<{ url: string } | { message: Message }> {
    let target: Awaited<ReturnType<OauthStates['check']>>;
    try {
      target = await deps.oauthStates.check(platform, state, cookieHeader);
    } catch (error) {
      return { message: refusal(error) };
    }
    const row = await findRow(target.userId, target.subject).catch(() => undefined);
    if (!row || row.platform !== platform) return { message: { key: 'platformAccounts.authStateInvalid' } };
    let app: AppCredentials;
    try {
      app = appFor(row);
    } catch (error) {
      return { message: failureMessage(platform, error) };
    }
    return {
      url: publishers[platform].authorizeUrl({
        app,
        state: state!,
        redirectUri: redirectUri(platform),
        ...(target.codeVerifier === undefined ? {} : { codeVerifier: target.codeVerifier }),
      }),
    };
  }

  const clearStateCookie = (platform: Platform, state: string | undefined) =>
    deps.oauthStates.clearCookie(state, platformWindowPath(platform));

  /**
   * The platform's redirect back: spend the state (this browser's, once), exchange the code, and
   * find who the account is. TikTok: the PKCE verifier goes with the code, then the profile.
   * Instagram: the long-lived user token, then the Pages with a linked Instagram account: one is
   * chosen at once, several wait for the owner's pick, none is a failure saying what to link.
   */
  async function completeAuthorization(
    platform: Platform,
    input: { state?: string; code?: string; error?: string; cookie?: string },
    log?: (error: unknown) => void,
  ): Promise<{ ok: boolean; accountId: string | null; message: Message }> {
    let target: Awaited<ReturnType<OauthStates['consume']>>;
    try {
      target = await deps.oauthStates.consume(platform, input.state, input.cookie);
    } catch (error) {
      return { ok: false, accountId: null, message: refusal(error) };
    }
    const row = await findRow(target.userId, target.subject).catch(() => undefined);
    if (!row || row.platform !== platform)
      return { ok: false, accountId: null, message: { key: 'platformAccounts.authStateInvalid' } };
    if (input.error || !input.code) {
      return { ok: false, accountId: row.id, message: { key: 'platformAccounts.authDenied', params: named(platform) } };
    }
    try {
      const app = appFor(row);
      const tokens = await publishers[platform].connect(
        {
          app,
          code: input.code,
          redirectUri: redirectUri(platform),
          ...(target.codeVerifier === undefined ? {} : { codeVerifier: target.codeVerifier }),
        },
        INTERACTIVE,
      );
      if (platform === 'tiktok') {
        const profile = await deps.tiktok.profile({ accessToken: tokens.accessToken }, INTERACTIVE);
        await keepAccount(row, profile, tokens);
      } else {
        const found = await deps.instagram.accounts({ accessToken: tokens.accessToken }, INTERACTIVE);
        if (found.length === 0) return { ok: false, accountId: row.id, message: { key: 'platformAccounts.noInstagramAccount' } };
        if (found.length > 1) {
          const choices: PlatformAccountChoice[] = found.map((c) => ({
            externalId: c.igUserId,
            username: c.username,
            pageId: c.pageId,
            pageName: c.pageName,
            pictureUrl: c.pictureUrl,
            pageAccessTokenEnc: secrets.seal(c.pageAccessToken),
          }));
          // The user token waits beside the choices (where a chosen account keeps it: chosenTokens).
          await save(row.id, {
            choices,
            externalId: null,
            accessTokenEnc: null,
            accessExpiresAt: null,
            refreshTokenEnc: secrets.seal(tokens.accessToken),
            refreshExpiresAt: tokens.accessExpiresAt,
            scopes: tokens.scopes,
            isConnected: false,
            disconnectReason: null,
          });
          return { ok: true, accountId: row.id, message: { key: 'platformAccounts.chooseAccount' } };
        }
        const only = found[0]!;
        await keepAccount(
          row,
          { externalId: only.igUserId, username: only.username, avatarUrl: only.pictureUrl },
          deps.instagram.chosenTokens(tokens, only),
        );
      }
    } catch (error) {
      log?.(error);
      return { ok: false, accountId: row.id, message: failureMessage(platform, error) };
    }
    const result = await test(target.userId, row.id, log);
    return { ok: result.is_connected, accountId: row.id, message: result.message };
  }

  /**
   * The tokens and app a run publishes with. A TikTok access token that ends within the
   * publisher's margin (10 minutes) is refreshed first, one refresh at a time per account: the
   * row is locked for the refresh, and a caller that waited reads the tokens the first one stored
   * (TikTok rotates refresh tokens: a second refresh with the old one would fail). Undefined when
   * the account is not the user's, is switched off, or is not authorized.
   */
  async function credentialsFor(userId: string, accountId: string): Promise<PlatformCredentials | undefined> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(platformAccounts)
        .where(and(eq(platformAccounts.id, accountId), eq(platformAccounts.userId, userId)))
        .for('update');
      if (!row || !row.isActive || row.externalId === null) return undefined;
      let tokens: Tokens | undefined;
      let app: AppCredentials;
      try {
        tokens = tokensOf(row);
        app = appFor(row);
      } catch {
        return undefined;
      }
      if (!tokens) return undefined;
      const renewed = await publishers[row.platform].refresh({ app, tokens }, UNDER_LOCK);
      if (renewed) {
        tokens = renewed;
        await tx
          .update(platformAccounts)
          .set({ ...tokenColumns(renewed), updatedAt: now() })
          .where(eq(platformAccounts.id, row.id));
      }
      return { accountId: row.id, platform: row.platform, externalId: row.externalId, app, tokens, privateOnly: row.privateOnly };
    });
  }

  return {
    list,
    get,
    create,
    update,
    toggle,
    remove,
    test,
    authorizeUrl,
    consentRedirect,
    clearStateCookie,
    completeAuthorization,
    credentialsFor,
    redirectUri,
  };
}

export type PlatformAccountService = ReturnType<typeof createPlatformAccountService>;
