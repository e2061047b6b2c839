import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fetch as undiciFetch, type RequestInit, type Response } from 'undici';
import {
  MAX_ERROR_TEXT_BYTES,
  discardBody,
  exchangeDeadline,
  readCapped,
  readPrefix,
  readResponseBytes,
  scrubSecret,
} from '../httpBodies';
import { sharedProxyDispatcher } from '../proxies';
import { ProviderError } from '../providerError';
import { MAX_RETRY_AFTER_MS, backoffMs, connectionFailure, fetchWithRetry, retryAfterMs, timeoutFailure } from '../retry';
import {
  PlatformError,
  type AccountProfile,
  type ExchangeOptions,
  type LedgerEntry,
  type PlatformEndpoints,
  type PlatformFailure,
  type PostStats,
  type Preflight,
  type PublishLedger,
  type PublishOutcome,
  type Publisher,
  type Tokens,
} from './contract';

/**
 * Instagram Reels through the Instagram API with Facebook Login for Business (the Graph API on
 * graph.facebook.com, the resumable upload on rupload.facebook.com), with undici's fetch: Meta
 * ships no Node SDK.
 *
 * Tokens. The consent's code gives a short-lived user token (1-2 h), exchanged at once for a
 * long-lived one (about 60 days). Meta documents no server-side refresh of that token; what it
 * does document is that a Page access token obtained with a long-lived user token has no expiry
 * (it dies with the authorization: password change, app removed, permissions revoked). So the
 * account, once its Instagram account is chosen among `accounts(...)`, keeps the Page token as its
 * `accessToken` (`accessExpiresAt` null) and the long-lived user token as its `refreshToken`
 * (`refreshExpiresAt` its expiry, which the caller alerts on: only a new consent extends it).
 * `profile` and `publish` then run with the Page token: `GET /me` answers the Page and its linked
 * `instagram_business_account`, which is the account's external id.
 *
 * Exactly once. The container id and its upload address are written to the ledger before a byte
 * is sent; `publish_requested` is written before `media_publish`, the only call that makes a post.
 * That call is never repeated after a lost answer: the next attempt asks the container's status
 * first (`PUBLISHED`: the post exists, its media id is looked up; `FINISHED`: the earlier request
 * did not take, publish again).
 */

export const META_GRAPH_VERSION = 'v21.0';
export const INSTAGRAM_SCOPES = [
  'instagram_basic',
  'instagram_content_publish',
  'pages_show_list',
  'pages_read_engagement',
] as const;
/** Reels may last 3 s to 15 min (Meta's Reel specifications). */
export const REELS_MAX_DURATION_SEC = 900;
export const REELS_MIN_DURATION_SEC = 3;
/** One copy of the reference says 1 GB, another 300 MB: the smaller one holds for both. */
export const REELS_MAX_BYTES = 300 * 1024 * 1024;
/** Caption limits (error 2207010 past them). */
export const CAPTION_MAX_CHARS = 2200;
export const CAPTION_MAX_HASHTAGS = 30;
export const CAPTION_MAX_MENTIONS = 20;

/** Graph answers are small JSON documents; anything larger is not Meta's. */
const MAX_GRAPH_ANSWER_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 5;
const DEFAULT_BACKOFF_BASE_MS = 1000;

export interface InstagramPublisherOptions {
  /** The Graph API version of every path (dialog, Graph, upload). Default v21.0. */
  graphVersion?: string;
  /**
   * Origins an upload `uri` answered by Meta may have, besides `endpoints.uploadUrl`'s (the token
   * goes in its header: any other origin is refused before a byte is sent).
   */
  allowedUploadOrigins?: string[];
  /** Between two looks at a container being processed. Default 15 000 ms (Meta: 10-60 s). */
  pollIntervalMs?: number;
  /** How long one attempt waits for processing before answering `processing`. Default 10 min. */
  maxProcessingMs?: number;
  /**
   * A Facebook Login for Business configuration id: when set, the dialog is opened with
   * `config_id` (the configuration lists the permissions) instead of `scope`. Whether a Business
   * app still accepts a plain `scope` is not documented either way: this lets the admin choose.
   */
  configId?: string;
  /** Waits before publishing again a container Meta says is not ready (9007/2207027). Default 3. */
  maxNotReadyRetries?: number;
}

/** A Page of the user's with a linked Instagram professional account: what the owner chooses from. */
export interface InstagramAccountChoice {
  pageId: string;
  pageName: string;
  igUserId: string;
  username: string | null;
  pictureUrl: string | null;
  /** The Page's token (no expiry when listed with a long-lived user token): the account's token. */
  pageAccessToken: string;
}

export interface InstagramPublisher extends Publisher {
  readonly platform: 'instagram';
  /** The user's Pages that have a linked Instagram professional account (none: an empty list). */
  accounts(input: { accessToken: string }, options?: ExchangeOptions): Promise<InstagramAccountChoice[]>;
  /** The tokens an account keeps once `choice` is made: the Page token, the user token beside it. */
  chosenTokens(userTokens: Tokens, choice: InstagramAccountChoice): Tokens;
}

// ---------------------------------------------------------------------------------------------
// Captions

const HASHTAG = /(^|\s)#[\p{L}\p{N}_]+/gu;
const MENTION = /(^|\s)@[\p{L}\p{N}._]+/gu;

function countOf(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].length;
}

/** Characters as Instagram counts them: code points, so an emoji is one. */
function lengthOf(text: string): number {
  return [...text].length;
}

function cutTo(text: string, max: number): string {
  const points = [...text];
  if (points.length <= max) return text;
  return `${points
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/**
 * A caption within Instagram's limits: at most 30 hashtags and 20 @mentions (the extra ones are
 * dropped from the end, hashtags first: they are what a caption can best do without), and at most
 * 2,200 characters (the tags that no longer fit are dropped before the text is cut).
 */
export function buildInstagramCaption(input: { text: string; hashtags?: string[] }): string {
  const tags = (input.hashtags ?? [])
    .map((tag) =>
      tag
        .trim()
        .replace(/^#+/, '')
        .replace(/[^\p{L}\p{N}_]/gu, ''),
    )
    .filter((tag) => tag.length > 0);
  let text = input.text.trim();
  // Mentions beyond 20 lose their '@' (they stay as words).
  let mentions = 0;
  text = text.replace(MENTION, (match) => (++mentions > CAPTION_MAX_MENTIONS ? match.replace('@', '') : match));
  let hashtagsInText = 0;
  text = text.replace(HASHTAG, (match) => (++hashtagsInText > CAPTION_MAX_HASHTAGS ? match.replace('#', '') : match));
  const room = Math.max(0, CAPTION_MAX_HASHTAGS - Math.min(hashtagsInText, CAPTION_MAX_HASHTAGS));
  const kept = [...new Set(tags)].slice(0, room).map((tag) => `#${tag}`);
  // Hashtags go first when room runs short: drop them from the end until the text fits whole.
  while (kept.length > 0 && lengthOf(`${text}\n\n${kept.join(' ')}`) > CAPTION_MAX_CHARS) kept.pop();
  const caption = kept.length > 0 ? `${text}\n\n${kept.join(' ')}` : text;
  return cutTo(caption, CAPTION_MAX_CHARS);
}

/** Hashtags, @mentions and characters of a caption, as the limits count them. */
export function captionCounts(caption: string): { chars: number; hashtags: number; mentions: number } {
  return { chars: lengthOf(caption), hashtags: countOf(caption, HASHTAG), mentions: countOf(caption, MENTION) };
}

// ---------------------------------------------------------------------------------------------
// Errors

/** Meta's error envelope (`{error: {...}}`), as far as it is read here. */
export interface MetaErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
  fbtrace_id?: string;
}

const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80001, 80002]);
const TRANSIENT_CODES = new Set([1, 2]);
/** The video or its caption breaks Instagram's rules: the same request fails again. */
const REJECTED_SUBCODES = new Set([2207010, 2207026, 2207057, 2207009]);
/** The container is gone or broken (expired, unknown upload error, create failed): a new one may work. */
const CONTAINER_LOST_SUBCODES = new Set([2207020, 2207053, 2207032, 2207006, 2207008]);

/** Not ready for publishing yet: wait, look at the status, publish again. */
export function isNotReady(error: unknown): boolean {
  return error instanceof PlatformError && error.code === '9007/2207027';
}

/**
 * What a Graph answer's error means (by code and subcode, never by `type`: rate limits and media
 * errors say OAuthException too). `retry` says whether the same request may be sent again.
 */
export function classifyMetaError(status: number, body: MetaErrorBody | undefined): { error: PlatformError; retry: boolean } {
  const code = body?.code;
  const subcode = body?.error_subcode;
  const label = code === undefined ? undefined : subcode === undefined ? String(code) : `${code}/${subcode}`;
  const said = body?.message ? `: ${body.message.slice(0, 300)}` : '';
  const make = (kind: PlatformFailure, message: string) =>
    new PlatformError('instagram', kind, `${message}${said}`, status, label);
  if (code === undefined) {
    if (status >= 500) return { error: make('unreachable', `Meta answered HTTP ${status}`), retry: true };
    if (status === 429) return { error: make('rate_limit', 'Meta asked to slow down'), retry: true };
    return { error: make('other', `Meta answered HTTP ${status}`), retry: false };
  }
  if (code === 190 || code === 102) {
    const why = subcode === 463 ? 'the authorization expired' : 'the authorization is no longer valid';
    return { error: make('reauthorize', `${why}; authorize Instagram again`), retry: false };
  }
  if (code === 10 || (code >= 200 && code <= 299)) {
    return {
      error: make('reauthorize', 'a permission is missing; authorize Instagram again granting all of them'),
      retry: false,
    };
  }
  if (code === 9 && subcode === 2207042) {
    return { error: make('daily_limit', "Instagram's daily publishing limit is reached; try again tomorrow"), retry: false };
  }
  if (code === 4 && subcode === 2207051)
    return { error: make('restricted', 'Instagram restricted the post as suspected spam'), retry: false };
  if (code === 25 || subcode === 2207050 || code === 368) {
    return {
      error: make('restricted', 'the Instagram account may not post now; open Instagram and complete what it asks'),
      retry: false,
    };
  }
  if (RATE_LIMIT_CODES.has(code)) return { error: make('rate_limit', 'Meta rate limit reached'), retry: true };
  if (code === 9007 && subcode === 2207027)
    return { error: make('other', 'the media is not ready for publishing'), retry: false };
  if (TRANSIENT_CODES.has(code) || subcode === 2207001 || body?.is_transient === true) {
    return { error: make('unreachable', 'Meta had a temporary error'), retry: true };
  }
  if ((subcode !== undefined && REJECTED_SUBCODES.has(subcode)) || code === 352 || code === 36004) {
    return { error: make('media_rejected', 'Instagram refused the video or its caption'), retry: false };
  }
  if (subcode !== undefined && CONTAINER_LOST_SUBCODES.has(subcode)) {
    return { error: make('other', 'Instagram lost the media container; the next attempt makes a new one'), retry: false };
  }
  if (status >= 500) return { error: make('unreachable', `Meta answered HTTP ${status}`), retry: true };
  return { error: make('other', 'Meta refused the request'), retry: false };
}

function fromProviderError(error: ProviderError): PlatformError {
  const kind: PlatformFailure = error.kind === 'too_large' ? 'too_large' : error.kind === 'unreachable' ? 'unreachable' : 'other';
  return new PlatformError('instagram', kind, error.message, error.status);
}

// ---------------------------------------------------------------------------------------------
// The client

type Params = Record<string, string | number | boolean | undefined>;

interface CallOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  /** A token sent as `Authorization: Bearer` (never in the URL: URLs end up in logs). */
  token?: string;
  /** Form fields of a POST. */
  form?: Params;
  /**
   * A call that makes something (a container, a post): never sent again once it may have reached
   * Meta (a lost answer throws `in_doubt`). Refusals that say nothing happened (rate limits) are
   * still retried.
   */
  once?: boolean;
}

interface Container {
  status_code?: string;
  status?: string;
  video_status?: { uploading_phase?: { status?: string; bytes_transferred?: number } };
}

function withQuery(base: string, params: Params): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, String(value));
  return url.href;
}

function formOf(params: Params): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) form.set(key, String(value));
  return form.toString();
}

function errorBodyOf(text: string): MetaErrorBody | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    return parsed && typeof parsed.error === 'object' && parsed.error !== null ? (parsed.error as MetaErrorBody) : undefined;
  } catch {
    return undefined;
  }
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function expiresAt(expiresIn: unknown): Date | null {
  const seconds = num(expiresIn);
  return seconds === null || seconds <= 0 ? null : new Date(Date.now() + seconds * 1000);
}

export function createInstagramPublisher(endpoints: PlatformEndpoints, opts: InstagramPublisherOptions = {}): InstagramPublisher {
  const version = opts.graphVersion ?? META_GRAPH_VERSION;
  const graphBase = new URL(`${version}/`, endpoints.apiUrl.endsWith('/') ? endpoints.apiUrl : `${endpoints.apiUrl}/`);
  const uploadBase = new URL(endpoints.uploadUrl ?? 'https://rupload.facebook.com/');
  const uploadOrigins = new Set([uploadBase.origin, ...(opts.allowedUploadOrigins ?? []).map((o) => new URL(o).origin)]);
  const pollIntervalMs = opts.pollIntervalMs ?? 15_000;
  const maxProcessingMs = opts.maxProcessingMs ?? 10 * 60_000;
  const maxNotReady = opts.maxNotReadyRetries ?? 3;

  const graphUrl = (path: string, params: Params = {}) => withQuery(new URL(path.replace(/^\//, ''), graphBase).href, params);

  /** One exchange: bounded, redirects followed by hand without credentials across origins. */
  async function send(
    url: string,
    init: { method: string; headers: Record<string, string>; body?: string },
    options: ExchangeOptions,
    timeoutMs?: number,
  ) {
    try {
      return await fetchWithRetry(url, init as never, {
        timeoutMs: timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxRetries: 0,
        proxyUrl: options.proxyUrl,
        signal: options.signal,
      });
    } catch (error) {
      if (error instanceof ProviderError) throw fromProviderError(error);
      throw error;
    }
  }

  async function readJson(response: Response, options: ExchangeOptions): Promise<Record<string, unknown>> {
    let bytes: Buffer;
    try {
      bytes = await readResponseBytes(response, { maxBytes: MAX_GRAPH_ANSWER_BYTES, signal: options.signal });
    } catch (error) {
      if (error instanceof ProviderError) throw fromProviderError(error);
      throw error;
    }
    try {
      const parsed: unknown = JSON.parse(bytes.toString('utf8'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // Below.
    }
    throw new PlatformError('instagram', 'other', 'Meta answered something that is not JSON', response.status);
  }

  /** A Graph call with Meta's error envelope read and retries where they are safe. */
  async function call(path: string, params: Params, callOptions: CallOptions, options: ExchangeOptions = {}) {
    const method = callOptions.method ?? 'GET';
    const headers: Record<string, string> = { accept: 'application/json' };
    if (callOptions.token) headers.authorization = `Bearer ${callOptions.token}`;
    let body: string | undefined;
    if (callOptions.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = formOf(callOptions.form);
    }
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    for (let attempt = 0; ; attempt += 1) {
      let failure: { error: PlatformError; retry: boolean };
      let asked: number | undefined;
      try {
        const response = await send(graphUrl(path, params), { method, headers, body }, options);
        if (response.ok) return await readJson(response, options);
        asked = retryAfterMs(response.headers);
        const text = (await readPrefix(response, MAX_ERROR_TEXT_BYTES)).toString('utf8');
        // Meta's message is shown and logged: never with the token in it, whatever it echoes.
        failure = classifyMetaError(response.status, errorBodyOf(scrubSecret(text, callOptions.token)));
        // A 5xx may come after the call took effect: only refusals that say so are safe to repeat.
        if (callOptions.once && failure.error.kind === 'unreachable') {
          throw new PlatformError(
            'instagram',
            'in_doubt',
            `${failure.error.message} (the call may have taken effect)`,
            response.status,
            failure.error.code,
          );
        }
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        if (error.kind === 'unreachable' && callOptions.once) {
          throw new PlatformError('instagram', 'in_doubt', `${error.message} (the call may have taken effect)`, error.status);
        }
        if (error.kind !== 'unreachable') throw error;
        failure = { error, retry: true };
      }
      if (!failure.retry || attempt >= maxRetries) throw failure.error;
      const backoff = backoffMs(attempt, options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS);
      // A wait the answer asks for is kept (capped): Meta's rate limits are per hour, not per second.
      await sleep(asked === undefined ? backoff : Math.min(asked, MAX_RETRY_AFTER_MS), undefined, { signal: options.signal });
    }
  }

  async function exchange(params: Params, options?: ExchangeOptions): Promise<{ token: string; expiresAt: Date | null }> {
    const answer = await call('oauth/access_token', params, {}, options);
    const token = str(answer.access_token);
    if (!token) throw new PlatformError('instagram', 'other', 'Meta answered no access token');
    return { token, expiresAt: expiresAt(answer.expires_in) };
  }

  async function container(id: string, token: string, options?: ExchangeOptions): Promise<Container> {
    return (await call(id, { fields: 'id,status_code,status,video_status' }, { token }, options)) as Container;
  }

  async function mediaLink(mediaId: string, token: string, options?: ExchangeOptions): Promise<string | null> {
    try {
      return str((await call(mediaId, { fields: 'id,permalink' }, { token }, options)).permalink);
    } catch (error) {
      // The post exists: a link that cannot be read now is read by the next stats check.
      if (error instanceof PlatformError && error.kind !== 'reauthorize') return null;
      throw error;
    }
  }

  /**
   * The media id of a published container: Meta does not say whether the container names it, so
   * the account's recent media are searched for the caption, posted after the container was made.
   */
  async function findPublished(
    igUserId: string,
    caption: string,
    token: string,
    options?: ExchangeOptions,
  ): Promise<string | null> {
    const answer = await call(
      `${igUserId}/media`,
      { fields: 'id,caption,timestamp,media_product_type', limit: 25 },
      { token },
      options,
    );
    const data = Array.isArray(answer.data) ? (answer.data as Record<string, unknown>[]) : [];
    const match = data.find((media) => media.caption === caption);
    return match ? str(match.id) : null;
  }

  function uploadTarget(entry: LedgerEntry): string {
    const fallback = new URL(`ig-api-upload/${version}/${entry.externalId}`, uploadBase).href;
    if (!entry.uploadUrl) return fallback;
    let url: URL;
    try {
      url = new URL(entry.uploadUrl);
    } catch {
      throw new PlatformError('instagram', 'other', 'Meta answered an upload address that is not a URL');
    }
    // https on an allowed host; plain http only on the configured host itself (a fake in tests).
    if (!uploadOrigins.has(url.origin) || (url.protocol !== 'https:' && url.origin !== uploadBase.origin)) {
      throw new PlatformError(
        'instagram',
        'other',
        `Meta answered an upload address on an unexpected host (${url.host}); nothing was sent`,
      );
    }
    return url.href;
  }

  /**
   * The one request of an upload: its body is a stream of the file, which cannot be sent twice,
   * and it carries the token, so a redirect is not followed at all (a failure to retry from the
   * offset the host reports). The answer is read whole, bounded, under the same deadline.
   */
  async function sendUpload(
    url: string,
    init: RequestInit & { duplex: 'half' },
    options: ExchangeOptions,
    timeoutMs: number,
  ): Promise<{ status: number; ok: boolean; text: string }> {
    const deadline = exchangeDeadline(timeoutMs, options.signal);
    const dispatcher = sharedProxyDispatcher(options.proxyUrl);
    try {
      const response = await undiciFetch(url, {
        ...init,
        redirect: 'manual',
        signal: deadline.signal,
        ...(dispatcher ? { dispatcher } : {}),
      });
      if (response.status >= 300 && response.status < 400) {
        await discardBody(response);
        throw new PlatformError(
          'instagram',
          'unreachable',
          `the upload host redirected (HTTP ${response.status}); not followed`,
          response.status,
        );
      }
      const bytes = response.ok
        ? await readCapped(response, MAX_GRAPH_ANSWER_BYTES, options.signal)
        : await readPrefix(response, MAX_ERROR_TEXT_BYTES);
      return { status: response.status, ok: response.ok, text: bytes.toString('utf8') };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof PlatformError) throw error;
      if (error instanceof ProviderError) throw fromProviderError(error);
      if (deadline.signal.aborted) throw fromProviderError(timeoutFailure(timeoutMs));
      const network = connectionFailure(error);
      if (network) throw fromProviderError(network.error);
      throw error;
    } finally {
      deadline.clear();
    }
  }

  /** Sends the bytes from `offset` in one request; throws unless the host said it holds them all. */
  async function uploadFrom(
    entry: LedgerEntry,
    offset: number,
    input: { accessToken: string; request: { file: string; size: number } },
    options: ExchangeOptions,
  ): Promise<void> {
    const target = uploadTarget(entry);
    const remaining = input.request.size - offset;
    // One request carries the whole rest: its deadline grows with it (at least 1 MiB/s).
    const timeoutMs = (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) + Math.ceil(remaining / (1024 * 1024)) * 1000;
    const { status, ok, text } = await sendUpload(
      target,
      {
        method: 'POST',
        headers: {
          authorization: `OAuth ${input.accessToken}`,
          offset: String(offset),
          file_size: String(input.request.size),
          'content-type': 'application/octet-stream',
          'content-length': String(remaining),
        },
        body: fs.createReadStream(input.request.file, { start: offset }),
        duplex: 'half',
      },
      options,
      timeoutMs,
    );
    let parsed: { success?: unknown; debug_info?: { retriable?: unknown; message?: unknown; type?: unknown } } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // Judged by the status below.
    }
    if (ok && parsed.success === true) return;
    const info = parsed.debug_info;
    if (info && info.retriable === false) {
      throw new PlatformError(
        'instagram',
        'media_rejected',
        `Instagram refused the upload: ${String(info.message ?? info.type ?? 'no reason')}`.slice(0, 400),
        status,
      );
    }
    const envelope = errorBodyOf(text);
    if (envelope) throw classifyMetaError(status, envelope).error;
    throw new PlatformError('instagram', 'unreachable', `the upload host answered HTTP ${status}`, status);
  }

  /** Uploads what the host lacks, resuming from the offset it reports; bounded retries. */
  async function upload(
    entry: LedgerEntry,
    input: { accessToken: string; request: { file: string; size: number } },
    ledger: PublishLedger,
    options: ExchangeOptions,
  ): Promise<void> {
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    for (let attempt = 0; ; attempt += 1) {
      const status = await container(entry.externalId, input.accessToken, options);
      const phase = status.video_status?.uploading_phase;
      const held = num(phase?.bytes_transferred) ?? 0;
      if (phase?.status === 'complete' || held >= input.request.size) return;
      try {
        await uploadFrom(entry, held, input, options);
        await ledger.write({ ...entry, phase: 'uploaded', bytesConfirmed: input.request.size });
        return;
      } catch (error) {
        if (!(error instanceof PlatformError) || (error.kind !== 'unreachable' && error.kind !== 'rate_limit')) throw error;
        if (attempt >= maxRetries) throw error;
      }
      await sleep(backoffMs(attempt, options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS), undefined, { signal: options.signal });
    }
  }

  /** Waits for the container to be processed: its final status code, or null when time ran out. */
  async function processed(id: string, token: string, options: ExchangeOptions): Promise<Container | null> {
    const started = Date.now();
    for (;;) {
      const status = await container(id, token, options);
      if (status.status_code !== 'IN_PROGRESS') return status;
      if (Date.now() - started + pollIntervalMs > maxProcessingMs) return null;
      await sleep(pollIntervalMs, undefined, { signal: options.signal });
    }
  }

  async function quota(
    igUserId: string,
    token: string,
    options?: ExchangeOptions,
  ): Promise<{ total: number; used: number } | null> {
    const answer = await call(`${igUserId}/content_publishing_limit`, { fields: 'config,quota_usage' }, { token }, options);
    const first = Array.isArray(answer.data) ? (answer.data[0] as Record<string, unknown> | undefined) : undefined;
    const total = num((first?.config as Record<string, unknown> | undefined)?.quota_total);
    const used = num(first?.quota_usage);
    return total === null || used === null ? null : { total, used };
  }

  const publisher: InstagramPublisher = {
    platform: 'instagram',

    authorizeUrl({ app, state, redirectUri }) {
      const url = new URL(endpoints.authUrl);
      url.searchParams.set('client_id', app.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('response_type', 'code');
      if (opts.configId) {
        url.searchParams.set('config_id', opts.configId);
        url.searchParams.set('override_default_response_type', 'true');
      } else {
        url.searchParams.set('scope', INSTAGRAM_SCOPES.join(','));
      }
      return url.href;
    },

    async connect({ app, code, redirectUri }, options) {
      const short = await exchange(
        { client_id: app.clientId, client_secret: app.clientSecret, redirect_uri: redirectUri, code },
        options,
      );
      // A short-lived token lasts an hour or two: exchanged at once (an expired one cannot be).
      const long = await exchange(
        {
          grant_type: 'fb_exchange_token',
          client_id: app.clientId,
          client_secret: app.clientSecret,
          fb_exchange_token: short.token,
        },
        options,
      );
      const granted = await call('me/permissions', {}, { token: long.token }, options);
      const scopes = (Array.isArray(granted.data) ? (granted.data as Record<string, unknown>[]) : [])
        .filter((row) => row.status === 'granted')
        .map((row) => String(row.permission));
      return { accessToken: long.token, accessExpiresAt: long.expiresAt, scopes };
    },

    async accounts({ accessToken }, options) {
      const fields = 'id,name,access_token,instagram_business_account{id,username,name,profile_picture_url}';
      const choices: InstagramAccountChoice[] = [];
      let after: string | undefined;
      // Pages come 100 at a time; ten pages of them is more than any owner of a console has.
      for (let page = 0; page < 10; page += 1) {
        const answer = await call('me/accounts', { fields, limit: 100, after }, { token: accessToken }, options);
        for (const row of Array.isArray(answer.data) ? (answer.data as Record<string, unknown>[]) : []) {
          const ig = row.instagram_business_account as Record<string, unknown> | undefined;
          const igUserId = str(ig?.id);
          const pageId = str(row.id);
          const pageAccessToken = str(row.access_token);
          if (!ig || !igUserId || !pageId || !pageAccessToken) continue;
          choices.push({
            pageId,
            pageName: str(row.name) ?? pageId,
            igUserId,
            username: str(ig.username),
            pictureUrl: str(ig.profile_picture_url),
            pageAccessToken,
          });
        }
        const paging = answer.paging as { next?: unknown; cursors?: { after?: unknown } } | undefined;
        after = str(paging?.cursors?.after) ?? undefined;
        if (!str(paging?.next) || !after) break;
      }
      return choices;
    },

    chosenTokens(userTokens, choice) {
      return {
        accessToken: choice.pageAccessToken,
        accessExpiresAt: null,
        refreshToken: userTokens.accessToken,
        refreshExpiresAt: userTokens.accessExpiresAt,
        scopes: userTokens.scopes,
      };
    },

    /**
     * Meta has nothing to refresh a long-lived user token with on a server (only a new consent
     * does), and the Page token the account publishes with does not expire: null, always, unless
     * the token at hand has already expired (then `reauthorize`). The caller alerts the owner
     * before `refreshExpiresAt` (the user token's 60 days), and the daily `profile` check finds a
     * Page token that was invalidated.
     */
    async refresh({ tokens }) {
      const expiry = tokens.accessExpiresAt;
      if (expiry && expiry.getTime() <= Date.now()) {
        throw new PlatformError('instagram', 'reauthorize', 'the Instagram authorization expired; authorize Instagram again');
      }
      return null;
    },

    async profile({ accessToken }, options) {
      // With the Page token, /me is the Page, and its linked account is the one chosen.
      const page = await call('me', { fields: 'id,name,instagram_business_account' }, { token: accessToken }, options);
      const igUserId = str((page.instagram_business_account as Record<string, unknown> | undefined)?.id);
      if (!igUserId) {
        throw new PlatformError(
          'instagram',
          'reauthorize',
          'no Instagram professional account is linked to this Page; link one and authorize again',
        );
      }
      const ig = await call(igUserId, { fields: 'id,username,name,profile_picture_url' }, { token: accessToken }, options);
      return {
        externalId: igUserId,
        username: str(ig.username),
        displayName: str(ig.name),
        avatarUrl: str(ig.profile_picture_url),
      } satisfies AccountProfile;
    },

    async preflight({ accessToken, externalId }, options) {
      const limit = await quota(externalId, accessToken, options);
      return {
        privacyLevels: ['PUBLIC'],
        maxDurationSec: REELS_MAX_DURATION_SEC,
        postsLeft: limit ? Math.max(0, limit.total - limit.used) : null,
        commentDisabled: false,
        duetDisabled: true,
        stitchDisabled: true,
      } satisfies Preflight;
    },

    async publish({ accessToken, externalId, request, ledger }, options = {}) {
      const token = accessToken;
      if (request.durationSec > REELS_MAX_DURATION_SEC || request.durationSec < REELS_MIN_DURATION_SEC) {
        throw new PlatformError(
          'instagram',
          'media_rejected',
          `a Reel lasts 3 s to 15 min; this video lasts ${Math.round(request.durationSec)} s`,
        );
      }
      if (request.size > REELS_MAX_BYTES) {
        throw new PlatformError('instagram', 'media_rejected', `a Reel is at most ${REELS_MAX_BYTES / 1024 / 1024} MB`);
      }
      const done = async (mediaId: string, entry: LedgerEntry): Promise<PublishOutcome> => {
        if (entry.phase !== 'published' || entry.postId !== mediaId)
          await ledger.write({ ...entry, phase: 'published', postId: mediaId });
        return { status: 'published', postId: mediaId, postUrl: await mediaLink(mediaId, token, options) };
      };

      let entry = await ledger.read();
      if (entry?.phase === 'published' && entry.postId) return done(entry.postId, entry);

      // What the stored container is worth now.
      if (entry && entry.phase !== 'failed') {
        const status = await container(entry.externalId, token, options);
        if (status.status_code === 'PUBLISHED') {
          const mediaId = await findPublished(externalId, request.caption, token, options);
          if (!mediaId) {
            // Published, but not found among the recent media: never publish it again.
            await ledger.write({ ...entry, phase: 'published', detail: 'published; media id not found' });
            return { status: 'published', postId: null, postUrl: null };
          }
          return done(mediaId, entry);
        }
        if (status.status_code === 'EXPIRED' || status.status_code === 'ERROR') {
          // A container that can no longer be published never makes a post: a new one may.
          await ledger.write({ ...entry, phase: 'failed', detail: status.status ?? status.status_code });
          entry = null;
        }
      } else {
        entry = null;
      }

      if (!entry) {
        // Nothing is made when the day's allowance is spent (the container would only expire).
        const limit = await quota(externalId, token, options);
        if (limit && limit.used >= limit.total) {
          throw new PlatformError(
            'instagram',
            'daily_limit',
            `Instagram's daily limit of ${limit.total} posts is reached; try again tomorrow`,
            undefined,
            '9/2207042',
          );
        }
        const made = await call(
          `${externalId}/media`,
          {},
          {
            method: 'POST',
            token,
            once: true,
            form: { media_type: 'REELS', upload_type: 'resumable', caption: request.caption },
          },
          options,
        );
        const id = str(made.id);
        if (!id) throw new PlatformError('instagram', 'other', 'Meta answered no container id');
        entry = { phase: 'initialized', externalId: id, uploadUrl: str(made.uri) ?? undefined, bytesConfirmed: 0 };
        // The container is on record before a byte leaves (a crash then resumes this one).
        await ledger.write(entry);
      }

      if (entry.phase === 'initialized') {
        await upload(entry, { accessToken: token, request }, ledger, options);
        entry = { ...entry, phase: 'uploaded', bytesConfirmed: request.size };
      }

      const status = await processed(entry.externalId, token, options);
      if (!status) return { status: 'processing', postId: null, postUrl: null };
      if (status.status_code === 'ERROR') {
        await ledger.write({ ...entry, phase: 'failed', detail: status.status });
        throw new PlatformError(
          'instagram',
          'media_rejected',
          `Instagram could not process the video: ${status.status ?? 'no reason given'}`.slice(0, 400),
        );
      }
      if (status.status_code === 'EXPIRED') {
        await ledger.write({ ...entry, phase: 'failed', detail: 'EXPIRED' });
        throw new PlatformError(
          'instagram',
          'other',
          'the Instagram container expired before it was published; the next attempt makes a new one',
        );
      }

      entry = { ...entry, phase: 'publish_requested' };
      // On record before the one call that makes a post.
      await ledger.write(entry);
      for (let attempt = 0; ; attempt += 1) {
        try {
          const answer = await call(
            `${externalId}/media_publish`,
            {},
            { method: 'POST', token, once: true, form: { creation_id: entry.externalId } },
            options,
          );
          const mediaId = str(answer.id);
          if (!mediaId) throw new PlatformError('instagram', 'in_doubt', 'Meta answered the publish without a media id');
          return await done(mediaId, entry);
        } catch (error) {
          if (!isNotReady(error) || attempt >= maxNotReady) throw error;
        }
        await sleep(pollIntervalMs, undefined, { signal: options.signal });
      }
    },

    async postStats({ accessToken, postIds }, options) {
      const stats = new Map<string, PostStats>();
      for (const id of postIds) {
        let media: Record<string, unknown>;
        try {
          media = await call(id, { fields: 'id,permalink,like_count,comments_count' }, { token: accessToken }, options);
        } catch (error) {
          // A post deleted on Instagram has no stats any more; the others still do.
          if (error instanceof PlatformError && error.kind === 'other') {
            stats.set(id, { views: null, likes: null, comments: null, url: null });
            continue;
          }
          throw error;
        }
        // Views need instagram_manage_insights, which is not asked for.
        stats.set(id, {
          views: null,
          likes: num(media.like_count),
          comments: num(media.comments_count),
          url: str(media.permalink),
        });
      }
      return stats;
    },

    async revoke({ tokens }, options) {
      // The user token (kept as refreshToken) names the user; a Page token's /me is the Page.
      const token = tokens.refreshToken ?? tokens.accessToken;
      try {
        await call('me/permissions', {}, { method: 'DELETE', token }, options);
      } catch (error) {
        // An authorization that no longer works has nothing left to revoke.
        if (error instanceof PlatformError && error.kind === 'reauthorize') return;
        throw error;
      }
    },
  };
  return publisher;
}
