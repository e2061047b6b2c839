import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small stand-in for Meta's Facebook Login dialog, the Graph API (v21.0) and the resumable
 * upload host (rupload), on 127.0.0.1, answering the documented requests with the documented
 * shapes and Meta's error envelope `{error: {message, type, code, error_subcode, fbtrace_id}}`:
 * - GET    /v21.0/dialog/oauth                        consent: redirects to redirect_uri with ?code&state (or ?error=access_denied)
 * - GET    /v21.0/oauth/access_token                  code exchange (short-lived user token), grant_type=fb_exchange_token (60 days)
 * - GET    /v21.0/me                                  the token's user, or with a Page token the Page (+ instagram_business_account)
 * - GET    /v21.0/me/accounts                         the user's Pages, their tokens and linked Instagram accounts, paginated
 * - GET    /v21.0/me/permissions, DELETE (revokes every token of the user for the app)
 * - GET    /v21.0/{ig-user-id}                        username, name, profile_picture_url
 * - GET    /v21.0/{ig-user-id}/content_publishing_limit  {data: [{quota_usage, config: {quota_total, quota_duration}}]}
 * - POST   /v21.0/{ig-user-id}/media                  media_type=REELS&upload_type=resumable&caption → {id, uri}
 * - GET    /v21.0/{ig-user-id}/media                  the account's media, newest first
 * - POST   /ig-api-upload/v21.0/{container-id}        the bytes (Authorization: OAuth, offset, file_size)
 * - GET    /v21.0/{container-id}                      status_code IN_PROGRESS → FINISHED (after a settable delay), ERROR, EXPIRED, PUBLISHED
 * - POST   /v21.0/{ig-user-id}/media_publish          creation_id → {id}
 * - GET    /v21.0/{media-id}                          permalink, like_count, comments_count, ...
 * The Graph and the upload host share one origin (`url`), or with `separateUploadHost` the upload
 * host has its own (`uploadUrl`); the client is handed both.
 * Tokens go as `Authorization: Bearer|OAuth <token>` or `access_token=`; parameters in the query
 * or a form body. Tokens expire on the fake's clock (`setNow`).
 */

export const FAKE_META_VERSION = 'v21.0';

export interface FakeIgAccount {
  id: string;
  username: string;
  name: string;
  profilePictureUrl: string;
}

export interface FakePage {
  id: string;
  name: string;
  /** The linked Instagram professional account, if any. */
  instagram?: FakeIgAccount;
}

export interface FakeMetaUser {
  id: string;
  name: string;
  pages: FakePage[];
}

export interface FakeMetaRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  authorization?: string;
  headers: Record<string, string | undefined>;
  /** Bytes of an upload's body. */
  bodyBytes?: number;
}

export interface FakeContainer {
  id: string;
  igUserId: string;
  caption: string;
  createdAt: Date;
  fileSize: number | null;
  bytes: Buffer[];
  received: number;
  uploadedAt: Date | null;
  /** Set by failure injection: the container ends in ERROR with this status text. */
  error: string | null;
  mediaId: string | null;
}

export interface FakeMedia {
  id: string;
  igUserId: string;
  containerId: string;
  caption: string;
  size: number;
  timestamp: Date;
  permalink: string;
  likeCount: number;
  commentsCount: number;
}

/** A Meta error to answer (`status` defaults to 400). */
export interface FakeMetaError {
  code: number;
  subcode?: number;
  message?: string;
  status?: number;
  type?: string;
}

export interface FakeMeta {
  url: string;
  /** Graph API base for the client (`url` + '/'), and the upload host's. */
  apiUrl: string;
  uploadUrl: string;
  authUrl: string;
  requests: FakeMetaRequest[];
  containers: FakeContainer[];
  /** Every published media, oldest first. */
  media: FakeMedia[];
  addApp(clientId: string, clientSecret: string): void;
  addUser(user: FakeMetaUser): void;
  /** Who consents at the dialog next (default the first user). */
  setConsentUser(userId: string): void;
  setConsent(answer: 'approve' | 'deny'): void;
  setClock(now: () => Date): void;
  /** How long a container stays IN_PROGRESS after its last byte (default 0). */
  setProcessingDelay(ms: number): void;
  /** The daily allowance (`quota_total`, default 100) and posts already made outside the fake. */
  setQuota(total: number, usedElsewhere?: number): void;
  /** The next `count` Graph calls (not the dialog, not uploads) answer `error`. */
  failNextApiCalls(count: number, error: FakeMetaError, pathIncludes?: string): void;
  /** The next container made ends in ERROR with this status text once uploaded. */
  failNextContainer(status: string): void;
  /** The next upload request keeps this many bytes, then drops the connection (answer lost). */
  breakNextUploadAfter(bytes: number): void;
  /** The next upload request answers `{debug_info}` (retriable or not) without keeping bytes. */
  failNextUpload(retriable: boolean): void;
  /** The next media_publish publishes, then drops the connection (answer lost). */
  dropNextPublishAnswer(): void;
  /** The next request to a path containing `path` answers this HTML page (a gateway's). */
  answerPageNext(path: string, status: number, html: string): void;
  /** Invalidates every token of a user (190 with this subcode: 460 password changed, 458 app removed). */
  invalidateUser(userId: string, subcode: number): void;
  /** Every token of the user's accounts, for tests that call the API directly. */
  tokensOf(userId: string): string[];
  close(): Promise<void>;
}

export interface FakeMetaOptions {
  port?: number;
  /**
   * Serve the upload host on an origin of its own, as Meta does (graph.facebook.com and
   * rupload.facebook.com): each origin then answers only its own paths.
   */
  separateUploadHost?: boolean;
  /**
   * For clicking through flows by hand (`npm run fakes`): any app id is accepted (its secret is
   * remembered at its first code exchange), and these users are there from the start (the first
   * one consents).
   */
  lenient?: { users: FakeMetaUser[] };
}

const SHORT_TOKEN_SECONDS = 2 * 3600;
const LONG_TOKEN_SECONDS = 5_183_944;
const CONTAINER_LIFETIME_MS = 24 * 3600_000;
const QUOTA_WINDOW_MS = 24 * 3600_000;
const MAX_UPLOAD_BYTES = 300 * 1024 * 1024;

interface TokenRecord {
  kind: 'short' | 'long' | 'page';
  userId: string;
  clientId: string;
  pageId?: string;
  expiresAt: number | null;
  scopes: string[];
  /** Issue order: an invalidation reaches the tokens issued before it. */
  seq?: number;
}

class MetaFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly subcode?: number,
    readonly status = 400,
    readonly type = 'OAuthException',
  ) {
    super(message);
  }
}

function caption(text: string) {
  return {
    chars: [...text].length,
    hashtags: [...text.matchAll(/(^|\s)#[\p{L}\p{N}_]+/gu)].length,
    mentions: [...text.matchAll(/(^|\s)@[\p{L}\p{N}._]+/gu)].length,
  };
}

export async function startFakeMeta(options: FakeMetaOptions = {}): Promise<FakeMeta> {
  const apps = new Map<string, string>();
  const users = new Map<string, FakeMetaUser>();
  const codes = new Map<string, { clientId: string; redirectUri: string; userId: string; scopes: string[]; expiresAt: number }>();
  const tokens = new Map<string, TokenRecord>();
  const invalidated = new Map<string, { subcode: number; seq: number }>();
  let seq = 0;
  const requests: FakeMetaRequest[] = [];
  const containers: FakeContainer[] = [];
  const media: FakeMedia[] = [];
  let consentUser: string | undefined;
  let consent: 'approve' | 'deny' = 'approve';
  let now: () => Date = () => new Date();
  let processingDelayMs = 0;
  let quotaTotal = 100;
  let usedElsewhere = 0;
  let apiFailures: { count: number; error: FakeMetaError; path?: string } = { count: 0, error: { code: 2 } };
  let nextContainerError: string | null = null;
  let breakUploadAfter: number | null = null;
  let uploadFailure: { retriable: boolean } | null = null;
  let dropPublish = false;
  let page: { path: string; status: number; html: string } | undefined;
  let url = '';
  let uploadOrigin = '';

  for (const user of options.lenient?.users ?? []) users.set(user.id, user);
  /** The app's secret (lenient: any app, its secret learnt at first use). */
  const appSecret = (clientId: string | undefined, secret?: string): string | undefined => {
    if (!clientId) return undefined;
    if (options.lenient && !apps.has(clientId) && secret !== undefined) apps.set(clientId, secret);
    return apps.get(clientId) ?? (options.lenient ? '' : undefined);
  };

  const newId = () => String(17_000_000_000_000_000n + BigInt(crypto.randomInt(1, 2 ** 47)));
  const newToken = (prefix: string) => `${prefix}${crypto.randomBytes(24).toString('base64url')}`;

  function issue(record: TokenRecord): string {
    const token = newToken(record.kind === 'page' ? 'EAAP' : 'EAAU');
    tokens.set(token, { ...record, seq: ++seq });
    return token;
  }

  function pageOf(pageId: string): { user: FakeMetaUser; page: FakePage } | undefined {
    for (const user of users.values()) {
      const found = user.pages.find((p) => p.id === pageId);
      if (found) return { user, page: found };
    }
    return undefined;
  }

  function igOwner(igUserId: string): FakePage | undefined {
    for (const user of users.values()) for (const p of user.pages) if (p.instagram?.id === igUserId) return p;
    return undefined;
  }

  function authenticate(token: string | undefined): TokenRecord {
    if (!token) throw new MetaFailure(104, 'An access token is required to request this resource.');
    const record = tokens.get(token);
    if (!record) throw new MetaFailure(190, 'Invalid OAuth access token - Cannot parse access token');
    const revoked = invalidated.get(record.userId);
    if (revoked !== undefined && (record.seq ?? 0) <= revoked.seq) {
      throw new MetaFailure(190, 'Error validating access token: the session has been invalidated.', revoked.subcode);
    }
    if (record.expiresAt !== null && record.expiresAt <= now().getTime()) {
      throw new MetaFailure(190, 'Error validating access token: Session has expired.', 463);
    }
    return record;
  }

  /** May this token act for the Instagram account (its Page's token, or a user managing the Page)? */
  function mayActFor(record: TokenRecord, igUserId: string): FakeIgAccount {
    const owner = igOwner(igUserId);
    const ig = owner?.instagram;
    const found = owner && pageOf(owner.id);
    if (!owner || !ig || !found) {
      throw new MetaFailure(100, `Unsupported get request. Object with ID '${igUserId}' does not exist`, 33);
    }
    const allowed = record.kind === 'page' ? record.pageId === owner.id : found.user.id === record.userId;
    if (!allowed) throw new MetaFailure(10, 'Application does not have permission for this action');
    return ig;
  }

  function needScope(record: TokenRecord, scope: string): void {
    if (!record.scopes.includes(scope))
      throw new MetaFailure(10, `(#10) Application does not have permission for this action (${scope})`);
  }

  function containerStatus(c: FakeContainer): string {
    if (c.mediaId) return 'PUBLISHED';
    if (now().getTime() - c.createdAt.getTime() > CONTAINER_LIFETIME_MS) return 'EXPIRED';
    if (!c.uploadedAt) return 'IN_PROGRESS';
    if (c.error) return 'ERROR';
    return now().getTime() - c.uploadedAt.getTime() >= processingDelayMs ? 'FINISHED' : 'IN_PROGRESS';
  }

  function usage(igUserId: string): number {
    const since = now().getTime() - QUOTA_WINDOW_MS;
    return usedElsewhere + media.filter((m) => m.igUserId === igUserId && m.timestamp.getTime() > since).length;
  }

  function wants(params: Record<string, string>, field: string): boolean {
    return (params.fields ?? '').split(/,(?![^{]*})/).some((f) => f === field || f.startsWith(`${field}{`));
  }

  function igFields(ig: FakeIgAccount, fields: string) {
    const want = (name: string) => fields === '' || fields.split(',').includes(name);
    return {
      id: ig.id,
      ...(want('username') ? { username: ig.username } : {}),
      ...(want('name') ? { name: ig.name } : {}),
      ...(want('profile_picture_url') ? { profile_picture_url: ig.profilePictureUrl } : {}),
    };
  }

  function send(res: http.ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  function sendFailure(res: http.ServerResponse, failure: MetaFailure): void {
    send(res, failure.status, {
      error: {
        message: failure.message,
        type: failure.type,
        code: failure.code,
        ...(failure.subcode === undefined ? {} : { error_subcode: failure.subcode }),
        fbtrace_id: crypto.randomBytes(8).toString('base64url'),
      },
    });
  }

  function dialog(params: Record<string, string>, res: http.ServerResponse): void {
    if (appSecret(params.client_id) === undefined) {
      throw new MetaFailure(101, 'Error validating application. Invalid application ID.');
    }
    if (params.response_type !== 'code') throw new MetaFailure(100, 'Invalid response_type');
    if (!params.redirect_uri || !/^https?:\/\//.test(params.redirect_uri)) throw new MetaFailure(191, 'Invalid redirect_uri');
    if (!params.scope && !params.config_id) throw new MetaFailure(100, 'scope or config_id is required');
    const target = new URL(params.redirect_uri);
    if (params.state) target.searchParams.set('state', params.state);
    const userId = consentUser ?? [...users.keys()][0];
    if (consent === 'deny' || !userId) {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_reason', 'user_denied');
      target.searchParams.set('error_description', 'Permissions error');
    } else {
      const code = newToken('AQ');
      const scopes = (params.scope ?? 'instagram_basic,instagram_content_publish,pages_show_list,pages_read_engagement')
        .split(',')
        .filter(Boolean);
      codes.set(code, {
        clientId: params.client_id!,
        redirectUri: params.redirect_uri,
        userId,
        scopes,
        expiresAt: now().getTime() + 10 * 60_000,
      });
      target.searchParams.set('code', code);
    }
    res.writeHead(302, { location: target.href });
    res.end();
  }

  function accessToken(params: Record<string, string>) {
    const secret = appSecret(params.client_id, params.client_secret);
    if (secret === undefined || secret !== params.client_secret) {
      throw new MetaFailure(101, 'Error validating client secret.', undefined, 400);
    }
    if (params.grant_type === 'fb_exchange_token') {
      const record = authenticate(params.fb_exchange_token);
      if (record.kind === 'page' || record.clientId !== params.client_id) throw new MetaFailure(100, 'Invalid fb_exchange_token');
      const token = issue({ ...record, kind: 'long', expiresAt: now().getTime() + LONG_TOKEN_SECONDS * 1000 });
      return { access_token: token, token_type: 'bearer', expires_in: LONG_TOKEN_SECONDS };
    }
    const grant = codes.get(params.code ?? '');
    if (!grant || grant.clientId !== params.client_id || grant.expiresAt <= now().getTime()) {
      throw new MetaFailure(100, 'Invalid verification code format.', 36007);
    }
    if (grant.redirectUri !== params.redirect_uri) {
      throw new MetaFailure(
        100,
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        36008,
      );
    }
    codes.delete(params.code!);
    const token = issue({
      kind: 'short',
      userId: grant.userId,
      clientId: grant.clientId,
      expiresAt: now().getTime() + SHORT_TOKEN_SECONDS * 1000,
      scopes: grant.scopes,
    });
    return { access_token: token, token_type: 'bearer', expires_in: SHORT_TOKEN_SECONDS };
  }

  function accounts(record: TokenRecord, params: Record<string, string>) {
    if (record.kind === 'page') throw new MetaFailure(100, 'Tried accessing nonexisting field (accounts) on node type (Page)');
    needScope(record, 'pages_show_list');
    const user = users.get(record.userId)!;
    const limit = Math.min(100, Math.max(1, Number(params.limit ?? 25) || 25));
    const start = params.after ? Number(Buffer.from(params.after, 'base64url').toString()) : 0;
    const slice = user.pages.slice(start, start + limit);
    const data = slice.map((p) => ({
      id: p.id,
      name: p.name,
      access_token: issue({
        kind: 'page',
        userId: user.id,
        clientId: record.clientId,
        pageId: p.id,
        expiresAt: record.kind === 'long' ? null : record.expiresAt,
        scopes: record.scopes,
      }),
      tasks: ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'],
      ...(p.instagram && wants(params, 'instagram_business_account')
        ? {
            instagram_business_account: igFields(
              p.instagram,
              /instagram_business_account\{([^}]*)\}/.exec(params.fields ?? '')?.[1] ?? 'id',
            ),
          }
        : {}),
    }));
    const end = start + slice.length;
    const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
    const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(end) } };
    if (end < user.pages.length) paging.next = `${url}/${FAKE_META_VERSION}/me/accounts?after=${cursor(end)}&limit=${limit}`;
    return { data, paging };
  }

  function makeContainer(record: TokenRecord, igUserId: string, params: Record<string, string>) {
    mayActFor(record, igUserId);
    needScope(record, 'instagram_content_publish');
    if (params.media_type !== 'REELS')
      throw new MetaFailure(100, 'The parameter media_type must be REELS here (this fake only makes Reels)');
    if (params.upload_type !== 'resumable')
      throw new MetaFailure(100, 'The parameter video_url is required (or upload_type=resumable)');
    const text = params.caption ?? '';
    const counts = caption(text);
    if (counts.chars > 2200 || counts.hashtags > 30 || counts.mentions > 20) {
      throw new MetaFailure(36004, 'The caption you provided is too long or contains too many hashtags or user tags', 2207010);
    }
    const id = newId();
    containers.push({
      id,
      igUserId,
      caption: text,
      createdAt: now(),
      fileSize: null,
      bytes: [],
      received: 0,
      uploadedAt: null,
      error: nextContainerError,
      mediaId: null,
    });
    nextContainerError = null;
    return { id, uri: `${uploadOrigin}/ig-api-upload/${FAKE_META_VERSION}/${id}` };
  }

  function publish(record: TokenRecord, igUserId: string, params: Record<string, string>) {
    mayActFor(record, igUserId);
    needScope(record, 'instagram_content_publish');
    const c = containers.find((x) => x.id === params.creation_id && x.igUserId === igUserId);
    if (!c) throw new MetaFailure(24, 'The media builder with creation id was not found', 2207006);
    if (c.mediaId) throw new MetaFailure(100, 'The media was already published', 2207006);
    if (usage(igUserId) >= quotaTotal) {
      throw new MetaFailure(
        9,
        'Application request limit reached: the maximum number of posts that is allowed to be published by Content Publishing API',
        2207042,
        400,
      );
    }
    const status = containerStatus(c);
    if (status === 'EXPIRED') throw new MetaFailure(-2, 'The media container has expired', 2207020);
    if (status === 'ERROR') throw new MetaFailure(-1, 'An unknown error occurred while uploading the media', 2207053);
    if (status !== 'FINISHED')
      throw new MetaFailure(
        9007,
        'Media ID is not available: the media is not ready for publishing, please wait for a moment',
        2207027,
      );
    const id = newId();
    c.mediaId = id;
    media.push({
      id,
      igUserId,
      containerId: c.id,
      caption: c.caption,
      size: c.received,
      timestamp: now(),
      permalink: `https://www.instagram.com/reel/${crypto.randomBytes(6).toString('base64url')}/`,
      likeCount: 0,
      commentsCount: 0,
    });
    return { id };
  }

  function node(record: TokenRecord, id: string, params: Record<string, string>) {
    const c = containers.find((x) => x.id === id);
    if (c) {
      mayActFor(record, c.igUserId);
      const status = containerStatus(c);
      return {
        id: c.id,
        status_code: status,
        status:
          status === 'ERROR'
            ? `Error: ${c.error}`
            : status === 'FINISHED'
              ? 'Finished: Media has been uploaded and it is ready to be published.'
              : status,
        video_status: {
          uploading_phase: {
            status: c.uploadedAt ? 'complete' : c.received > 0 ? 'in_progress' : 'not_started',
            bytes_transferred: c.received,
          },
          processing_phase: { status: status === 'IN_PROGRESS' ? 'in_progress' : status === 'ERROR' ? 'error' : 'complete' },
        },
      };
    }
    const m = media.find((x) => x.id === id);
    if (m) {
      mayActFor(record, m.igUserId);
      return {
        id: m.id,
        permalink: m.permalink,
        shortcode: m.permalink.split('/')[4],
        timestamp: m.timestamp.toISOString().replace(/\.\d{3}Z$/, '+0000'),
        media_type: 'VIDEO',
        media_product_type: 'REELS',
        caption: m.caption,
        like_count: m.likeCount,
        comments_count: m.commentsCount,
      };
    }
    const ig = mayActFor(record, id);
    return igFields(ig, params.fields ?? 'username');
  }

  function graph(method: string, parts: string[], params: Record<string, string>, token: string | undefined): unknown {
    if (method === 'GET' && parts.join('/') === 'oauth/access_token') return accessToken(params);
    const record = authenticate(token);
    const [first, second] = parts;
    if (first === 'me') {
      if (second === 'accounts' && method === 'GET') return accounts(record, params);
      if (second === 'permissions') {
        if (record.kind === 'page')
          throw new MetaFailure(100, 'Tried accessing nonexisting field (permissions) on node type (Page)');
        if (method === 'DELETE') {
          invalidated.set(record.userId, { subcode: 458, seq });
          return { success: true };
        }
        return { data: record.scopes.map((permission) => ({ permission, status: 'granted' })) };
      }
      if (second === undefined && method === 'GET') {
        if (record.kind === 'page') {
          const found = pageOf(record.pageId!)!;
          return {
            id: found.page.id,
            name: found.page.name,
            ...(found.page.instagram && wants(params, 'instagram_business_account')
              ? { instagram_business_account: { id: found.page.instagram.id } }
              : {}),
          };
        }
        const user = users.get(record.userId)!;
        return { id: user.id, name: user.name };
      }
    }
    if (parts.length === 2 && second === 'content_publishing_limit' && method === 'GET') {
      mayActFor(record, first!);
      return { data: [{ quota_usage: usage(first!), config: { quota_total: quotaTotal, quota_duration: 86400 } }] };
    }
    if (parts.length === 2 && second === 'media' && method === 'POST') return makeContainer(record, first!, params);
    if (parts.length === 2 && second === 'media' && method === 'GET') {
      mayActFor(record, first!);
      const limit = Math.min(100, Number(params.limit ?? 25) || 25);
      return {
        data: media
          .filter((m) => m.igUserId === first)
          .reverse()
          .slice(0, limit)
          .map((m) => ({
            id: m.id,
            caption: m.caption,
            timestamp: m.timestamp.toISOString().replace(/\.\d{3}Z$/, '+0000'),
            media_product_type: 'REELS',
          })),
      };
    }
    if (parts.length === 2 && second === 'media_publish' && method === 'POST') return publish(record, first!, params);
    if (parts.length === 1 && method === 'GET') return node(record, first!, params);
    throw new MetaFailure(100, `Unsupported ${method.toLowerCase()} request.`, 33);
  }

  function upload(req: http.IncomingMessage, res: http.ServerResponse, containerId: string, body: Buffer): void {
    const debug = (status: number, message: string, retriable = false) =>
      send(res, status, { debug_info: { retriable, type: 'ProcessingFailedError', message } });
    const auth = req.headers.authorization ?? '';
    const match = /^OAuth (\S+)$/.exec(auth);
    if (!match) return debug(401, 'Authorization header with OAuth <token> is required');
    let record: TokenRecord;
    try {
      record = authenticate(match[1]);
    } catch (error) {
      return debug(401, (error as Error).message);
    }
    const c = containers.find((x) => x.id === containerId);
    if (!c) return debug(404, 'Unknown container');
    try {
      mayActFor(record, c.igUserId);
    } catch (error) {
      return debug(403, (error as Error).message);
    }
    if (uploadFailure) {
      const { retriable } = uploadFailure;
      uploadFailure = null;
      return debug(retriable ? 503 : 400, retriable ? 'Temporary upload failure' : 'The video could not be processed', retriable);
    }
    const offset = Number(req.headers.offset);
    const size = Number(req.headers.file_size);
    if (!Number.isInteger(offset) || !Number.isInteger(size) || size <= 0)
      return debug(400, 'offset and file_size headers are required');
    if (size > MAX_UPLOAD_BYTES) return debug(400, 'The video file is too large');
    if (c.fileSize !== null && c.fileSize !== size) return debug(400, 'file_size differs from the first request');
    if (offset !== c.received) return debug(400, `Wrong offset ${offset}: ${c.received} bytes were received`);
    if (c.uploadedAt) return debug(400, 'The upload is already complete');
    c.fileSize = size;
    let kept = body;
    if (breakUploadAfter !== null) {
      kept = body.subarray(0, breakUploadAfter);
      breakUploadAfter = null;
      c.bytes.push(kept);
      c.received += kept.length;
      req.socket.destroy();
      return;
    }
    if (offset + kept.length > size) return debug(400, 'More bytes than file_size');
    c.bytes.push(kept);
    c.received += kept.length;
    if (c.received === size) c.uploadedAt = now();
    send(res, 200, { success: true, message: 'Upload successful.' });
  }

  const handler = (role: 'graph' | 'upload' | 'both') => (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = new URL(req.url ?? '/', url);
      const params: Record<string, string> = Object.fromEntries(target.searchParams);
      const isUpload = target.pathname.startsWith(`/ig-api-upload/`);
      if (!isUpload && (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        Object.assign(params, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
      }
      const auth = req.headers.authorization;
      requests.push({
        method: req.method ?? 'GET',
        path: target.pathname,
        params,
        authorization: auth,
        headers: { offset: req.headers.offset as string | undefined, file_size: req.headers.file_size as string | undefined },
        ...(isUpload ? { bodyBytes: body.length } : {}),
      });
      if (page && target.pathname.includes(page.path)) {
        const { status, html } = page;
        page = undefined;
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end(html);
        return;
      }
      if ((role === 'graph' && isUpload) || (role === 'upload' && !isUpload)) {
        sendFailure(res, new MetaFailure(2500, 'Unknown path components', undefined, 404));
        return;
      }
      if (isUpload) {
        const id = target.pathname.split('/')[3] ?? '';
        upload(req, res, id, body);
        return;
      }
      try {
        const parts = target.pathname.split('/').filter(Boolean);
        if (parts[0] !== FAKE_META_VERSION) throw new MetaFailure(2500, 'Unknown path components', undefined, 404);
        const rest = parts.slice(1);
        if (rest.join('/') === 'dialog/oauth' && req.method === 'GET') {
          dialog(params, res);
          return;
        }
        if (apiFailures.count > 0 && (!apiFailures.path || target.pathname.includes(apiFailures.path))) {
          apiFailures.count -= 1;
          const e = apiFailures.error;
          // Rate limits come with the usage header (percentages of the app's allowance).
          if ([4, 17, 32, 613].includes(e.code))
            res.setHeader('x-app-usage', '{"call_count":100,"total_cputime":20,"total_time":35}');
          throw new MetaFailure(e.code, e.message ?? 'Injected failure', e.subcode, e.status ?? 400, e.type);
        }
        const bearer = /^(?:Bearer|OAuth) (\S+)$/.exec(auth ?? '')?.[1];
        const answer = graph(req.method ?? 'GET', rest, params, bearer ?? params.access_token);
        if (dropPublish && rest[1] === 'media_publish') {
          dropPublish = false;
          req.socket.destroy();
          return;
        }
        send(res, 200, answer);
      } catch (error) {
        if (error instanceof MetaFailure) sendFailure(res, error);
        else send(res, 500, { error: { message: 'An unknown error has occurred.', type: 'OAuthException', code: 1 } });
      }
    });
  };
  const listen = async (server: http.Server, port: number) => {
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const server = http.createServer(handler(options.separateUploadHost ? 'graph' : 'both'));
  url = await listen(server, options.port ?? 0);
  const uploadServer = options.separateUploadHost ? http.createServer(handler('upload')) : undefined;
  uploadOrigin = uploadServer ? await listen(uploadServer, 0) : url;
  const stop = (s: http.Server) =>
    new Promise<void>((resolve) => {
      s.closeAllConnections();
      s.close(() => resolve());
    });

  return {
    url,
    apiUrl: `${url}/`,
    uploadUrl: `${uploadOrigin}/`,
    authUrl: `${url}/${FAKE_META_VERSION}/dialog/oauth`,
    requests,
    containers,
    media,
    addApp: (clientId, clientSecret) => void apps.set(clientId, clientSecret),
    addUser: (user) => void users.set(user.id, user),
    setConsentUser: (userId) => void (consentUser = userId),
    setConsent: (answer) => void (consent = answer),
    setClock: (clock) => void (now = clock),
    setProcessingDelay: (ms) => void (processingDelayMs = ms),
    setQuota: (total, elsewhere = 0) => {
      quotaTotal = total;
      usedElsewhere = elsewhere;
    },
    failNextApiCalls: (count, error, path) => void (apiFailures = { count, error, path }),
    failNextContainer: (status) => void (nextContainerError = status),
    breakNextUploadAfter: (bytes) => void (breakUploadAfter = bytes),
    failNextUpload: (retriable) => void (uploadFailure = { retriable }),
    dropNextPublishAnswer: () => void (dropPublish = true),
    answerPageNext: (path, status, html) => void (page = { path, status, html }),
    invalidateUser: (userId, subcode) => void invalidated.set(userId, { subcode, seq }),
    tokensOf: (userId) => [...tokens].filter(([, r]) => r.userId === userId).map(([t]) => t),
    close: async () => {
      await Promise.all([stop(server), ...(uploadServer ? [stop(uploadServer)] : [])]);
    },
  };
}

/** The same factory under the name the issue's notes use. */
export const createFakeMeta = startFakeMeta;
