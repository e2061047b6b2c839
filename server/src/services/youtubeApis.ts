import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { processes, youtubeApis } from '../db/schema';
import { notFound, unprocessable } from '../errors';
import type { Message, MessageKey } from '../messages';
import { maskSecret, type SecretBox } from '../lib/secrets';
import { YoutubeError, type ChannelInfo, type YoutubeProvider } from '../providers/youtube';
import type { ChannelService } from './channels';
import { refusalMessage, type OauthStateRefusal, type OauthStates } from './oauthStates';
import type { Page } from './paging';
import type { Shape } from '../contracts/common';
import type { CreateYoutubeApiInput, UpdateYoutubeApiInput, YoutubeApiDto, youtubeApiTestSchema } from '../contracts/youtubeApis';

/** The test's answer with its message untranslated (the route makes it `detail`). */
export type TestResult = Omit<Shape<typeof youtubeApiTestSchema>, 'detail'> & { message: Message };

type Row = typeof youtubeApis.$inferSelect;

/** The provider's name in oauth_states, and the path of the authorization window (the cookie's path). */
const OAUTH_PROVIDER = 'youtube';
export const AUTH_WINDOW_PATH = '/api/v1/youtube-auth';

const REFUSALS: Record<OauthStateRefusal, MessageKey> = {
  invalid: 'youtubeApis.authStateInvalid',
  used: 'youtubeApis.authStateUsed',
  other_browser: 'youtubeApis.authOtherBrowser',
};

const refusal = (error: unknown) => refusalMessage(error, REFUSALS);

const blank = (value: string | null | undefined) => value === undefined || value === null || value.trim() === '';

export interface YoutubeApiDeps {
  db: Db;
  now: () => Date;
  secrets: SecretBox;
  youtube: YoutubeProvider;
  channels: ChannelService;
  oauthStates: OauthStates;
  publicUrl: string;
}

/** A stored secret sealed under another APP_SECRET: the configuration needs it typed again. */
class SecretUnreadable extends Error {}

export function createYoutubeApiService(deps: YoutubeApiDeps) {
  const { db, now, secrets } = deps;
  const redirectUri = `${deps.publicUrl}${AUTH_WINDOW_PATH}/callback`;

  /** Active processes per configuration, for these ids. */
  async function activeCounts(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .select({ id: processes.youtubeApiId, n: count() })
      .from(processes)
      .where(and(inArray(processes.youtubeApiId, ids), eq(processes.isActive, true)))
      .groupBy(processes.youtubeApiId);
    return new Map(rows.map((row) => [row.id ?? '', row.n]));
  }

  async function answer(row: Row): Promise<YoutubeApiDto> {
    return toDto(row, (await activeCounts([row.id])).get(row.id) ?? 0);
  }

  function toDto(row: Row, activeProcessCount: number): YoutubeApiDto {
    const apiKey = secrets.tryOpen(row.apiKeyEnc) ?? null;
    const clientSecret = secrets.tryOpen(row.clientSecretEnc);
    const unreadable =
      clientSecret === undefined ||
      (row.apiKeyEnc !== null && apiKey === null) ||
      (row.refreshTokenEnc !== null && secrets.tryOpen(row.refreshTokenEnc) === undefined);
    return {
      id: row.id,
      name: row.name,
      channel_id: row.channelId,
      client_id: row.clientId,
      has_client_secret: clientSecret !== undefined,
      client_secret_masked: clientSecret === undefined ? '' : maskSecret(clientSecret),
      secret_unreadable: unreadable,
      has_api_key: apiKey !== null,
      api_key_masked: apiKey === null ? null : maskSecret(apiKey),
      has_refresh_token: row.refreshTokenEnc !== null,
      is_active: row.isActive,
      is_enabled: row.isEnabled,
      is_connected: row.isConnected,
      last_tested: row.lastTested?.toISOString() ?? null,
      active_process_count: activeProcessCount,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  async function findRow(userId: string, id: string): Promise<Row> {
    const [row] = await db
      .select()
      .from(youtubeApis)
      .where(and(eq(youtubeApis.id, id), eq(youtubeApis.userId, userId)));
    if (!row) throw notFound('youtubeApis.notFound');
    return row;
  }

  async function list(userId: string, page: Page & { enabled_only?: boolean }) {
    const where = page.enabled_only
      ? and(eq(youtubeApis.userId, userId), eq(youtubeApis.isEnabled, true))
      : eq(youtubeApis.userId, userId);
    const rows = await db
      .select()
      .from(youtubeApis)
      .where(where)
      .orderBy(asc(youtubeApis.createdAt), asc(youtubeApis.id))
      .offset(page.skip)
      .limit(page.limit);
    const [total] = await db.select({ n: count() }).from(youtubeApis).where(where);
    const counts = await activeCounts(rows.map((row) => row.id));
    return {
      youtube_apis: rows.map((row) => toDto(row, counts.get(row.id) ?? 0)),
      total: total?.n ?? 0,
      oauth_redirect_uri: redirectUri,
    };
  }

  async function get(userId: string, id: string): Promise<YoutubeApiDto> {
    return answer(await findRow(userId, id));
  }

  function required(input: { name?: string; channel_id?: string; client_id?: string; client_secret?: string | null }) {
    const name = input.name?.trim();
    const channelId = input.channel_id?.trim();
    const clientId = input.client_id?.trim();
    const clientSecret = input.client_secret?.trim();
    if (!name || !channelId || !clientId || !clientSecret) throw unprocessable('youtubeApis.fieldsRequired');
    return { name, channelId, clientId, clientSecret };
  }

  /** The first configuration a user creates becomes the active one. */
  async function create(userId: string, input: CreateYoutubeApiInput): Promise<YoutubeApiDto> {
    const fields = required(input);
    const row = await db.transaction(async (tx) => {
      // Serialize concurrent creations of one user, so exactly one can become the first.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${userId}))`);
      const [existing] = await tx.select({ n: count() }).from(youtubeApis).where(eq(youtubeApis.userId, userId));
      const [inserted] = await tx
        .insert(youtubeApis)
        .values({
          userId,
          name: fields.name,
          channelId: fields.channelId,
          clientId: fields.clientId,
          clientSecretEnc: secrets.seal(fields.clientSecret),
          apiKeyEnc: blank(input.api_key) ? null : secrets.seal(input.api_key!.trim()),
          refreshTokenEnc: blank(input.refresh_token) ? null : secrets.seal(input.refresh_token!.trim()),
          isActive: (existing?.n ?? 0) === 0,
        })
        .returning();
      return inserted!;
    });
    return answer(row);
  }

  async function update(userId: string, id: string, input: UpdateYoutubeApiInput): Promise<YoutubeApiDto> {
    const current = await findRow(userId, id);
    const changes: Partial<typeof youtubeApis.$inferInsert> = { updatedAt: now() };
    for (const [field, column] of [
      ['name', 'name'],
      ['channel_id', 'channelId'],
      ['client_id', 'clientId'],
    ] as const) {
      const value = input[field];
      if (value === undefined || value === null) continue;
      if (!value.trim()) throw unprocessable('youtubeApis.fieldsRequired');
      changes[column] = value.trim();
    }
    let credentialsChanged = changes.clientId !== undefined && changes.clientId !== current.clientId;
    if (!blank(input.client_secret)) {
      changes.clientSecretEnc = secrets.seal(input.client_secret!.trim());
      credentialsChanged = true;
    }
    if (!blank(input.refresh_token)) {
      changes.refreshTokenEnc = secrets.seal(input.refresh_token!.trim());
      credentialsChanged = true;
    }
    if (input.clear_api_key) changes.apiKeyEnc = null;
    else if (!blank(input.api_key)) changes.apiKeyEnc = secrets.seal(input.api_key!.trim());
    if (credentialsChanged || (changes.channelId !== undefined && changes.channelId !== current.channelId)) {
      changes.isConnected = false;
    }
    const [row] = await db
      .update(youtubeApis)
      .set(changes)
      .where(and(eq(youtubeApis.id, id), eq(youtubeApis.userId, userId)))
      .returning();
    if (!row) throw notFound('youtubeApis.notFound');
    return answer(row);
  }

  async function toggle(userId: string, id: string): Promise<YoutubeApiDto> {
    const [row] = await db
      .update(youtubeApis)
      .set({ isEnabled: sql`not ${youtubeApis.isEnabled}`, updatedAt: now() })
      .where(and(eq(youtubeApis.id, id), eq(youtubeApis.userId, userId)))
      .returning();
    if (!row) throw notFound('youtubeApis.notFound');
    return answer(row);
  }

  /** Makes this configuration the user's only active one. */
  async function setActive(userId: string, id: string): Promise<YoutubeApiDto> {
    await findRow(userId, id);
    const row = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${userId}))`);
      await tx
        .update(youtubeApis)
        .set({ isActive: false, updatedAt: now() })
        .where(and(eq(youtubeApis.userId, userId), eq(youtubeApis.isActive, true)));
      const [updated] = await tx
        .update(youtubeApis)
        .set({ isActive: true, updatedAt: now() })
        .where(and(eq(youtubeApis.id, id), eq(youtubeApis.userId, userId)))
        .returning();
      return updated;
    });
    if (!row) throw notFound('youtubeApis.notFound');
    return answer(row);
  }

  /** Deletes; when it was the active one, the oldest remaining becomes active. */
  async function remove(userId: string, id: string): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${userId}))`);
      const [deleted] = await tx
        .delete(youtubeApis)
        .where(and(eq(youtubeApis.id, id), eq(youtubeApis.userId, userId)))
        .returning({ isActive: youtubeApis.isActive });
      if (!deleted) throw notFound('youtubeApis.notFound');
      if (!deleted.isActive) return;
      const [next] = await tx
        .select({ id: youtubeApis.id })
        .from(youtubeApis)
        .where(eq(youtubeApis.userId, userId))
        .orderBy(asc(youtubeApis.createdAt), asc(youtubeApis.id))
        .limit(1);
      if (next) await tx.update(youtubeApis).set({ isActive: true, updatedAt: now() }).where(eq(youtubeApis.id, next.id));
    });
  }

  function failureMessage(error: unknown): Message {
    if (error instanceof SecretUnreadable) return { key: 'youtubeApis.secretUnreadable' };
    const kind = error instanceof YoutubeError ? error.kind : 'other';
    switch (kind) {
      case 'invalid_grant':
        return { key: 'youtubeApis.grantRevoked' };
      case 'invalid_client':
        return { key: 'youtubeApis.invalidClient' };
      case 'quota':
        return { key: 'youtubeApis.quota' };
      case 'network':
        return { key: 'youtubeApis.unreachable' };
      default:
        return { key: 'youtubeApis.connectionFailed' };
    }
  }

  async function recordTest(id: string, connected: boolean): Promise<Date> {
    const testedAt = now();
    await db.update(youtubeApis).set({ isConnected: connected, lastTested: testedAt }).where(eq(youtubeApis.id, id));
    return testedAt;
  }

  /**
   * Tests the stored credentials for real: a fresh access token from the refresh token, then
   * channels.list(mine=true). Connected only when the authorized account owns the configured
   * channel; its statistics then refresh the user's channel record.
   */
  async function test(userId: string, id: string, log?: (error: unknown) => void): Promise<TestResult> {
    const row = await findRow(userId, id);
    if (!row.refreshTokenEnc) {
      const testedAt = await recordTest(row.id, false);
      return {
        is_connected: false,
        last_tested: testedAt.toISOString(),
        needs_authorization: true,
        message: { key: 'youtubeApis.needsAuthorization' },
        channel: null,
      };
    }
    let channels: ChannelInfo[];
    try {
      const clientSecret = secrets.tryOpen(row.clientSecretEnc);
      const refreshToken = secrets.tryOpen(row.refreshTokenEnc);
      if (clientSecret === undefined || refreshToken === undefined) throw new SecretUnreadable();
      channels = await deps.youtube.myChannels({ clientId: row.clientId, clientSecret, refreshToken });
    } catch (error) {
      log?.(error);
      const testedAt = await recordTest(row.id, false);
      return {
        is_connected: false,
        last_tested: testedAt.toISOString(),
        needs_authorization: error instanceof YoutubeError && error.kind === 'invalid_grant',
        message: failureMessage(error),
        channel: null,
      };
    }
    const channel = channels.find((c) => c.id === row.channelId);
    const testedAt = await recordTest(row.id, channel !== undefined);
    if (!channel) {
      return {
        is_connected: false,
        last_tested: testedAt.toISOString(),
        needs_authorization: false,
        message: { key: 'youtubeApis.channelMismatch', params: { channelId: row.channelId } },
        channel: null,
      };
    }
    await deps.channels.recordStats(userId, channel.id, {
      subscriberCount: channel.subscriberCount,
      videoCount: channel.videoCount,
      viewCount: channel.viewCount,
    });
    return {
      is_connected: true,
      last_tested: testedAt.toISOString(),
      needs_authorization: false,
      message: { key: 'youtubeApis.connected', params: { title: channel.title } },
      channel: {
        id: channel.id,
        title: channel.title,
        subscriber_count: channel.subscriberCount,
        video_count: channel.videoCount,
        view_count: channel.viewCount,
      },
    };
  }

  /**
   * The URL of our authorization window for this configuration, and the cookie that binds its
   * state to the browser asking (services/oauthStates.ts): the route sets it on the answer.
   */
  async function authorizeUrl(
    user: { id: string; tokenVersion: number },
    id: string,
  ): Promise<{ url: string; setCookie: string }> {
    await findRow(user.id, id);
    const { state, setCookie } = await deps.oauthStates.issue({
      provider: OAUTH_PROVIDER,
      userId: user.id,
      tokenVersion: user.tokenVersion,
      subject: id,
      path: AUTH_WINDOW_PATH,
    });
    return { url: `${deps.publicUrl}${AUTH_WINDOW_PATH}?state=${encodeURIComponent(state)}`, setCookie };
  }

  /**
   * Where the authorization window goes: Google's consent screen for this configuration's client,
   * when this browser asked for the state and it is still pending; otherwise the message to show.
   */
  async function consentRedirect(
    state: string | undefined,
    cookieHeader: string | undefined,
  ): Promise<{ url: string } | { message: Message }> {
    let target: { userId: string; subject: string };
    try {
      target = await deps.oauthStates.check(OAUTH_PROVIDER, state, cookieHeader);
    } catch (error) {
      return { message: refusal(error) };
    }
    const row = await findRow(target.userId, target.subject).catch(() => undefined);
    if (!row) return { message: { key: 'youtubeApis.authStateInvalid' } };
    return { url: deps.youtube.consentUrl({ clientId: row.clientId, redirectUri, state: state! }) };
  }

  /** The Set-Cookie header that removes the state's cookie once the window is done with it. */
  const clearStateCookie = (state: string | undefined) => deps.oauthStates.clearCookie(state, AUTH_WINDOW_PATH);

  /**
   * Google's redirect back: spend the state (this browser's, once), exchange the code, keep the
   * refresh token, then test the connection. A refused state stores nothing.
   */
  async function completeAuthorization(
    input: { state?: string; code?: string; error?: string; cookie?: string },
    log?: (error: unknown) => void,
  ): Promise<{ ok: boolean; configId: string | null; message: Message }> {
    let target: { userId: string; configId: string };
    try {
      const spent = await deps.oauthStates.consume(OAUTH_PROVIDER, input.state, input.cookie);
      target = { userId: spent.userId, configId: spent.subject };
    } catch (error) {
      return { ok: false, configId: null, message: refusal(error) };
    }
    if (input.error || !input.code) return { ok: false, configId: target.configId, message: { key: 'youtubeApis.authDenied' } };
    let row: Row;
    try {
      row = await findRow(target.userId, target.configId);
    } catch {
      return { ok: false, configId: null, message: { key: 'youtubeApis.authStateInvalid' } };
    }
    let refreshToken: string | null;
    try {
      const clientSecret = secrets.tryOpen(row.clientSecretEnc);
      if (clientSecret === undefined) throw new SecretUnreadable();
      ({ refreshToken } = await deps.youtube.exchangeCode({
        clientId: row.clientId,
        clientSecret,
        redirectUri,
        code: input.code,
      }));
    } catch (error) {
      log?.(error);
      return { ok: false, configId: row.id, message: failureMessage(error) };
    }
    if (!refreshToken) return { ok: false, configId: row.id, message: { key: 'youtubeApis.noRefreshToken' } };
    await db
      .update(youtubeApis)
      .set({ refreshTokenEnc: secrets.seal(refreshToken), isConnected: false, updatedAt: now() })
      .where(eq(youtubeApis.id, row.id));
    const result = await test(target.userId, row.id, log);
    return { ok: result.is_connected, configId: row.id, message: result.message };
  }

  // Every run reads them (step 1, then the upload): built once, prepared by name (issue 20).
  const credentialRows = db
    .select()
    .from(youtubeApis)
    .where(eq(youtubeApis.userId, sql.placeholder('userId')))
    .prepare('youtube_apis_by_user');

  /**
   * The OAuth credentials the engine and the history act with. `exact` (a run's upload): only the
   * named configuration, and only while enabled — a switched-off or deleted one is never replaced
   * by another, which could upload to another channel. Otherwise (managing videos already on
   * YouTube) the named one, else the user's configuration for the platform channel, else the
   * active one. Undefined when none is authorized (no refresh token) or its secrets cannot be read.
   */
  async function credentialsFor(
    userId: string,
    choice: { youtubeApiId?: string | null; platformChannelId?: string | null; exact?: boolean },
  ): Promise<{ clientId: string; clientSecret: string; refreshToken: string; youtubeApiId: string } | undefined> {
    const rows = await credentialRows.execute({ userId });
    const row = choice.exact
      ? rows.find((r) => r.id === choice.youtubeApiId && r.isEnabled)
      : (rows.find((r) => r.id === choice.youtubeApiId) ??
        rows.find((r) => choice.platformChannelId && r.channelId === choice.platformChannelId && r.refreshTokenEnc) ??
        rows.find((r) => r.isActive && r.refreshTokenEnc));
    if (!row?.refreshTokenEnc) return undefined;
    try {
      return {
        clientId: row.clientId,
        clientSecret: secrets.open(row.clientSecretEnc),
        refreshToken: secrets.open(row.refreshTokenEnc),
        youtubeApiId: row.id,
      };
    } catch {
      return undefined;
    }
  }

  return {
    list,
    get,
    create,
    update,
    toggle,
    setActive,
    remove,
    test,
    authorizeUrl,
    consentRedirect,
    clearStateCookie,
    completeAuthorization,
    redirectUri,
    credentialsFor,
  };
}

export type YoutubeApiService = ReturnType<typeof createYoutubeApiService>;
