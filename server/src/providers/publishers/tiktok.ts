import crypto from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fetch, type RequestInit } from 'undici';
import {
  MAX_ERROR_TEXT_BYTES,
  answerTooSlow,
  exchangeDeadline,
  readCapped,
  readPrefix,
  scrubSecret,
  withoutTags,
} from '../httpBodies';
import { ProviderError } from '../providerError';
import { sharedProxyDispatcher } from '../proxies';
import { MAX_RETRY_AFTER_MS, backoffMs, connectionFailure, retryAfterMs, timeoutFailure } from '../retry';
import {
  PlatformError,
  type AccountProfile,
  type ExchangeOptions,
  type LedgerEntry,
  type PlatformEndpoints,
  type PlatformFailure,
  type PostStats,
  type Preflight,
  type PublishOutcome,
  type Publisher,
  type Tokens,
} from './contract';

/**
 * TikTok's publisher: Login Kit (OAuth 2.0 with PKCE) and the Content Posting API's Direct Post
 * with FILE_UPLOAD, over plain HTTP (TikTok has no official Node SDK).
 *
 * - Consent asks `user.info.basic,video.publish`, with a PKCE challenge that is the LOWERCASE HEX
 *   SHA-256 of the verifier (TikTok's own SDK does so; RFC 7636's base64url passes the consent page
 *   and fails at the token exchange).
 * - Every answer is read bounded (JSON ≤ 1 MiB, error text ≤ 8 KiB) under a deadline that covers
 *   the body; redirects are never followed (a TikTok API does not redirect; a gateway that does
 *   is not sent the token again).
 * - Retries with backoff only where repeating is harmless: network failures, 5xx and
 *   rate_limit_exceeded on reads and on the refresh, and chunk PUTs (TikTok
 *   says to "retry submitting this chunk"; a chunk it already holds answers 416, then status
 *   says how far it got). `video/init` is retried only on an answered 429 or 5xx: when its answer
 *   is lost, the caller gets `in_doubt` and calls `publish` again, which inits anew. That is safe
 *   because TikTok posts only once every byte of an upload arrived (a publish_id without bytes
 *   never posts and its upload URL dies in an hour).
 * - `publish` follows the ledger: the publish_id and upload URL are written before the first byte,
 *   each chunk TikTok confirmed after it, `uploaded` at the 201; a resumed call checks the stored
 *   publish_id's status before anything else and never inits again once a 201 was recorded.
 */

export const TIKTOK_SCOPES = ['user.info.basic', 'video.publish'];
/** The default upload host; tests pass the fake's origin. */
export const TIKTOK_UPLOAD_ORIGINS = ['https://open-upload.tiktokapis.com'];
/** What a successful JSON answer may weigh. */
export const TIKTOK_MAX_JSON_BYTES = 1024 * 1024;
/** `title` is at most 2200 UTF-16 code units (JavaScript's `length`). */
export const TIKTOK_TITLE_MAX = 2200;
/** TikTok's largest video. */
export const TIKTOK_MAX_VIDEO_BYTES = 4 * 1024 ** 3;
/**
 * Chunk bounds (media transfer guide). Its "MB" is ambiguous (its 4 MB example is 4 MiB; others
 * read 10^6): each bound takes the stricter reading, so a plan holds under both.
 */
export const TIKTOK_MIN_CHUNK_BYTES = 5 * 2 ** 20;
export const TIKTOK_MAX_CHUNK_BYTES = 64 * 10 ** 6;
export const TIKTOK_MAX_CHUNKS = 1000;
/**
 * The most sent in one request by default: a file up to 64 MB (most Shorts) goes in one PUT. A
 * broken chunk is sent again whole: on a slow link, pass a smaller `chunkBytes` (and a time-out
 * that fits a chunk).
 */
export const TIKTOK_DEFAULT_CHUNK_BYTES = TIKTOK_MAX_CHUNK_BYTES;
/** An access token that ends within this is refreshed. */
const REFRESH_MARGIN_MS = 10 * 60_000;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 5;
const DEFAULT_BACKOFF_MS = 1000;
/** TikTok's limits are per minute: a rate-limited call waits at least this long (tests lower it). */
const DEFAULT_RATE_LIMIT_WAIT_MS = 10_000;
const USER_FIELDS = 'open_id,union_id,avatar_url,display_name';

export interface TiktokPublisherOptions {
  /** Origins the upload URL TikTok answers may be on (default open-upload.tiktokapis.com, https). */
  uploadOrigins?: string[];
  /** Bytes per chunk when a file is split (clamped to TikTok's bounds). Default 64·10^6. */
  chunkBytes?: number;
  /** Status checks after the upload before answering `processing`. Default 12. */
  statusPolls?: number;
  /** The first wait between status checks; each next one doubles, up to 60 s. Default 5 s. */
  statusIntervalMs?: number;
  /** The least a rate-limited call waits before its retry. Default 10 s. */
  rateLimitWaitMs?: number;
  /** The clock (token expiry). */
  now?: () => Date;
}

/** One chunk of the plan: bytes [first, last], inclusive. */
export interface ChunkPlan {
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
  chunks: Array<{ first: number; last: number }>;
}

/**
 * How a file of `size` bytes is sent (media transfer guide): whole when it is under 5 MB, or up to
 * 64 MB when it holds fewer than two chunks of `chunkBytes`; else chunks of `chunkBytes` (at least size/1000, so never more than
 * 1000 chunks, and at most half the file over 64 MB, so such a file always has two),
 * count = floor(size / chunk), the last chunk taking the trailing bytes (less than two chunks,
 * so under 128 MB).
 */
export function tiktokChunkPlan(size: number, chunkBytes = TIKTOK_DEFAULT_CHUNK_BYTES): ChunkPlan {
  if (!Number.isSafeInteger(size) || size <= 0 || size > TIKTOK_MAX_VIDEO_BYTES) {
    throw new PlatformError('tiktok', 'media_rejected', `TikTok takes videos of 1 byte to 4 GB (this one has ${size})`);
  }
  let chunk = Math.min(
    TIKTOK_MAX_CHUNK_BYTES,
    Math.max(TIKTOK_MIN_CHUNK_BYTES, Math.floor(chunkBytes), Math.ceil(size / TIKTOK_MAX_CHUNKS)),
  );
  if (size < TIKTOK_MIN_CHUNK_BYTES || (size <= TIKTOK_MAX_CHUNK_BYTES && size < 2 * chunk)) {
    return { videoSize: size, chunkSize: size, totalChunkCount: 1, chunks: [{ first: 0, last: size - 1 }] };
  }
  if (size > TIKTOK_MAX_CHUNK_BYTES) chunk = Math.min(chunk, Math.floor(size / 2));
  const count = Math.floor(size / chunk);
  const chunks = Array.from({ length: count }, (_, i) => ({
    first: i * chunk,
    last: i === count - 1 ? size - 1 : (i + 1) * chunk - 1,
  }));
  return { videoSize: size, chunkSize: chunk, totalChunkCount: count, chunks };
}

/** PKCE: TikTok's challenge is the lowercase hex SHA-256 of the verifier (not RFC 7636's base64url). */
export function tiktokCodeChallenge(verifier: string): string {
  return crypto.createHash('sha256').update(verifier, 'ascii').digest('hex');
}

/** A new PKCE verifier: 64 characters of [A-Za-z0-9-._~]. */
export function tiktokCodeVerifier(): string {
  return crypto.randomBytes(48).toString('base64url');
}

/** `text` cut to at most `max` UTF-16 units without splitting a surrogate pair. */
function cutUtf16(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/**
 * A TikTok caption (`title`): the text, then the hashtags that fit whole, in at most 2200 UTF-16
 * units (what TikTok counts). A text too long is cut with an ellipsis, never inside an emoji.
 */
export function tiktokCaption(input: { text: string; hashtags?: string[] }): string {
  const tags = (input.hashtags ?? [])
    .map((tag) => tag.replace(/^#+/, '').replace(/[\s#]+/g, ''))
    .filter(Boolean)
    .map((tag) => `#${tag}`);
  const text = input.text.trim();
  const body = text.length > TIKTOK_TITLE_MAX ? `${cutUtf16(text, TIKTOK_TITLE_MAX - 1)}…` : text;
  let caption = body;
  for (const tag of tags) {
    const next = caption ? `${caption}${caption === body ? '\n\n' : ' '}${tag}` : tag;
    if (next.length > TIKTOK_TITLE_MAX) break;
    caption = next;
  }
  return caption;
}

/** What each v2 `error.code` means for the caller (error handling, direct post and status pages). */
const CODE_KINDS: Record<string, PlatformFailure> = {
  access_token_invalid: 'reauthorize',
  scope_not_authorized: 'reauthorize',
  rate_limit_exceeded: 'rate_limit',
  spam_risk_too_many_posts: 'daily_limit',
  reached_active_user_cap: 'daily_limit',
  spam_risk_user_banned_from_posting: 'restricted',
  spam_risk_too_many_pending_share: 'restricted',
  spam_risk: 'restricted',
  spam_risk_text: 'restricted',
  unaudited_client_can_only_post_to_private_accounts: 'private_only',
  invalid_file_upload: 'media_rejected',
  file_format_check_failed: 'media_rejected',
  duration_check_failed: 'media_rejected',
  frame_rate_check_failed: 'media_rejected',
  picture_size_check_failed: 'media_rejected',
  auth_removed: 'reauthorize',
  internal_error: 'unreachable',
  internal: 'unreachable',
  // OAuth errors (`{error, error_description}`).
  invalid_grant: 'reauthorize',
  access_denied: 'reauthorize',
  invalid_scope: 'reauthorize',
  server_error: 'unreachable',
  temporarily_unavailable: 'unreachable',
};

/**
 * The PlatformError for an answer: the v2 envelope's `error.code` (even in a 200: "any code other
 * than ok" is a failure), the OAuth endpoints' `{error, error_description}`, or, for a body that
 * is neither (a gateway's HTML page), the status alone. Null for a success.
 */
export function classifyTiktokAnswer(status: number, body: unknown, secret?: string): PlatformError | null {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
  let code: string | undefined;
  let message = '';
  const error = record?.error;
  if (typeof error === 'object' && error !== null) {
    const e = error as { code?: unknown; message?: unknown };
    code = typeof e.code === 'string' ? e.code : undefined;
    message = typeof e.message === 'string' ? e.message : '';
  } else if (typeof error === 'string') {
    code = error;
    message = typeof record?.error_description === 'string' ? record.error_description : '';
  }
  if (status < 300 && (code === undefined || code === 'ok')) return null;
  const kind: PlatformFailure =
    (code ? CODE_KINDS[code] : undefined) ??
    (status === 401 ? 'reauthorize' : status === 429 ? 'rate_limit' : status >= 500 ? 'unreachable' : 'other');
  const reason = scrubSecret(message.replace(/\s+/g, ' ').trim(), secret).slice(0, 200);
  const text = `TikTok answered ${status}${code ? ` ${code}` : ''}${reason ? `: ${reason}` : ''}`;
  return new PlatformError('tiktok', kind, text, status, code);
}

/** The PlatformError of a status/fetch `fail_reason`. */
export function classifyFailReason(reason: string | undefined): PlatformError {
  const code = reason || 'unknown';
  const kind = CODE_KINDS[code] ?? (code.startsWith('spam_risk') ? 'restricted' : 'other');
  return new PlatformError('tiktok', kind, `TikTok did not post the video (${code})`, undefined, code);
}

/**
 * `publicaly_available_post_id` is a list of int64, past JavaScript's exact integers: its numbers
 * are quoted before parsing so that no digit is lost.
 */
function quotePostIds(text: string): string {
  return text.replace(/("publicaly_available_post_id"\s*:\s*\[)([^\]]{0,2000})\]/, (_m, head: string, list: string) => {
    const quoted = list.split(',').map((item) => (/^\s*-?\d+\s*$/.test(item) ? `"${item.trim()}"` : item));
    return `${head}${quoted.join(',')}]`;
  });
}

/** The wait a rate-limited answer asked for (`Retry-After`), which TikTok does not document but may send. */
const askedWaits = new WeakMap<PlatformError, number>();

const isRetryable = (error: PlatformError) => error.kind === 'unreachable' || error.kind === 'rate_limit';

interface Call {
  method: 'GET' | 'POST';
  url: string;
  token?: string;
  form?: Record<string, string>;
  json?: unknown;
  /** A secret to scrub from any text kept (the client secret, the token). */
  secret?: string;
  /** `no`: never repeated after a lost answer (init); answered 429/5xx are still retried. */
  repeatable: boolean;
}

/** A ProviderError from httpBodies (too large, too slow) as a PlatformError. */
function fromProviderError(error: unknown): unknown {
  if (!(error instanceof ProviderError)) return error;
  return new PlatformError('tiktok', error.kind === 'too_large' ? 'too_large' : 'unreachable', `TikTok: ${error.message}`);
}

export function createTiktokPublisher(endpoints: PlatformEndpoints, opts: TiktokPublisherOptions = {}): Publisher {
  const api = (path: string) => new URL(path, endpoints.apiUrl).href;
  const uploadOrigins = new Set(opts.uploadOrigins ?? TIKTOK_UPLOAD_ORIGINS);
  const now = opts.now ?? (() => new Date());
  const statusPolls = opts.statusPolls ?? 12;
  const statusIntervalMs = opts.statusIntervalMs ?? 5000;
  const rateLimitWait = opts.rateLimitWaitMs ?? DEFAULT_RATE_LIMIT_WAIT_MS;

  /** One request, answered as parsed JSON; retried per `call.repeatable` and `options`. */
  async function request(call: Call, options: ExchangeOptions = {}): Promise<Record<string, unknown>> {
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    const dispatcher = sharedProxyDispatcher(options.proxyUrl);
    for (let attempt = 0; ; attempt += 1) {
      let failure: PlatformError;
      let lost = false;
      try {
        return await once(call, options, dispatcher);
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        failure = error;
        lost = error.status === undefined && error.kind === 'unreachable';
      }
      if (!isRetryable(failure) || attempt >= maxRetries) throw failure;
      if (lost && !call.repeatable) {
        throw new PlatformError('tiktok', 'in_doubt', `${failure.message}; the request may have been carried out`);
      }
      const base = backoffMs(attempt, options.backoffBaseMs ?? DEFAULT_BACKOFF_MS);
      // TikTok's windows are a minute long: a rate limit waits at least `rateLimitWaitMs`, or what the answer asked.
      const asked = askedWaits.get(failure);
      const wait =
        asked !== undefined
          ? Math.min(asked, MAX_RETRY_AFTER_MS)
          : failure.kind === 'rate_limit'
            ? Math.max(base, rateLimitWait)
            : base;
      await sleep(wait, undefined, { signal: options.signal });
    }
  }

  async function once(call: Call, options: ExchangeOptions, dispatcher: ReturnType<typeof sharedProxyDispatcher>) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = exchangeDeadline(timeoutMs, options.signal);
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    if (call.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(call.form).toString();
    } else if (call.method === 'POST') {
      headers['content-type'] = 'application/json; charset=UTF-8';
      body = call.json === undefined ? '' : JSON.stringify(call.json);
    }
    const init: RequestInit = { method: call.method, headers, body, redirect: 'manual', signal: deadline.signal };
    if (dispatcher) init.dispatcher = dispatcher;
    try {
      let response;
      try {
        response = await fetch(call.url, init);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (deadline.signal.aborted) throw fromProviderError(timeoutFailure(timeoutMs));
        const network = connectionFailure(error);
        if (!network) throw error;
        throw new PlatformError('tiktok', 'unreachable', `TikTok: ${network.error.message}`);
      }
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => undefined);
        throw new PlatformError(
          'tiktok',
          'other',
          `TikTok answered a redirect (${response.status}), not followed`,
          response.status,
        );
      }
      const ok = response.status < 300;
      const bytes = ok
        ? await readCapped(response, TIKTOK_MAX_JSON_BYTES, options.signal).catch((e: unknown) => {
            throw fromProviderError(e);
          })
        : await readPrefix(response, MAX_ERROR_TEXT_BYTES);
      if (deadline.signal.aborted && !options.signal?.aborted) throw fromProviderError(answerTooSlow());
      const text = bytes.toString('utf8');
      let parsed: unknown;
      try {
        parsed = JSON.parse(quotePostIds(text));
      } catch {
        const page = withoutTags(text).replace(/\s+/g, ' ').trim().slice(0, 120);
        const kind: PlatformFailure =
          response.status >= 500 || response.status === 429 ? (response.status === 429 ? 'rate_limit' : 'unreachable') : 'other';
        throw new PlatformError(
          'tiktok',
          kind,
          `TikTok answered ${response.status} with no JSON${page ? ` (${page})` : ''}`,
          response.status,
        );
      }
      const failure = classifyTiktokAnswer(response.status, parsed, call.secret);
      if (failure) {
        const asked = retryAfterMs(response.headers);
        if (asked !== undefined) askedWaits.set(failure, asked);
        throw failure;
      }
      if (typeof parsed !== 'object' || parsed === null) {
        throw new PlatformError('tiktok', 'other', 'TikTok answered something that is not a JSON object', response.status);
      }
      return parsed as Record<string, unknown>;
    } finally {
      deadline.clear();
    }
  }

  const dataOf = (answer: Record<string, unknown>): Record<string, unknown> =>
    typeof answer.data === 'object' && answer.data !== null ? (answer.data as Record<string, unknown>) : {};
  const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

  function tokensOf(answer: Record<string, unknown>): Tokens {
    const accessToken = str(answer.access_token);
    if (!accessToken) throw new PlatformError('tiktok', 'other', 'TikTok answered no access token');
    const at = now().getTime();
    const seconds = (value: unknown) =>
      typeof value === 'number' && Number.isFinite(value) ? new Date(at + value * 1000) : null;
    const refreshToken = str(answer.refresh_token);
    return {
      accessToken,
      accessExpiresAt: seconds(answer.expires_in),
      ...(refreshToken ? { refreshToken, refreshExpiresAt: seconds(answer.refresh_expires_in) } : {}),
      scopes: (str(answer.scope) ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  }

  async function creatorInfo(accessToken: string, options?: ExchangeOptions) {
    const answer = await request(
      {
        method: 'POST',
        url: api('v2/post/publish/creator_info/query/'),
        token: accessToken,
        secret: accessToken,
        repeatable: true,
      },
      options,
    );
    return dataOf(answer);
  }

  function preflightOf(data: Record<string, unknown>): Preflight {
    const options = Array.isArray(data.privacy_level_options)
      ? data.privacy_level_options.filter((o): o is string => typeof o === 'string')
      : [];
    const max = typeof data.max_video_post_duration_sec === 'number' ? data.max_video_post_duration_sec : 0;
    return {
      privacyLevels: options,
      maxDurationSec: max,
      postsLeft: null,
      commentDisabled: data.comment_disabled === true,
      duetDisabled: data.duet_disabled === true,
      stitchDisabled: data.stitch_disabled === true,
    };
  }

  /** The public link of a post: TikTok answers no URL; this is the public site's pattern. */
  const postUrl = (username: string | null, postId: string) =>
    username ? `https://www.tiktok.com/@${encodeURIComponent(username)}/video/${postId}` : null;

  async function statusOf(accessToken: string, publishId: string, options?: ExchangeOptions) {
    const answer = await request(
      {
        method: 'POST',
        url: api('v2/post/publish/status/fetch/'),
        token: accessToken,
        secret: accessToken,
        json: { publish_id: publishId },
        repeatable: true,
      },
      options,
    );
    const data = dataOf(answer);
    const ids = Array.isArray(data.publicaly_available_post_id) ? data.publicaly_available_post_id : [];
    const first = ids.find((id) => typeof id === 'number' || typeof id === 'string');
    return {
      status: str(data.status) ?? '',
      failReason: str(data.fail_reason) ?? undefined,
      postId: first === undefined ? null : String(first),
      uploadedBytes: typeof data.uploaded_bytes === 'number' ? data.uploaded_bytes : null,
    };
  }

  /** Sends one chunk; answers the bytes TikTok then holds (its Content-Range), or throws. */
  async function putChunk(uploadUrl: string, file: FileHandle, plan: ChunkPlan, index: number, options: ExchangeOptions = {}) {
    const { first, last } = plan.chunks[index]!;
    const length = last - first + 1;
    const bytes = Buffer.alloc(length);
    await file.read(bytes, 0, length, first);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const dispatcher = sharedProxyDispatcher(options.proxyUrl);
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    for (let attempt = 0; ; attempt += 1) {
      const deadline = exchangeDeadline(timeoutMs, options.signal);
      let failure: PlatformError;
      try {
        // No bearer token: the upload URL is the credential (direct post reference).
        const init: RequestInit = {
          method: 'PUT',
          headers: { 'content-type': 'video/mp4', 'content-range': `bytes ${first}-${last}/${plan.videoSize}` },
          body: bytes,
          redirect: 'manual',
          signal: deadline.signal,
        };
        if (dispatcher) init.dispatcher = dispatcher;
        const response = await fetch(uploadUrl, init);
        await readPrefix(response, MAX_ERROR_TEXT_BYTES);
        // `Content-Range: bytes 0-{last held}/{total}` says how far TikTok got.
        const held = /^bytes 0-(\d+)\/\d+$/.exec(response.headers.get('content-range') ?? '');
        if (response.status === 201 || response.status === 206) {
          return { done: response.status === 201, held: held ? Number(held[1]) + 1 : last + 1 };
        }
        if (response.status === 416) return { done: false, held: null };
        const kind: PlatformFailure = response.status >= 500 || response.status === 429 ? 'unreachable' : 'other';
        const why =
          response.status === 403
            ? 'the upload URL expired'
            : response.status === 404
              ? 'TikTok has no upload for this URL'
              : `answer ${response.status}`;
        failure = new PlatformError(
          'tiktok',
          kind,
          `TikTok refused a chunk (${why})`,
          response.status,
          response.status === 403 || response.status === 404 ? 'upload_gone' : undefined,
        );
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (error instanceof PlatformError) throw error;
        const network = deadline.signal.aborted ? { error: timeoutFailure(timeoutMs) } : connectionFailure(error);
        if (!network) throw error;
        failure = new PlatformError('tiktok', 'unreachable', `TikTok upload: ${network.error.message}`);
      } finally {
        deadline.clear();
      }
      if (failure.kind !== 'unreachable' || attempt >= maxRetries) throw failure;
      await sleep(backoffMs(attempt, options.backoffBaseMs ?? DEFAULT_BACKOFF_MS), undefined, { signal: options.signal });
    }
  }

  return {
    platform: 'tiktok',

    authorizeUrl({ app, state, redirectUri, codeVerifier }) {
      if (!codeVerifier) throw new Error('TikTok needs a PKCE code verifier');
      const url = new URL(endpoints.authUrl);
      url.searchParams.set('client_key', app.clientId);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', TIKTOK_SCOPES.join(','));
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('code_challenge', tiktokCodeChallenge(codeVerifier));
      url.searchParams.set('code_challenge_method', 'S256');
      return url.href;
    },

    async connect({ app, code, redirectUri, codeVerifier }, options) {
      const form: Record<string, string> = {
        client_key: app.clientId,
        client_secret: app.clientSecret,
        code,
        grant_type: 'authorization_code',
        redirect_uri: redirectUri,
        ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
      };
      // A code is single-use: a lost answer cannot be asked again, the owner authorizes again.
      return tokensOf(
        await request(
          { method: 'POST', url: api('v2/oauth/token/'), form, secret: app.clientSecret, repeatable: false },
          options,
        ),
      );
    },

    async refresh({ app, tokens }, options) {
      if (tokens.accessExpiresAt && tokens.accessExpiresAt.getTime() - now().getTime() > REFRESH_MARGIN_MS) return null;
      if (!tokens.refreshToken) throw new PlatformError('tiktok', 'reauthorize', 'TikTok: no refresh token kept');
      const form = {
        client_key: app.clientId,
        client_secret: app.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: tokens.refreshToken,
      };
      // The refresh token may rotate: the caller must keep the new one with the new access token.
      const answer = await request(
        { method: 'POST', url: api('v2/oauth/token/'), form, secret: app.clientSecret, repeatable: true },
        options,
      );
      const next = tokensOf(answer);
      return {
        ...next,
        refreshToken: next.refreshToken ?? tokens.refreshToken,
        scopes: next.scopes.length ? next.scopes : tokens.scopes,
      };
    },

    async profile({ accessToken }, options): Promise<AccountProfile> {
      const answer = await request(
        {
          method: 'GET',
          url: `${api('v2/user/info/')}?fields=${USER_FIELDS}`,
          token: accessToken,
          secret: accessToken,
          repeatable: true,
        },
        options,
      );
      const user = dataOf(answer).user as Record<string, unknown> | undefined;
      const externalId = str(user?.open_id);
      if (!externalId) throw new PlatformError('tiktok', 'other', 'TikTok answered no open_id');
      // `username` needs user.info.profile, which is not asked: creator_info gives the @handle.
      let username: string | null = null;
      try {
        username = str((await creatorInfo(accessToken, options)).creator_username);
      } catch (error) {
        if (!(error instanceof PlatformError) || error.kind === 'unreachable' || error.kind === 'too_large') throw error;
      }
      return { externalId, username, displayName: str(user?.display_name), avatarUrl: str(user?.avatar_url) };
    },

    async preflight({ accessToken }, options) {
      return preflightOf(await creatorInfo(accessToken, options));
    },

    async publish({ accessToken, request: video, ledger }, options = {}): Promise<PublishOutcome> {
      const privacy = video.privacyLevel ?? 'SELF_ONLY';
      const outcome = async (postId: string | null): Promise<PublishOutcome> => {
        if (privacy === 'SELF_ONLY') return { status: 'private', postId, postUrl: null };
        let username: string | null = null;
        try {
          username = str((await creatorInfo(accessToken, { ...options, maxRetries: 1 })).creator_username);
        } catch {
          // The link is a nicety: the post is made.
        }
        return { status: 'published', postId, postUrl: postId ? postUrl(username, postId) : null };
      };

      /** Polls a publish_id whose bytes all arrived, bounded; writes the end to the ledger. */
      const settle = async (entry: LedgerEntry): Promise<PublishOutcome> => {
        let wait = statusIntervalMs;
        for (let poll = 0; ; poll += 1) {
          const state = await statusOf(accessToken, entry.externalId, options);
          if (state.status === 'FAILED') {
            await ledger.write({ ...entry, phase: 'failed', detail: state.failReason ?? 'unknown' });
            throw classifyFailReason(state.failReason);
          }
          // A public post is public once moderated, when TikTok gives its id; a private one never gets one.
          if (state.status === 'PUBLISH_COMPLETE' && (privacy === 'SELF_ONLY' || state.postId)) {
            await ledger.write({ ...entry, phase: 'published', ...(state.postId ? { postId: state.postId } : {}) });
            return outcome(state.postId);
          }
          if (poll + 1 >= statusPolls) return { status: 'processing', postId: null, postUrl: null };
          await sleep(wait, undefined, { signal: options.signal });
          wait = Math.min(60_000, wait * 2);
        }
      };

      const previous = await ledger.read();
      if (previous?.phase === 'published') return outcome(previous.postId ?? null);
      const plan = tiktokChunkPlan(video.size, opts.chunkBytes);
      let entry: LedgerEntry | null = previous && previous.phase !== 'failed' ? previous : null;
      let from = 0;

      if (entry) {
        let state: Awaited<ReturnType<typeof statusOf>> | null = null;
        try {
          state = await statusOf(accessToken, entry.externalId, options);
        } catch (error) {
          const gone =
            error instanceof PlatformError &&
            (error.code === 'invalid_publish_id' || error.code === 'token_not_authorized_for_specified_publish_id');
          if (!gone) throw error;
          // Never risk a second post once TikTok had every byte.
          if (entry.phase !== 'initialized') {
            throw new PlatformError(
              'tiktok',
              'in_doubt',
              'TikTok lost track of the post: check the account before retrying',
              error.status,
              error.code,
            );
          }
          entry = null;
        }
        if (entry && state) {
          const complete = state.uploadedBytes !== null && state.uploadedBytes >= video.size;
          if (entry.phase === 'initialized' && !complete && state.status === 'FAILED') {
            // An upload that never had every byte (its URL expired, say) can never post: start anew.
            await ledger.write({ ...entry, phase: 'failed', detail: state.failReason ?? 'upload unfinished' });
            entry = null;
          } else if (entry.phase !== 'initialized' || complete || state.status !== 'PROCESSING_UPLOAD') {
            if (entry.phase === 'initialized') {
              await ledger.write((entry = { ...entry, phase: 'uploaded', bytesConfirmed: video.size }));
            }
            return settle(entry);
          } else {
            // Resume at the start of the chunk holding TikTok's count of bytes (the ledger may lag
            // behind it: a chunk confirmed just before a crash was not recorded).
            const held = state.uploadedBytes ?? 0;
            from = Math.max(
              0,
              plan.chunks.findIndex((c) => c.last + 1 > held),
            );
          }
        }
      }

      const file = await fs.open(video.file, 'r');
      try {
        if (!entry) {
          const info = preflightOf(await creatorInfo(accessToken, options));
          if (!info.privacyLevels.includes(privacy)) {
            throw new PlatformError(
              'tiktok',
              'other',
              `TikTok does not offer the privacy ${privacy} to this account now`,
              undefined,
              'privacy_level_option_mismatch',
            );
          }
          if (info.maxDurationSec > 0 && video.durationSec > info.maxDurationSec) {
            throw new PlatformError(
              'tiktok',
              'media_rejected',
              `the video lasts ${video.durationSec} s; this account may post ${info.maxDurationSec} s at most`,
            );
          }
          const body = {
            post_info: {
              title: cutUtf16(video.caption, TIKTOK_TITLE_MAX),
              privacy_level: privacy,
              disable_comment: info.commentDisabled || video.allowComment === false,
              disable_duet: info.duetDisabled || video.allowDuet === false,
              disable_stitch: info.stitchDisabled || video.allowStitch === false,
              brand_content_toggle: false,
              brand_organic_toggle: false,
              is_aigc: video.aiGenerated,
            },
            source_info: {
              source: 'FILE_UPLOAD',
              video_size: plan.videoSize,
              chunk_size: plan.chunkSize,
              total_chunk_count: plan.totalChunkCount,
            },
          };
          const answer = await request(
            {
              method: 'POST',
              url: api('v2/post/publish/video/init/'),
              token: accessToken,
              secret: accessToken,
              json: body,
              repeatable: false,
            },
            options,
          );
          const data = dataOf(answer);
          const publishId = str(data.publish_id);
          const uploadUrl = str(data.upload_url);
          if (!publishId || !uploadUrl) throw new PlatformError('tiktok', 'other', 'TikTok answered no publish_id or upload_url');
          entry = { phase: 'initialized', externalId: publishId, uploadUrl, bytesConfirmed: 0 };
          // Before any byte: a resumed run asks about this publish_id instead of posting anew.
          await ledger.write(entry);
          from = 0;
        }
        const uploadUrl = entry.uploadUrl ?? '';
        let origin: string | null = null;
        try {
          origin = new URL(uploadUrl).origin;
        } catch {
          origin = null;
        }
        if (!origin || !uploadOrigins.has(origin)) {
          await ledger.write({ ...entry, phase: 'failed', detail: 'upload URL not allowed' });
          throw new PlatformError(
            'tiktok',
            'other',
            `TikTok's upload URL is not on an allowed host (${origin ?? 'not a URL'}): nothing sent`,
          );
        }
        let disagreements = 0;
        for (let index = from; index < plan.chunks.length; index += 1) {
          let sent: { done: boolean; held: number | null };
          try {
            sent = await putChunk(uploadUrl, file, plan, index, options);
          } catch (error) {
            if (error instanceof PlatformError && error.code === 'upload_gone') {
              // The URL died before TikTok had every byte: that publish_id can never post.
              await ledger.write({ ...entry, phase: 'failed', detail: error.message });
            }
            throw error;
          }
          if (sent.held === null) {
            // 416: TikTok holds more or less than we think (an answer lost): ask, and go on from there.
            const state = await statusOf(accessToken, entry.externalId, options);
            const held = state.uploadedBytes ?? 0;
            if (held >= plan.videoSize || state.status !== 'PROCESSING_UPLOAD') break;
            const next = plan.chunks.findIndex((c) => c.first === held);
            disagreements += 1;
            if (next < 0 || disagreements > 3) {
              throw new PlatformError('tiktok', 'other', `TikTok refused the upload's progress (it holds ${held} bytes)`, 416);
            }
            index = next - 1;
            continue;
          }
          if (sent.done) break;
          await ledger.write((entry = { ...entry, bytesConfirmed: sent.held }));
        }
      } finally {
        await file.close();
      }
      await ledger.write((entry = { ...entry, phase: 'uploaded', bytesConfirmed: video.size }));
      return settle(entry);
    },

    async postStats({ accessToken, postIds }, options) {
      // Views and likes need video.list (/v2/video/query/), which is not asked: links only.
      let username: string | null = null;
      try {
        username = str((await creatorInfo(accessToken, options)).creator_username);
      } catch (error) {
        if (error instanceof PlatformError && error.kind === 'reauthorize') throw error;
      }
      return new Map<string, PostStats>(postIds.map((id) => [id, { views: null, likes: null, url: postUrl(username, id) }]));
    },

    async revoke({ app, tokens }, options) {
      const form = { client_key: app.clientId, client_secret: app.clientSecret, token: tokens.accessToken };
      await request({ method: 'POST', url: api('v2/oauth/revoke/'), form, secret: app.clientSecret, repeatable: true }, options);
    },
  };
}
