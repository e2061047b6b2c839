import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readBody, type FakeRequest } from './google';

/**
 * A small stand-in for TikTok's Login Kit (OAuth 2.0 with PKCE) and the Content Posting API's
 * Direct Post with FILE_UPLOAD, on 127.0.0.1, answering the documented requests with the
 * documented shapes: the v2 envelope `{data, error: {code, message, log_id}}` for the API, and
 * `{error, error_description, log_id}` for the OAuth endpoints.
 * - GET  /v2/auth/authorize/                     consent: redirects to redirect_uri with ?code&scopes&state (or ?error)
 * - POST /v2/oauth/token/                        authorization_code (code_verifier checked against the HEX SHA-256
 *                                                challenge: a base64url one is refused, as TikTok does) and refresh_token
 * - POST /v2/oauth/revoke/                       ends the grant of an access token
 * - GET  /v2/user/info/?fields=...               user.info.basic fields
 * - POST /v2/post/publish/creator_info/query/    privacy options, max duration, disabled interactions (20/min per token)
 * - POST /v2/post/publish/video/init/            Direct Post init, FILE_UPLOAD, with the chunk rules (6/min per token)
 * - PUT  /upload/?upload_id=&upload_token=       the bytes, in order, with Content-Range; 206 then 201
 * - POST /v2/post/publish/status/fetch/          PROCESSING_UPLOAD → PUBLISH_COMPLETE | FAILED (30/min per token)
 *
 * Limits kept as documented: access tokens live 24 h, refresh tokens 365 days and rotate on
 * refresh (the old one then answers invalid_grant); an upload URL lives one hour; a creator may
 * post about 15 times a day (403 spam_risk_too_many_posts); an unaudited client may only post
 * SELF_ONLY, and not at all from a public account. Where TikTok's "MB" is ambiguous (the media
 * transfer guide), the fake takes the stricter reading of each bound: chunks of at least 5·2^20
 * bytes and at most 64·10^6, a last chunk of at most 128·10^6, a file sent whole only up to 64·10^6.
 */

export interface FakeTiktokUser {
  openId: string;
  unionId?: string;
  displayName: string;
  /** The @handle (creator_username). */
  username: string;
  avatarUrl?: string;
  /** A private account offers FOLLOWER_OF_CREATOR instead of PUBLIC_TO_EVERYONE. */
  privateAccount?: boolean;
  maxVideoPostDurationSec?: number;
  commentDisabled?: boolean;
  duetDisabled?: boolean;
  stitchDisabled?: boolean;
}

/** A request as the fake saw it (Google's fake's shape: `body` is the parsed form), with its body's size. */
export interface FakeTiktokRequest extends FakeRequest {
  /** Body bytes received. */
  bytes: number;
}

export type FakePublishStatus = 'PROCESSING_UPLOAD' | 'PUBLISH_COMPLETE' | 'FAILED';

/** One video/init, and what became of it. */
export interface FakeTiktokInit {
  publishId: string;
  uploadUrl: string;
  openId: string;
  postInfo: Record<string, unknown>;
  videoSize: number;
  chunkSize: number;
  totalChunkCount: number;
  createdAt: Date;
  /** Bytes kept so far (in order). */
  received: number;
  status: FakePublishStatus;
  failReason?: string;
  /** Status calls left before processing ends (see setProcessing). */
  pollsLeft: number;
  /** The post id once public (never for SELF_ONLY). */
  postId?: string;
}

/** A post made: every upload that reached PUBLISH_COMPLETE. */
export interface FakeTiktokPost {
  publishId: string;
  openId: string;
  postId: string | null;
  title: string;
  privacyLevel: string;
  isAigc: boolean;
  bytes: number;
  sha256: string;
}

/** A v2 error the next matching call answers. */
export interface FakeTiktokFailure {
  status: number;
  code: string;
  message?: string;
}

export interface FakeTiktok {
  url: string;
  authUrl: string;
  apiUrl: string;
  requests: FakeTiktokRequest[];
  inits: FakeTiktokInit[];
  posts: FakeTiktokPost[];
  addClient(clientKey: string, clientSecret: string, redirectUris: string[]): void;
  addUser(user: FakeTiktokUser): void;
  /** The user the next consent approves (the last one added by default). */
  useUser(openId: string): void;
  /** What the consent page does next: approve (default), or deny (`error=access_denied`). */
  setConsent(answer: 'approve' | 'deny', grantedScopes?: string[]): void;
  /** An access and refresh token for a user without the browser dance (all scopes by default). */
  issueTokens(clientKey: string, openId: string, scopes?: string[]): { accessToken: string; refreshToken: string };
  /** Whether a refresh answers a new refresh token (default true; the old one then stops working). */
  setRotateRefreshTokens(rotate: boolean): void;
  /** An unaudited client: SELF_ONLY only, and no post at all from a public account. */
  setUnaudited(unaudited: boolean): void;
  /** Posts per creator per 24 h before spam_risk_too_many_posts (default 15). */
  setDailyPostCap(cap: number): void;
  /** Status calls a finished upload stays PROCESSING_UPLOAD (default 1), and how it ends. */
  setProcessing(polls: number, outcome?: { failReason: string }): void;
  /** The next `count` calls to paths starting with `path` answer this v2 error. `count` 0 clears. */
  failNext(path: string, count: number, failure: FakeTiktokFailure): void;
  /** The next `count` requests under `path` answer `status` with this HTML page (a gateway). */
  answerPageNext(path: string, count: number, status: number, html: string): void;
  /** The next request under `path` is carried out, then its connection dropped without an answer. */
  dropAnswerNext(path: string): void;
  /** The next upload PUT keeps at most `bytes` of its chunk (nothing, as the chunk is incomplete) and drops the connection. */
  breakUploadAfter(bytes: number): void;
  /** The next `count` upload PUTs answer 503 and keep nothing. */
  failNextUploadChunks(count: number): void;
  /** The fake's clock (default the real one): token and upload URL expiry, rate windows, the daily cap. */
  setNow(now: () => Date): void;
  close(): Promise<void>;
}

export const FAKE_TIKTOK_SCOPES = ['user.info.basic', 'video.publish'];
const ACCESS_TTL_S = 86_400;
const REFRESH_TTL_S = 31_536_000;
const CODE_TTL_MS = 10 * 60_000;
const UPLOAD_URL_TTL_MS = 60 * 60_000;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const MAX_TITLE_UTF16 = 2200;
const MAX_VIDEO_BYTES = 4 * 1024 ** 3;
export const TIKTOK_MIN_CHUNK = 5 * 2 ** 20;
export const TIKTOK_MAX_CHUNK = 64 * 10 ** 6;
export const TIKTOK_MAX_LAST_CHUNK = 128 * 10 ** 6;
export const TIKTOK_MAX_CHUNKS = 1000;
/** Per access token, per minute (creator_info, init, status; user/info is 600). */
const RATE_LIMITS: Record<string, number> = {
  '/v2/user/info/': 600,
  '/v2/post/publish/creator_info/query/': 20,
  '/v2/post/publish/video/init/': 6,
  '/v2/post/publish/status/fetch/': 30,
};
const ALL_PRIVACY_PUBLIC = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
const ALL_PRIVACY_PRIVATE = ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
const USER_FIELDS = new Set(['open_id', 'union_id', 'avatar_url', 'avatar_url_100', 'avatar_large_url', 'display_name']);
const PROFILE_FIELDS = new Set(['username', 'bio_description', 'profile_deep_link', 'is_verified']);

/**
 * Why a FILE_UPLOAD source breaks the media transfer guide's chunk rules, or null: count =
 * floor(size / chunk), 1 to 1000 chunks, each at least 5 MB and at most 64 MB, the last one up
 * to 128 MB; a file under 5 MB whole; a file over 64 MB in chunks.
 */
export function tiktokChunkRuleBroken(videoSize: number, chunkSize: number, count: number): string | null {
  if (![videoSize, chunkSize, count].every((n) => Number.isSafeInteger(n) && n > 0)) {
    return 'video_size, chunk_size and total_chunk_count must be positive integers';
  }
  if (videoSize > MAX_VIDEO_BYTES) return 'video_size is over 4 GB';
  if (count !== Math.floor(videoSize / chunkSize)) return 'total_chunk_count must be floor(video_size / chunk_size)';
  if (count > TIKTOK_MAX_CHUNKS) return 'at most 1000 chunks';
  if (videoSize < TIKTOK_MIN_CHUNK) return chunkSize === videoSize ? null : 'a video under 5 MB is uploaded whole';
  if (count === 1 && chunkSize === videoSize) {
    return videoSize <= TIKTOK_MAX_CHUNK ? null : 'a video over 64 MB must be uploaded in chunks';
  }
  if (chunkSize < TIKTOK_MIN_CHUNK || chunkSize > TIKTOK_MAX_CHUNK) return 'chunk_size must be between 5 MB and 64 MB';
  const last = videoSize - (count - 1) * chunkSize;
  if (last > TIKTOK_MAX_LAST_CHUNK) return 'the last chunk may not exceed 128 MB';
  if (count === 1 && videoSize > TIKTOK_MAX_CHUNK) return 'a video over 64 MB must be uploaded in chunks';
  return null;
}

const logId = () => crypto.randomBytes(12).toString('hex').toUpperCase();

function send(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
}

/** The v2 envelope: `{data, error: {code, message, log_id}}`. */
function envelope(res: http.ServerResponse, status: number, data: unknown, code = 'ok', message = ''): void {
  send(res, status, { data: data ?? {}, error: { code, message, log_id: logId() } });
}

/** The OAuth endpoints' error shape. */
function oauthError(res: http.ServerResponse, status: number, error: string, description: string): void {
  send(res, status, { error, error_description: description, log_id: logId() });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface FakeTiktokOptions {
  port?: number;
  /**
   * For clicking through flows by hand (`npm run fakes`): any client key is accepted (its secret
   * is remembered on first use, each redirect URI on first consent), and consent is given by this user.
   */
  lenient?: { user: FakeTiktokUser };
}

export async function startFakeTiktok(options: FakeTiktokOptions = {}): Promise<FakeTiktok> {
  const clients = new Map<string, { secret: string; redirectUris: string[] }>();
  const users = new Map<string, FakeTiktokUser>();
  const codes = new Map<
    string,
    { clientKey: string; redirectUri: string; openId: string; scopes: string[]; challenge: string; at: number }
  >();
  interface Grant {
    clientKey: string;
    openId: string;
    scopes: string[];
    revoked: boolean;
  }
  const accessTokens = new Map<string, { grant: Grant; expiresAt: number }>();
  const refreshTokens = new Map<string, { grant: Grant; expiresAt: number; replaced: boolean }>();
  const requests: FakeTiktokRequest[] = [];
  const inits: FakeTiktokInit[] = [];
  const posts: FakeTiktokPost[] = [];
  const uploads = new Map<string, { init: FakeTiktokInit; token: string; chunks: Buffer[] }>();
  const calls = new Map<string, number[]>();
  const sockets = new Set<Socket>();
  let currentUser: string | undefined;
  let consent: { answer: 'approve' | 'deny'; scopes?: string[] } = { answer: 'approve' };
  let rotate = true;
  let unaudited = false;
  let dailyCap = 15;
  let processing: { polls: number; failReason?: string } = { polls: 1 };
  let failures: Array<{ path: string; count: number; failure: FakeTiktokFailure }> = [];
  let page: { path: string; count: number; status: number; html: string } | undefined;
  let drop: string | undefined;
  let breakAfter: number | null = null;
  let chunkFailures = 0;
  let now: () => Date = () => new Date();
  let url = '';
  const t = () => now().getTime();
  if (options.lenient) {
    users.set(options.lenient.user.openId, options.lenient.user);
    currentUser = options.lenient.user.openId;
  }
  const token = (prefix: string) => `${prefix}.${crypto.randomBytes(24).toString('base64url')}`;

  function mint(grant: Grant): Record<string, unknown> {
    const access = token('act');
    const refresh = token('rft');
    accessTokens.set(access, { grant, expiresAt: t() + ACCESS_TTL_S * 1000 });
    refreshTokens.set(refresh, { grant, expiresAt: t() + REFRESH_TTL_S * 1000, replaced: false });
    return {
      access_token: access,
      expires_in: ACCESS_TTL_S,
      open_id: grant.openId,
      refresh_token: refresh,
      refresh_expires_in: REFRESH_TTL_S,
      scope: grant.scopes.join(','),
      token_type: 'Bearer',
    };
  }

  /** The grant of the request's bearer token, or the documented 401 answered. */
  function authorized(req: http.IncomingMessage, res: http.ServerResponse, scope: string): Grant | null {
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const session = bearer ? accessTokens.get(bearer) : undefined;
    if (!session || session.grant.revoked || session.expiresAt <= t()) {
      envelope(res, 401, {}, 'access_token_invalid', 'The access token is invalid or not found in the request.');
      return null;
    }
    if (!session.grant.scopes.includes(scope)) {
      envelope(
        res,
        401,
        {},
        'scope_not_authorized',
        `The user did not authorize the scope required for completing this request.`,
      );
      return null;
    }
    return session.grant;
  }

  /** The per-token per-minute limit of `path`: false (and a 429 answered) when spent. */
  function withinRate(req: http.IncomingMessage, res: http.ServerResponse, path: string): boolean {
    const limit = RATE_LIMITS[path];
    if (!limit) return true;
    const key = `${path} ${req.headers.authorization ?? ''}`;
    const recent = (calls.get(key) ?? []).filter((at) => at > t() - MINUTE_MS);
    if (recent.length >= limit) {
      calls.set(key, recent);
      envelope(res, 429, {}, 'rate_limit_exceeded', 'API rate limit was exceeded, please try again later.');
      return false;
    }
    recent.push(t());
    calls.set(key, recent);
    return true;
  }

  function privacyOptions(user: FakeTiktokUser): string[] {
    return user.privateAccount ? ALL_PRIVACY_PRIVATE : ALL_PRIVACY_PUBLIC;
  }

  const postTimes = new Map<string, number[]>();

  function authorize(address: URL, res: http.ServerResponse): void {
    const q = address.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    const key = q.get('client_key') ?? '';
    if (options.lenient && key) {
      if (!clients.has(key)) clients.set(key, { secret: '', redirectUris: [] });
      if (/^https?:\/\//.test(redirectUri) && !clients.get(key)!.redirectUris.includes(redirectUri))
        clients.get(key)!.redirectUris.push(redirectUri);
    }
    const client = clients.get(key);
    // Like TikTok's consent page, a bad request shows an error page rather than redirecting.
    const refuse = (what: string) => {
      res.writeHead(400, { 'content-type': 'text/html; charset=UTF-8' });
      res.end(`<html><body>Something went wrong. Please correct the following: ${what}</body></html>`);
    };
    if (!client) return refuse('client_key');
    if (!client.redirectUris.includes(redirectUri)) return refuse('redirect_uri');
    if (q.get('response_type') !== 'code') return refuse('response_type');
    const scopes = (q.get('scope') ?? '').split(',').filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !FAKE_TIKTOK_SCOPES.includes(s) && s !== 'user.info.profile')) {
      return refuse('scope');
    }
    const challenge = q.get('code_challenge') ?? '';
    if (!/^[0-9a-f]{64}$/.test(challenge) || q.get('code_challenge_method') !== 'S256') return refuse('code_challenge');
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (consent.answer === 'deny' || !currentUser) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user denied the request');
    } else {
      const granted = consent.scopes ? scopes.filter((s) => consent.scopes!.includes(s)) : scopes;
      const code = crypto.randomBytes(24).toString('base64url');
      codes.set(code, { clientKey: q.get('client_key')!, redirectUri, openId: currentUser, scopes: granted, challenge, at: t() });
      back.searchParams.set('code', code);
      back.searchParams.set('scopes', granted.join(','));
    }
    if (state !== null) back.searchParams.set('state', state);
    res.writeHead(302, { location: back.href, 'content-length': 0 }).end();
  }

  /** The client of an OAuth call, its secret checked (remembered on first use when lenient). */
  function knownClient(form: Record<string, string>): boolean {
    const client = clients.get(form.client_key ?? '');
    if (client && options.lenient && client.secret === '' && form.client_secret) client.secret = form.client_secret;
    return Boolean(client) && client!.secret === form.client_secret;
  }

  function tokenGrant(form: Record<string, string>, res: http.ServerResponse): void {
    if (!knownClient(form)) return oauthError(res, 401, 'invalid_client', 'Client key or secret is incorrect.');
    if (form.grant_type === 'authorization_code') {
      const code = codes.get(form.code ?? '');
      if (!code || code.clientKey !== form.client_key || code.at + CODE_TTL_MS <= t()) {
        return oauthError(res, 400, 'invalid_grant', 'Authorization code is expired.');
      }
      if (code.redirectUri !== form.redirect_uri) return oauthError(res, 400, 'invalid_grant', 'Redirect URI mismatch.');
      const verifier = form.code_verifier ?? '';
      const hex = crypto.createHash('sha256').update(verifier, 'ascii').digest('hex');
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || hex !== code.challenge) {
        return oauthError(res, 400, 'invalid_request', 'Code verifier or code challenge is invalid.');
      }
      codes.delete(form.code!);
      return send(res, 200, mint({ clientKey: code.clientKey, openId: code.openId, scopes: code.scopes, revoked: false }));
    }
    if (form.grant_type === 'refresh_token') {
      const held = refreshTokens.get(form.refresh_token ?? '');
      if (!held || held.replaced || held.grant.revoked || held.expiresAt <= t() || held.grant.clientKey !== form.client_key) {
        return oauthError(res, 400, 'invalid_grant', 'Refresh token is invalid or expired.');
      }
      const access = token('act');
      accessTokens.set(access, { grant: held.grant, expiresAt: t() + ACCESS_TTL_S * 1000 });
      let refresh = form.refresh_token!;
      if (rotate) {
        held.replaced = true;
        refresh = token('rft');
        // The refresh token's year runs from the first authorization (TikTok: "365 days after initial issuance").
        refreshTokens.set(refresh, { grant: held.grant, expiresAt: held.expiresAt, replaced: false });
      }
      return send(res, 200, {
        access_token: access,
        expires_in: ACCESS_TTL_S,
        open_id: held.grant.openId,
        refresh_token: refresh,
        refresh_expires_in: Math.max(0, Math.floor((held.expiresAt - t()) / 1000)),
        scope: held.grant.scopes.join(','),
        token_type: 'Bearer',
      });
    }
    return oauthError(res, 400, 'unsupported_grant_type', 'Grant type is not supported.');
  }

  function revoke(form: Record<string, string>, res: http.ServerResponse): void {
    if (!knownClient(form)) return oauthError(res, 401, 'invalid_client', 'Client key or secret is incorrect.');
    const session = accessTokens.get(form.token ?? '');
    if (!session || session.grant.clientKey !== form.client_key) {
      return oauthError(res, 400, 'invalid_request', 'Token is invalid.');
    }
    session.grant.revoked = true;
    send(res, 200, {});
  }

  function userInfo(address: URL, grant: Grant, res: http.ServerResponse): void {
    const fields = (address.searchParams.get('fields') ?? '').split(',').filter(Boolean);
    if (fields.length === 0 || fields.some((f) => !USER_FIELDS.has(f) && !PROFILE_FIELDS.has(f))) {
      return envelope(res, 400, {}, 'invalid_params', 'fields: invalid field list');
    }
    if (fields.some((f) => PROFILE_FIELDS.has(f)) && !grant.scopes.includes('user.info.profile')) {
      return envelope(res, 401, {}, 'scope_permission_missed', 'Some fields need additional scopes: user.info.profile');
    }
    const user = users.get(grant.openId)!;
    const all: Record<string, unknown> = {
      open_id: user.openId,
      union_id: user.unionId ?? `u-${user.openId}`,
      avatar_url: user.avatarUrl ?? '',
      avatar_url_100: user.avatarUrl ?? '',
      avatar_large_url: user.avatarUrl ?? '',
      display_name: user.displayName,
      username: user.username,
    };
    envelope(res, 200, { user: Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]])) });
  }

  /** Posts by this creator in the last 24 h (across every client, as TikTok counts them). */
  function recentPosts(openId: string): number {
    const times = (postTimes.get(openId) ?? []).filter((at) => at > t() - DAY_MS);
    postTimes.set(openId, times);
    return times.length;
  }

  function creatorInfo(grant: Grant, res: http.ServerResponse): void {
    const user = users.get(grant.openId)!;
    if (recentPosts(user.openId) >= dailyCap) {
      return envelope(res, 403, {}, 'spam_risk_too_many_posts', 'The user has reached the daily post limit.');
    }
    envelope(res, 200, {
      creator_avatar_url: user.avatarUrl ?? '',
      creator_username: user.username,
      creator_nickname: user.displayName,
      privacy_level_options: privacyOptions(user),
      comment_disabled: Boolean(user.commentDisabled),
      duet_disabled: Boolean(user.duetDisabled),
      stitch_disabled: Boolean(user.stitchDisabled),
      max_video_post_duration_sec: user.maxVideoPostDurationSec ?? 600,
    });
  }

  function init(grant: Grant, body: unknown, res: http.ServerResponse): void {
    const user = users.get(grant.openId)!;
    const bad = (message: string) => envelope(res, 400, {}, 'invalid_param', message);
    if (!isRecord(body) || !isRecord(body.post_info) || !isRecord(body.source_info))
      return bad('post_info and source_info are required');
    const post = body.post_info;
    const source = body.source_info;
    if (typeof post.title !== 'undefined' && typeof post.title !== 'string') return bad('title must be a string');
    if (typeof post.title === 'string' && post.title.length > MAX_TITLE_UTF16)
      return bad('title is longer than 2200 UTF-16 runes');
    if (typeof post.brand_content_toggle !== 'boolean') return bad('brand_content_toggle is required');
    for (const key of ['disable_duet', 'disable_stitch', 'disable_comment', 'brand_organic_toggle', 'is_aigc']) {
      if (key in post && typeof post[key] !== 'boolean') return bad(`${key} must be a boolean`);
    }
    if (typeof post.privacy_level !== 'string') return bad('privacy_level is required');
    if (!privacyOptions(user).includes(post.privacy_level)) {
      return envelope(res, 403, {}, 'privacy_level_option_mismatch', 'privacy_level is not among the creator_info options');
    }
    if (unaudited && (!user.privateAccount || post.privacy_level !== 'SELF_ONLY')) {
      return envelope(
        res,
        403,
        {},
        'unaudited_client_can_only_post_to_private_accounts',
        'Unaudited clients can only post to a private account.',
      );
    }
    if (recentPosts(user.openId) >= dailyCap) {
      return envelope(res, 403, {}, 'spam_risk_too_many_posts', 'The user has reached the daily post limit.');
    }
    if (source.source !== 'FILE_UPLOAD') return bad('this fake supports source FILE_UPLOAD only');
    const videoSize = Number(source.video_size);
    const chunkSize = Number(source.chunk_size);
    const count = Number(source.total_chunk_count);
    const broken = tiktokChunkRuleBroken(videoSize, chunkSize, count);
    if (broken) return bad(broken);
    const publishId = `v_pub_file~v2-1.${crypto.randomInt(1e9, 1e10)}${crypto.randomInt(1e8, 1e9)}`;
    const uploadId = crypto.randomBytes(12).toString('hex');
    const uploadToken = crypto.randomBytes(16).toString('hex');
    const uploadUrl = `${url}/upload/?upload_id=${uploadId}&upload_token=${uploadToken}`;
    const record: FakeTiktokInit = {
      publishId,
      uploadUrl,
      openId: user.openId,
      postInfo: post,
      videoSize,
      chunkSize,
      totalChunkCount: count,
      createdAt: now(),
      received: 0,
      status: 'PROCESSING_UPLOAD',
      pollsLeft: processing.polls,
    };
    inits.push(record);
    uploads.set(uploadId, { init: record, token: uploadToken, chunks: [] });
    envelope(res, 200, { publish_id: publishId, upload_url: uploadUrl });
  }

  /** The end of processing: a post (in `posts`), or FAILED with the set reason. */
  function finish(record: FakeTiktokInit, bytes: Buffer): void {
    if (processing.failReason) {
      record.status = 'FAILED';
      record.failReason = processing.failReason;
      return;
    }
    record.status = 'PUBLISH_COMPLETE';
    const privacy = String(record.postInfo.privacy_level);
    if (privacy !== 'SELF_ONLY') record.postId = String(crypto.randomInt(1e9, 1e10)) + String(crypto.randomInt(1e8, 1e9));
    postTimes.set(record.openId, [...(postTimes.get(record.openId) ?? []), t()]);
    posts.push({
      publishId: record.publishId,
      openId: record.openId,
      postId: record.postId ?? null,
      title: typeof record.postInfo.title === 'string' ? record.postInfo.title : '',
      privacyLevel: privacy,
      isAigc: record.postInfo.is_aigc === true,
      bytes: bytes.length,
      sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
    });
  }

  function status(grant: Grant, body: unknown, res: http.ServerResponse): void {
    const publishId = isRecord(body) ? body.publish_id : undefined;
    const record = inits.find((i) => i.publishId === publishId);
    if (typeof publishId !== 'string' || !record) {
      return envelope(res, 400, {}, 'invalid_publish_id', 'The publish_id does not exist.');
    }
    if (record.openId !== grant.openId) {
      return envelope(res, 403, {}, 'token_not_authorized_for_specified_publish_id', 'The token may not read this publish_id.');
    }
    if (record.status === 'PROCESSING_UPLOAD' && record.received === record.videoSize) {
      if (record.pollsLeft > 0) record.pollsLeft -= 1;
      else finish(record, Buffer.concat([...uploads.values()].find((u) => u.init === record)!.chunks));
    }
    const answer = {
      data: {
        status: record.status,
        ...(record.failReason ? { fail_reason: record.failReason } : {}),
        publicaly_available_post_id: record.postId ? [record.postId] : [],
        uploaded_bytes: record.received,
      },
      error: { code: 'ok', message: '', log_id: logId() },
    };
    // The ids are int64 numbers in TikTok's JSON (list<int64>), past JavaScript's exact integers.
    const text = JSON.stringify(answer).replace(
      /"publicaly_available_post_id":\["(\d+)"\]/,
      '"publicaly_available_post_id":[$1]',
    );
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' }).end(text);
  }

  async function upload(req: http.IncomingMessage, res: http.ServerResponse, address: URL): Promise<void> {
    const held = uploads.get(address.searchParams.get('upload_id') ?? '');
    const plain = (status: number, text: string) => {
      req.resume();
      res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
    };
    if (!held || held.token !== address.searchParams.get('upload_token')) return plain(404, 'No upload task for this URL.');
    const record = held.init;
    if (record.createdAt.getTime() + UPLOAD_URL_TTL_MS <= t()) return plain(403, 'The upload URL has expired.');
    if (chunkFailures > 0) {
      chunkFailures -= 1;
      return plain(503, 'Service unavailable, retry submitting this chunk.');
    }
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers['content-range'] ?? ''));
    if (!range) return plain(400, 'Content-Range is required.');
    const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
    if (total !== record.videoSize || last < first || last >= total) return plain(400, 'Content-Range does not match the video.');
    if (first !== record.received) return plain(416, 'Content-Range does not reflect the actual upload progress.');
    const index = Math.round(first / record.chunkSize);
    const isLast = index === record.totalChunkCount - 1;
    const expected = isLast ? record.videoSize - first : record.chunkSize;
    if (first !== index * record.chunkSize || last - first + 1 !== expected)
      return plain(400, 'The chunk does not follow the declared chunk_size.');
    if (breakAfter !== null) {
      const cut = breakAfter;
      breakAfter = null;
      let seen = 0;
      req.on('data', (c: Buffer) => {
        seen += c.length;
        if (seen >= cut) req.socket.destroy();
      });
      req.on('end', () => req.socket.destroy());
      return;
    }
    const bytes = await readBody(req);
    if (bytes.length !== expected || Number(req.headers['content-length']) !== expected) {
      return plain(400, 'Content-Length does not match the chunk.');
    }
    held.chunks.push(bytes);
    record.received += bytes.length;
    const done = record.received === record.videoSize;
    if (drop !== undefined && '/upload/'.startsWith(drop)) {
      // The bytes are kept, and the answer (the 201 maybe) is lost with the connection.
      drop = undefined;
      req.socket.destroy();
      return;
    }
    res.writeHead(done ? 201 : 206, { 'content-range': `bytes 0-${record.received - 1}/${record.videoSize}` }).end();
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const address = new URL(req.url ?? '/', url);
    const path = address.pathname;
    const isUpload = path === '/upload/' && req.method === 'PUT';
    const raw = isUpload ? Buffer.alloc(0) : await readBody(req);
    const text = raw.toString('utf8');
    const type = String(req.headers['content-type'] ?? '');
    let json: unknown;
    let form: Record<string, string> = {};
    if (type.startsWith('application/x-www-form-urlencoded')) form = Object.fromEntries(new URLSearchParams(text));
    else if (type.startsWith('application/json') && text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    requests.push({
      method: req.method ?? '',
      path,
      query: Object.fromEntries(address.searchParams),
      body: form,
      ...(json === undefined ? {} : { json }),
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      ...(req.headers['content-range'] ? { contentRange: String(req.headers['content-range']) } : {}),
      bytes: isUpload ? Number(req.headers['content-length'] ?? 0) : raw.length,
    });
    if (page && page.count > 0 && path.startsWith(page.path)) {
      page.count -= 1;
      req.resume();
      res.writeHead(page.status, { 'content-type': 'text/html; charset=UTF-8' }).end(page.html);
      return;
    }
    const failure = failures.find((f) => f.count > 0 && path.startsWith(f.path));
    if (failure) {
      failure.count -= 1;
      req.resume();
      return envelope(res, failure.failure.status, {}, failure.failure.code, failure.failure.message ?? failure.failure.code);
    }
    if (isUpload) return upload(req, res, address);
    if (path === '/v2/auth/authorize/' && req.method === 'GET') return authorize(address, res);
    if (req.method !== 'POST' && !(path === '/v2/user/info/' && req.method === 'GET')) {
      return envelope(res, 404, {}, 'not_found', 'Not found');
    }
    // The answer is composed in full, then maybe lost (dropAnswerNext): the work is done either way.
    const real = res;
    const sink = dropNowPending(path) ? captureResponse() : real;
    if (path === '/v2/oauth/token/') tokenGrant(form, sink);
    else if (path === '/v2/oauth/revoke/') revoke(form, sink);
    else {
      const scope = path === '/v2/user/info/' ? 'user.info.basic' : 'video.publish';
      const grant = authorized(req, sink, scope);
      if (!grant) return finishDrop(real, sink);
      if (!withinRate(req, sink, path)) return finishDrop(real, sink);
      if (path === '/v2/user/info/') userInfo(address, grant, sink);
      else if (!type.startsWith('application/json'))
        envelope(sink, 400, {}, 'invalid_params', 'Content-Type must be application/json');
      else if (path === '/v2/post/publish/creator_info/query/') creatorInfo(grant, sink);
      else if (path === '/v2/post/publish/video/init/') init(grant, json, sink);
      else if (path === '/v2/post/publish/status/fetch/') status(grant, json, sink);
      else envelope(sink, 404, {}, 'not_found', 'Not found');
    }
    finishDrop(real, sink);
  }

  function dropNowPending(path: string): boolean {
    return drop !== undefined && path.startsWith(drop) && path !== '/upload/';
  }
  /** A response that writes nowhere: the answer made for a request whose answer is lost. */
  function captureResponse(): http.ServerResponse {
    const fake = { writeHead: () => fake, end: () => fake, setHeader: () => fake } as unknown as http.ServerResponse;
    return fake;
  }
  function finishDrop(real: http.ServerResponse, sink: http.ServerResponse): void {
    if (sink === real) return;
    drop = undefined;
    real.socket?.destroy();
  }

  const server = http.createServer((req, res) => {
    res.on('error', () => undefined);
    handle(req, res).catch(() => {
      if (!res.headersSent) envelope(res, 500, {}, 'internal_error', 'Something went wrong.');
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    authUrl: `${url}/v2/auth/authorize/`,
    apiUrl: `${url}/`,
    requests,
    inits,
    posts,
    addClient: (clientKey, clientSecret, redirectUris) => void clients.set(clientKey, { secret: clientSecret, redirectUris }),
    addUser(user) {
      users.set(user.openId, user);
      currentUser = user.openId;
    },
    useUser: (openId) => void (currentUser = openId),
    setConsent: (answer, grantedScopes) => void (consent = { answer, ...(grantedScopes ? { scopes: grantedScopes } : {}) }),
    issueTokens(clientKey, openId, scopes = FAKE_TIKTOK_SCOPES) {
      const minted = mint({ clientKey, openId, scopes, revoked: false });
      return { accessToken: String(minted.access_token), refreshToken: String(minted.refresh_token) };
    },
    setRotateRefreshTokens: (value) => void (rotate = value),
    setUnaudited: (value) => void (unaudited = value),
    setDailyPostCap: (cap) => void (dailyCap = cap),
    setProcessing: (polls, outcome) => void (processing = { polls, ...(outcome ? { failReason: outcome.failReason } : {}) }),
    failNext(path, count, failure) {
      failures = failures.filter((f) => f.path !== path);
      if (count > 0) failures.push({ path, count, failure });
    },
    answerPageNext: (path, count, status, html) => void (page = { path, count, status, html }),
    dropAnswerNext: (path) => void (drop = path),
    breakUploadAfter: (bytes) => void (breakAfter = bytes),
    failNextUploadChunks: (count) => void (chunkFailures = count),
    setNow: (next) => void (now = next),
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
