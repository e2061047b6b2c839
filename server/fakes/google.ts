import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small stand-in for Google's OAuth 2.0 endpoints and the YouTube Data API v3, on 127.0.0.1,
 * answering the documented requests with the documented shapes and errors
 * (`{error: {code, message, errors: [{reason, domain, message}]}}`):
 * - GET    /o/oauth2/v2/auth                 consent screen: redirects to redirect_uri with ?code&state (or ?error=access_denied)
 * - POST   /token                            authorization_code and refresh_token grants (form-encoded)
 * - GET    /youtube/v3/channels              channels.list(part, mine=true | id=a,b)
 * - POST   /upload/youtube/v3/videos         videos.insert, uploadType=resumable: starts an upload session (Location header)
 * - PUT    <session url>                     the session's bytes, whole or in chunks (Content-Range), 308 + Range
 *                                           while incomplete; `Content-Range: bytes *\/total` asks for the status
 * - GET    /youtube/v3/videos                videos.list(part, id=a,b, at most 50)
 * - PUT    /youtube/v3/videos                videos.update(part=snippet|status)
 * - DELETE /youtube/v3/videos                videos.delete(id)
 * - POST   /upload/youtube/v3/thumbnails/set thumbnails.set(videoId), a JPEG or PNG body of at most 2 MB
 * Every API call needs a bearer access token from /token, except the session PUTs: like Google's,
 * the session URL is the credential. Uploads go to the first channel of the token's account.
 */
export interface FakeChannel {
  id: string;
  title: string;
  subscriberCount: number;
  videoCount: number;
  viewCount: number;
  hiddenSubscriberCount?: boolean;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** A form-encoded body, parsed; empty for other bodies. */
  body: Record<string, string>;
  /** A JSON body, parsed (video metadata, videos.update). */
  json?: unknown;
  authorization?: string;
  /** The Content-Range header of an upload PUT. */
  contentRange?: string;
}

export type FakePrivacyStatus = 'private' | 'public' | 'unlisted';

/** The `status` part of a video resource. */
export interface FakeVideoStatus {
  uploadStatus: 'uploaded' | 'processed' | 'failed' | 'rejected' | 'deleted';
  failureReason?: string;
  rejectionReason?: string;
  privacyStatus: FakePrivacyStatus;
  /** ISO 8601; only with privacyStatus 'private'. Removed when the video goes public. */
  publishAt?: string;
  license: 'youtube' | 'creativeCommon';
  embeddable: boolean;
  publicStatsViewable: boolean;
  madeForKids: boolean;
  selfDeclaredMadeForKids?: boolean;
  containsSyntheticMedia?: boolean;
}

export interface FakeThumbnailSize {
  url: string;
  width: number;
  height: number;
}

/** A video resource as the API answers it (with every part). */
export interface FakeVideo {
  kind: 'youtube#video';
  etag: string;
  id: string;
  snippet: {
    publishedAt: string;
    channelId: string;
    title: string;
    description: string;
    thumbnails: Record<'default' | 'medium' | 'high', FakeThumbnailSize>;
    channelTitle: string;
    tags?: string[];
    categoryId: string;
    liveBroadcastContent: 'none';
    defaultLanguage?: string;
    defaultAudioLanguage?: string;
    localized: { title: string; description: string };
  };
  status: FakeVideoStatus;
  /** Counts as decimal strings, like the API. */
  statistics: { viewCount: string; likeCount: string; favoriteCount: string; commentCount: string };
}

/** A resumable upload session. */
export interface FakeUploadSession {
  id: string;
  /** The session URL answered in Location. */
  uri: string;
  accountId: string;
  channelId: string;
  /** The video resource sent when the session was started. */
  metadata: Record<string, unknown>;
  /** X-Upload-Content-Length, or the total of the first Content-Range that gave one. */
  total: number | null;
  contentType: string;
  /** Bytes kept so far. */
  received: number;
  /** The video made when the last byte arrived. */
  videoId: string | null;
  expired: boolean;
  createdAt: Date;
}

/** A finished upload: the video it made and exactly the bytes that came. */
export interface FakeUpload {
  id: string;
  sessionId: string;
  metadata: Record<string, unknown>;
  contentType: string;
  bytes: number;
  sha256: string;
}

export interface FakeThumbnail {
  videoId: string;
  contentType: string;
  bytes: number;
  sha256: string;
}

/** What `failNextApiCalls` answers, with Google's statuses and domains. */
export type FakeApiFailure = 'quotaExceeded' | 'uploadLimitExceeded' | 'rateLimitExceeded' | 'backendError';

/** A caption track as captions.insert received it. */
export interface FakeCaption {
  id: string;
  videoId: string;
  language: string;
  name: string;
  isDraft: boolean;
  /** The track's file, as sent (SubRip here). */
  body: string;
}

export interface FakeGoogle {
  url: string;
  authUrl: string;
  tokenUrl: string;
  apiUrl: string;
  requests: FakeRequest[];
  addClient(clientId: string, clientSecret: string): void;
  /** An account owning these channels; answers its id. */
  addAccount(channels: FakeChannel[]): string;
  /** The account that the next consent approves (the last one added by default). */
  useAccount(accountId: string): void;
  /** What the consent screen does next: approve (default) or deny. */
  setConsent(answer: 'approve' | 'deny'): void;
  /** Whether the code exchange gives a refresh token (Google omits it when access was granted before without prompt=consent). */
  setIssueRefreshToken(issue: boolean): void;
  issueRefreshToken(clientId: string, accountId: string): string;
  /** The refresh token stops working: /token answers invalid_grant for it. */
  revoke(refreshToken: string): void;
  /**
   * The next `count` API calls (channels.*, videos.*, the start of an upload, thumbnails.set; not
   * the session PUTs) fail: quotaExceeded 403 (default), uploadLimitExceeded 400 (youtube.video),
   * rateLimitExceeded 403, backendError 503. `count` 0 clears it.
   */
  failNextApiCalls(count: number, reason?: FakeApiFailure): void;
  /**
   * The next `count` requests to paths under `path` (e.g. /token, /youtube/v3/) answer `status` with this
   * HTML page, as a gateway in front of Google would. `count` 0 clears it.
   */
  answerPageNext(path: string, count: number, status: number, html: string): void;
  /** The next upload PUT carrying bytes reads at most `bytes` of them, keeps them, and drops the connection. */
  breakUploadAfter(bytes: number): void;
  /**
   * The next upload PUT carrying bytes keeps at most `bytes` of them, then reads no more and never
   * answers (as a stalled network would), until its client goes away.
   */
  holdUploadAfter(bytes: number): void;
  /** The next `count` upload PUTs carrying bytes answer 503 backendError and keep none of their bytes. */
  failNextUploadChunks(count: number): void;
  /** Every unfinished upload session expires: its URL answers 404 from now on. */
  expireUploadSessions(): void;
  /** Every upload session started, by id. */
  uploadSessions: Map<string, FakeUploadSession>;
  /** Finished uploads, oldest first. */
  uploads: FakeUpload[];
  /** Caption tracks inserted (captions.insert), oldest first. */
  captions: FakeCaption[];
  /** The videos YouTube has, by id (deleted ones are removed). */
  videos: Map<string, FakeVideo>;
  /** The last thumbnail set on each video. */
  thumbnails: Map<string, FakeThumbnail>;
  /** A video already on a channel (uploaded and processed unless said otherwise); answers its id. */
  addVideo(video: {
    channelId: string;
    title: string;
    privacyStatus?: FakePrivacyStatus;
    publishAt?: Date;
    uploadStatus?: FakeVideoStatus['uploadStatus'];
    failureReason?: string;
    rejectionReason?: string;
  }): string;
  setVideoStats(videoId: string, stats: { views?: number; likes?: number; comments?: number }): void;
  /**
   * The fake's clock (default the real one): a private video whose publishAt is at or before it
   * is public from the next API call on, and publishAt must be after it.
   */
  setNow(now: () => Date): void;
  close(): Promise<void>;
}

const UPLOAD_PATH = '/upload/youtube/v3/videos';
const THUMBNAIL_PATH = '/upload/youtube/v3/thumbnails/set';
const CAPTIONS_PATH = '/upload/youtube/v3/captions';
const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
/** Every chunk but the last must be a multiple of this, as Google requires. */
const CHUNK_GRANULARITY = 256 * 1024;
const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** Video categories assignable in most regions (videoCategories.list). */
const CATEGORIES = new Set(['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28', '29']);

export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
}

/** Google's error shape. */
function apiError(res: http.ServerResponse, status: number, reason: string, message: string, domain = 'youtube.api'): void {
  json(res, status, { error: { code: status, message, errors: [{ message, domain, reason }] } });
}

const token = (prefix: string) => `${prefix}${crypto.randomBytes(18).toString('base64url')}`;
const etag = () => crypto.randomBytes(12).toString('base64url');
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Comma-separated or repeated parameters (googleapis sends `part=a&part=b`). */
function listParam(url: URL, name: string): string[] {
  return url.searchParams
    .getAll(name)
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter(Boolean);
}

function thumbnailsOf(videoId: string): FakeVideo['snippet']['thumbnails'] {
  return {
    default: { url: `https://i.ytimg.com/vi/${videoId}/default.jpg`, width: 120, height: 90 },
    medium: { url: `https://i.ytimg.com/vi/${videoId}/mqdefault.jpg`, width: 320, height: 180 },
    high: { url: `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`, width: 480, height: 360 },
  };
}

/** The video resource with only the parts asked for. */
function videoResource(video: FakeVideo, parts: string[]): Record<string, unknown> {
  return {
    kind: video.kind,
    etag: video.etag,
    id: video.id,
    ...(parts.includes('snippet') ? { snippet: video.snippet } : {}),
    ...(parts.includes('status') ? { status: video.status } : {}),
    ...(parts.includes('statistics') ? { statistics: video.statistics } : {}),
  };
}

/** A validation failure of video metadata, as videos.insert and videos.update answer it. */
interface MetadataProblem {
  reason: string;
  message: string;
}

/** Checks the writable parts of a video resource the way videos.insert/update do. */
function checkSnippet(snippet: unknown): MetadataProblem | null {
  if (!isRecord(snippet))
    return { reason: 'invalidTitle', message: 'The request metadata specifies an invalid or empty video title.' };
  const { title, description, tags, categoryId, defaultLanguage, defaultAudioLanguage } = snippet;
  if (typeof title !== 'string' || title.trim() === '' || [...title].length > 100 || /[<>]/.test(title)) {
    return { reason: 'invalidTitle', message: 'The request metadata specifies an invalid or empty video title.' };
  }
  if (
    description !== undefined &&
    (typeof description !== 'string' || Buffer.byteLength(description) > 5000 || /[<>]/.test(description))
  ) {
    return { reason: 'invalidDescription', message: 'The request metadata specifies an invalid video description.' };
  }
  if (tags !== undefined) {
    const valid = Array.isArray(tags) && tags.every((t) => typeof t === 'string' && !/[<>]/.test(t));
    const length = valid
      ? (tags as string[]).reduce((sum, t) => sum + t.length + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1)
      : 0;
    if (!valid || length > 500)
      return { reason: 'invalidTags', message: 'The request metadata specifies invalid video keywords.' };
  }
  if (categoryId !== undefined && (typeof categoryId !== 'string' || !CATEGORIES.has(categoryId))) {
    return { reason: 'invalidCategoryId', message: 'The snippet.categoryId property specifies an invalid category ID.' };
  }
  for (const language of [defaultLanguage, defaultAudioLanguage]) {
    if (language !== undefined && (typeof language !== 'string' || !/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(language))) {
      return { reason: 'invalidVideoMetadata', message: 'The request metadata is invalid.' };
    }
  }
  return null;
}

function checkStatus(status: unknown, now: Date): MetadataProblem | null {
  if (status === undefined) return null;
  const invalid = { reason: 'invalidVideoMetadata', message: 'The request metadata is invalid.' };
  if (!isRecord(status)) return invalid;
  const { privacyStatus, publishAt, selfDeclaredMadeForKids, containsSyntheticMedia, embeddable, publicStatsViewable, license } =
    status;
  if (privacyStatus !== undefined && !['private', 'public', 'unlisted'].includes(privacyStatus as string)) return invalid;
  for (const flag of [selfDeclaredMadeForKids, containsSyntheticMedia, embeddable, publicStatsViewable]) {
    if (flag !== undefined && typeof flag !== 'boolean') return invalid;
  }
  if (license !== undefined && license !== 'youtube' && license !== 'creativeCommon') return invalid;
  if (publishAt !== undefined && publishAt !== null) {
    const at = typeof publishAt === 'string' ? Date.parse(publishAt) : NaN;
    if (Number.isNaN(at) || privacyStatus !== 'private' || at <= now.getTime()) {
      return { reason: 'invalidPublishAt', message: 'The request metadata specifies an invalid scheduled publishing time.' };
    }
  }
  return null;
}

/** The writable status fields of a request, over the read-only ones the video has. */
function statusFrom(
  body: Record<string, unknown>,
  readOnly: Pick<FakeVideoStatus, 'uploadStatus' | 'failureReason' | 'rejectionReason'>,
): FakeVideoStatus {
  const privacyStatus = (body.privacyStatus as FakePrivacyStatus | undefined) ?? 'public';
  const status: FakeVideoStatus = {
    ...readOnly,
    privacyStatus,
    license: (body.license as FakeVideoStatus['license'] | undefined) ?? 'youtube',
    embeddable: (body.embeddable as boolean | undefined) ?? true,
    publicStatsViewable: (body.publicStatsViewable as boolean | undefined) ?? true,
    madeForKids: (body.selfDeclaredMadeForKids as boolean | undefined) ?? false,
  };
  if (typeof body.publishAt === 'string') status.publishAt = new Date(body.publishAt).toISOString();
  if (typeof body.selfDeclaredMadeForKids === 'boolean') status.selfDeclaredMadeForKids = body.selfDeclaredMadeForKids;
  if (typeof body.containsSyntheticMedia === 'boolean') status.containsSyntheticMedia = body.containsSyntheticMedia;
  if (status.failureReason === undefined) delete status.failureReason;
  if (status.rejectionReason === undefined) delete status.rejectionReason;
  return status;
}

const NOT_FOUND_VIDEO =
  'The video that you are trying to use cannot be found. Check the value of the id parameter in the request.';
const FORBIDDEN = 'The request is not properly authorized.';

export interface FakeGoogleOptions {
  port?: number;
  /**
   * For clicking through flows by hand (`npm run fakes`): any OAuth client is accepted (its secret
   * is remembered on first use), and consent is given by an account owning these channels.
   */
  lenient?: { channels: FakeChannel[] };
}

export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const clients = new Map<string, string>();
  const accounts = new Map<string, FakeChannel[]>();
  const codes = new Map<string, { clientId: string; redirectUri: string; accountId: string; scope: string }>();
  const refreshTokens = new Map<string, { clientId: string; accountId: string }>();
  const accessTokens = new Map<string, { accountId: string; expiresAt: number }>();
  const requests: FakeRequest[] = [];
  const uploadSessions = new Map<string, FakeUploadSession>();
  const sessionBytes = new Map<string, Buffer[]>();
  const uploads: FakeUpload[] = [];
  const captions: FakeCaption[] = [];
  const videos = new Map<string, FakeVideo>();
  const thumbnails = new Map<string, FakeThumbnail>();
  let currentAccount: string | undefined;
  let consent: 'approve' | 'deny' = 'approve';
  let issueRefresh = true;
  let failures: { count: number; reason: FakeApiFailure } = { count: 0, reason: 'quotaExceeded' };
  let breakAfter: number | null = null;
  let holdAfter: number | null = null;
  let chunkFailures = 0;
  let page: { path: string; count: number; status: number; html: string } | undefined;
  let now: () => Date = () => new Date();
  let url = '';
  if (options.lenient) {
    currentAccount = 'acct-lenient';
    accounts.set(currentAccount, options.lenient.channels);
  }
  const knownClient = (clientId: string | undefined, clientSecret?: string): boolean => {
    if (!clientId) return false;
    if (options.lenient && !clients.has(clientId) && clientSecret !== undefined) clients.set(clientId, clientSecret);
    if (options.lenient && clientSecret === undefined) return true;
    return clients.has(clientId) && (clientSecret === undefined || clients.get(clientId) === clientSecret);
  };

  const allChannels = () => [...accounts.values()].flat();
  const owns = (accountId: string, channelId: string) => (accounts.get(accountId) ?? []).some((c) => c.id === channelId);

  /** Scheduled publication and processing catch up with the clock. */
  function settle(): void {
    const at = now().getTime();
    for (const video of videos.values()) {
      if (video.status.uploadStatus === 'uploaded') video.status.uploadStatus = 'processed';
      if (video.status.privacyStatus === 'private' && video.status.publishAt && Date.parse(video.status.publishAt) <= at) {
        video.status.privacyStatus = 'public';
        delete video.status.publishAt;
      }
    }
  }

  function newVideoId(): string {
    let id: string;
    do id = crypto.randomBytes(8).toString('base64url').slice(0, 11);
    while (videos.has(id));
    return id;
  }

  function createVideo(channelId: string, snippet: Record<string, unknown>, status: FakeVideoStatus): FakeVideo {
    const id = newVideoId();
    const title = String(snippet.title ?? '');
    const description = typeof snippet.description === 'string' ? snippet.description : '';
    const video: FakeVideo = {
      kind: 'youtube#video',
      etag: etag(),
      id,
      snippet: {
        publishedAt: now().toISOString(),
        channelId,
        title,
        description,
        thumbnails: thumbnailsOf(id),
        channelTitle: allChannels().find((c) => c.id === channelId)?.title ?? '',
        ...(Array.isArray(snippet.tags) ? { tags: snippet.tags as string[] } : {}),
        categoryId: typeof snippet.categoryId === 'string' ? snippet.categoryId : '22',
        liveBroadcastContent: 'none',
        ...(typeof snippet.defaultLanguage === 'string' ? { defaultLanguage: snippet.defaultLanguage } : {}),
        ...(typeof snippet.defaultAudioLanguage === 'string' ? { defaultAudioLanguage: snippet.defaultAudioLanguage } : {}),
        localized: { title, description },
      },
      status,
      statistics: { viewCount: '0', likeCount: '0', favoriteCount: '0', commentCount: '0' },
    };
    videos.set(id, video);
    return video;
  }

  /** The `failNextApiCalls` answer, if one is due. */
  function injectedFailure(res: http.ServerResponse): boolean {
    if (failures.count <= 0) return false;
    failures.count -= 1;
    switch (failures.reason) {
      case 'quotaExceeded':
        apiError(
          res,
          403,
          'quotaExceeded',
          'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
          'youtube.quota',
        );
        break;
      case 'uploadLimitExceeded':
        apiError(res, 400, 'uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.', 'youtube.video');
        break;
      case 'rateLimitExceeded':
        apiError(
          res,
          403,
          'rateLimitExceeded',
          'The request cannot be completed because you have exceeded your rate limit.',
          'usageLimits',
        );
        break;
      default:
        apiError(res, 503, 'backendError', 'Backend Error', 'global');
    }
    return true;
  }

  /** The account of the request's bearer token, or a 401 answered. */
  function authorized(req: http.IncomingMessage, res: http.ServerResponse): string | null {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const session = bearer ? accessTokens.get(bearer) : undefined;
    if (!session || session.expiresAt < Date.now()) {
      json(res, 401, {
        error: {
          code: 401,
          message:
            'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
          errors: [
            {
              message: 'Invalid Credentials',
              domain: 'global',
              reason: 'authError',
              location: 'Authorization',
              locationType: 'header',
            },
          ],
          status: 'UNAUTHENTICATED',
        },
      });
      return null;
    }
    return session.accountId;
  }

  /** POST /upload/youtube/v3/videos?uploadType=resumable: validates the metadata and opens a session. */
  function startUpload(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    query: URL,
    accountId: string,
    metadata: unknown,
  ): void {
    if (query.searchParams.get('uploadType') !== 'resumable') {
      apiError(res, 400, 'badRequest', 'This fake supports only uploadType=resumable for videos.insert.', 'global');
      return;
    }
    const parts = listParam(query, 'part');
    if (parts.length === 0) {
      apiError(res, 400, 'required', 'Required parameter: part', 'global');
      return;
    }
    if (!isRecord(metadata)) {
      apiError(res, 400, 'parseError', 'Parse Error', 'global');
      return;
    }
    const problem = checkSnippet(metadata.snippet) ?? checkStatus(metadata.status, now());
    if (problem) {
      apiError(res, 400, problem.reason, problem.message, 'youtube.video');
      return;
    }
    const declared = req.headers['x-upload-content-length'];
    const total = declared === undefined ? null : Number(declared);
    if (total !== null && (!Number.isSafeInteger(total) || total <= 0)) {
      apiError(res, 400, 'badContent', 'Invalid X-Upload-Content-Length header.', 'global');
      return;
    }
    const contentType = String(req.headers['x-upload-content-type'] ?? 'application/octet-stream');
    if (!/^video\//.test(contentType) && contentType !== 'application/octet-stream') {
      apiError(res, 400, 'badContent', `Media type '${contentType}' is not supported.`, 'global');
      return;
    }
    const channel = accounts.get(accountId)?.[0];
    if (!channel) {
      apiError(res, 401, 'youtubeSignupRequired', 'The user does not have a YouTube channel.', 'youtube.header');
      return;
    }
    const id = crypto.randomBytes(24).toString('base64url');
    const uri = `${url}${UPLOAD_PATH}?uploadType=resumable&upload_id=${id}`;
    uploadSessions.set(id, {
      id,
      uri,
      accountId,
      channelId: channel.id,
      metadata,
      total,
      contentType,
      received: 0,
      videoId: null,
      expired: false,
      createdAt: now(),
    });
    sessionBytes.set(id, []);
    res.writeHead(200, { location: uri, 'x-guploader-uploadid': id, 'content-length': '0' });
    res.end();
  }

  /** The last byte came: the video exists, private or as asked, uploaded. */
  function finishUpload(session: FakeUploadSession): FakeVideo {
    const data = Buffer.concat(sessionBytes.get(session.id) ?? []);
    const snippet = isRecord(session.metadata.snippet) ? session.metadata.snippet : {};
    const status = statusFrom(isRecord(session.metadata.status) ? session.metadata.status : {}, { uploadStatus: 'uploaded' });
    const video = createVideo(session.channelId, snippet, status);
    session.videoId = video.id;
    uploads.push({
      id: video.id,
      sessionId: session.id,
      metadata: session.metadata,
      contentType: session.contentType,
      bytes: data.length,
      sha256: sha256(data),
    });
    sessionBytes.delete(session.id);
    return video;
  }

  /** 200 with the video once the last byte came, else 308 with the bytes kept so far (no Range: none). */
  function answerSession(res: http.ServerResponse, session: FakeUploadSession): void {
    if (session.videoId) {
      const video = videos.get(session.videoId);
      if (!video) {
        apiError(res, 404, 'videoNotFound', NOT_FOUND_VIDEO, 'youtube.video');
        return;
      }
      json(res, 200, videoResource(video, ['snippet', 'status']));
      return;
    }
    const headers: http.OutgoingHttpHeaders = { 'content-length': '0' };
    if (session.received > 0) headers.range = `bytes=0-${session.received - 1}`;
    res.writeHead(308, headers);
    res.end();
  }

  /**
   * PUT <session url>: a chunk (`Content-Range: bytes a-b/total`), the whole file (no
   * Content-Range), or a status query (`Content-Range: bytes *\/total`, empty body). Bytes the
   * session already has are skipped; bytes are kept as they arrive, so a broken connection keeps
   * what came.
   */
  function putUpload(req: http.IncomingMessage, res: http.ServerResponse, query: URL): void {
    const session = uploadSessions.get(query.searchParams.get('upload_id') ?? '');
    // A client that goes away mid-body is a broken connection, not a crash.
    req.on('error', () => undefined);
    const drainThen = (answer: () => void) => {
      req.resume();
      req.on('end', answer);
    };
    if (
      !session ||
      session.expired ||
      (!session.videoId && now().getTime() - session.createdAt.getTime() > SESSION_LIFETIME_MS)
    ) {
      if (session) session.expired = true;
      drainThen(() => apiError(res, 404, 'notFound', 'The upload session was not found or has expired.', 'global'));
      return;
    }
    const header = req.headers['content-range'];
    const length = Number(req.headers['content-length'] ?? 0);
    let start = 0;
    let end: number | null = null;
    let total: number | null = session.total;
    if (header !== undefined) {
      const status = /^bytes \*\/(\d+|\*)$/.exec(header);
      const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header);
      if (status) {
        drainThen(() => answerSession(res, session));
        return;
      }
      if (!range) {
        drainThen(() => apiError(res, 400, 'badContent', `Invalid Content-Range header: ${header}`, 'global'));
        return;
      }
      start = Number(range[1]);
      end = Number(range[2]);
      if (range[3] !== '*') total = Number(range[3]);
    } else if (!session.total) {
      total = length;
    }
    if (session.videoId) {
      drainThen(() => answerSession(res, session));
      return;
    }
    const last = end ?? (total ?? 0) - 1;
    const badRange =
      (session.total !== null && total !== null && total !== session.total) ||
      start > session.received ||
      (end !== null && (end < start || end - start + 1 !== length)) ||
      (total !== null && last >= total) ||
      (end === null && total === null);
    const final = total !== null && last === total - 1;
    if (badRange) {
      drainThen(() =>
        apiError(
          res,
          400,
          'badContent',
          `Invalid Content-Range ${header ?? '(none)'}: the session has ${session.received} bytes.`,
          'global',
        ),
      );
      return;
    }
    if (!final && length % CHUNK_GRANULARITY !== 0) {
      drainThen(() =>
        apiError(
          res,
          400,
          'badContent',
          `Chunks must be a multiple of ${CHUNK_GRANULARITY} bytes, except the last one.`,
          'global',
        ),
      );
      return;
    }
    if (chunkFailures > 0 && length > 0) {
      chunkFailures -= 1;
      drainThen(() => apiError(res, 503, 'backendError', 'Backend Error', 'global'));
      return;
    }
    if (session.total === null && total !== null) session.total = total;
    const limit = length > 0 && breakAfter !== null ? breakAfter : null;
    if (limit !== null) breakAfter = null;
    const hold = length > 0 && holdAfter !== null ? holdAfter : null;
    if (hold !== null) holdAfter = null;
    const stored = sessionBytes.get(session.id)!;
    let position = start;
    let taken = 0;
    let broken = false;
    const keep = (chunk: Buffer) => {
      const from = Math.max(0, session.received - position);
      if (from < chunk.length) {
        const fresh = chunk.subarray(from);
        stored.push(Buffer.from(fresh));
        session.received += fresh.length;
      }
      position += chunk.length;
    };
    req.on('data', (chunk: Buffer) => {
      if (broken) return;
      if (hold !== null && taken + chunk.length >= hold) {
        keep(chunk.subarray(0, hold - taken));
        broken = true;
        req.pause();
        return;
      }
      if (limit !== null && taken + chunk.length >= limit) {
        keep(chunk.subarray(0, limit - taken));
        broken = true;
        req.socket.destroy();
        return;
      }
      taken += chunk.length;
      keep(chunk);
    });
    req.on('end', () => {
      if (broken) return;
      if (session.total !== null && session.received >= session.total) {
        finishUpload(session);
        answerSession(res, session);
        return;
      }
      answerSession(res, session);
    });
  }

  /** GET /youtube/v3/videos: videos.list by id. */
  function listVideos(res: http.ServerResponse, query: URL, accountId: string): void {
    const parts = listParam(query, 'part');
    if (parts.length === 0) {
      apiError(res, 400, 'required', 'Required parameter: part', 'global');
      return;
    }
    const ids = listParam(query, 'id');
    if (ids.length === 0) {
      apiError(
        res,
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: myRating, id, chart.',
        'youtube.parameter',
      );
      return;
    }
    if (ids.length > 50) {
      apiError(res, 400, 'badRequest', 'The request specifies more than 50 video ids.', 'youtube.parameter');
      return;
    }
    // Private videos are visible to their owner only; public and unlisted ones to anyone with the id.
    const items = ids
      .map((id) => videos.get(id))
      .filter(
        (v): v is FakeVideo => v !== undefined && (v.status.privacyStatus !== 'private' || owns(accountId, v.snippet.channelId)),
      )
      .map((v) => videoResource(v, parts));
    json(res, 200, {
      kind: 'youtube#videoListResponse',
      etag: etag(),
      items,
      pageInfo: { totalResults: items.length, resultsPerPage: items.length },
    });
  }

  /** PUT /youtube/v3/videos: videos.update of the snippet and/or status parts (each replaced whole). */
  function updateVideo(res: http.ServerResponse, query: URL, accountId: string, body: unknown): void {
    const parts = listParam(query, 'part');
    if (parts.length === 0) {
      apiError(res, 400, 'required', 'Required parameter: part', 'global');
      return;
    }
    if (!isRecord(body) || typeof body.id !== 'string') {
      apiError(res, 400, 'required', 'Required parameter: id', 'global');
      return;
    }
    const video = videos.get(body.id);
    if (!video) {
      apiError(res, 404, 'videoNotFound', NOT_FOUND_VIDEO, 'youtube.video');
      return;
    }
    if (!owns(accountId, video.snippet.channelId)) {
      apiError(res, 403, 'forbidden', FORBIDDEN, 'youtube.video');
      return;
    }
    const snippet = parts.includes('snippet') ? body.snippet : undefined;
    if (parts.includes('snippet')) {
      const problem = checkSnippet(snippet);
      if (problem) {
        apiError(res, 400, problem.reason, problem.message, 'youtube.video');
        return;
      }
      if (!isRecord(snippet) || typeof snippet.categoryId !== 'string') {
        apiError(
          res,
          400,
          'invalidCategoryId',
          'The snippet.categoryId property specifies an invalid category ID.',
          'youtube.video',
        );
        return;
      }
    }
    if (parts.includes('status')) {
      if (!isRecord(body.status)) {
        apiError(res, 400, 'invalidVideoMetadata', 'The request metadata is invalid.', 'youtube.video');
        return;
      }
      const problem = checkStatus(body.status, now());
      if (problem) {
        apiError(res, 400, problem.reason, problem.message, 'youtube.video');
        return;
      }
    }
    if (isRecord(snippet)) {
      const title = String(snippet.title);
      const description = typeof snippet.description === 'string' ? snippet.description : '';
      video.snippet = {
        ...video.snippet,
        title,
        description,
        categoryId: String(snippet.categoryId),
        localized: { title, description },
      };
      if (Array.isArray(snippet.tags)) video.snippet.tags = snippet.tags as string[];
      else delete video.snippet.tags;
      if (typeof snippet.defaultLanguage === 'string') video.snippet.defaultLanguage = snippet.defaultLanguage;
      if (typeof snippet.defaultAudioLanguage === 'string') video.snippet.defaultAudioLanguage = snippet.defaultAudioLanguage;
    }
    if (parts.includes('status') && isRecord(body.status)) {
      const { uploadStatus, failureReason, rejectionReason } = video.status;
      video.status = statusFrom(body.status, { uploadStatus, failureReason, rejectionReason });
    }
    video.etag = etag();
    json(res, 200, videoResource(video, parts));
  }

  /** DELETE /youtube/v3/videos?id=: videos.delete. */
  function deleteVideo(res: http.ServerResponse, query: URL, accountId: string): void {
    const id = query.searchParams.get('id');
    if (!id) {
      apiError(res, 400, 'required', 'Required parameter: id', 'global');
      return;
    }
    const video = videos.get(id);
    if (!video) {
      apiError(res, 404, 'videoNotFound', NOT_FOUND_VIDEO, 'youtube.video');
      return;
    }
    if (!owns(accountId, video.snippet.channelId)) {
      apiError(res, 403, 'forbidden', FORBIDDEN, 'youtube.video');
      return;
    }
    videos.delete(id);
    thumbnails.delete(id);
    res.writeHead(204);
    res.end();
  }

  /**
   * POST /upload/youtube/v3/captions?part=snippet&uploadType=multipart: a multipart/related body,
   * the caption resource (JSON) then the track's file, as captions.insert sends them.
   */
  function insertCaption(req: http.IncomingMessage, res: http.ServerResponse, accountId: string, data: Buffer): void {
    const boundary = /boundary="?([^";]+)"?/.exec(String(req.headers['content-type'] ?? ''))?.[1];
    const parts = boundary
      ? data
          .toString('utf8')
          .split(`--${boundary}`)
          .map((part) => part.replace(/^\r?\n/, ''))
          .filter((part) => part.trim() !== '' && !part.startsWith('--'))
          .map((part) => {
            const at = part.search(/\r?\n\r?\n/);
            return at < 0
              ? ''
              : part
                  .slice(at)
                  .replace(/^\r?\n\r?\n/, '')
                  .replace(/\r?\n$/, '');
          })
      : [];
    let snippet: { videoId?: unknown; language?: unknown; name?: unknown; isDraft?: unknown } | undefined;
    try {
      snippet = (JSON.parse(parts[0] ?? '') as { snippet?: typeof snippet }).snippet;
    } catch {
      snippet = undefined;
    }
    const body = parts[1] ?? '';
    if (!snippet || typeof snippet.videoId !== 'string' || typeof snippet.language !== 'string') {
      apiError(res, 400, 'invalidMetadata', 'The request metadata is invalid.', 'youtube.caption');
      return;
    }
    if (!body.trim()) {
      apiError(res, 400, 'mediaBodyRequired', 'The request does not include the caption track content.', 'youtube.caption');
      return;
    }
    const video = videos.get(snippet.videoId);
    if (!video) {
      apiError(res, 404, 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'youtube.caption');
      return;
    }
    if (!owns(accountId, video.snippet.channelId)) {
      apiError(res, 403, 'forbidden', 'The permissions associated with the request are not sufficient.', 'youtube.caption');
      return;
    }
    const caption: FakeCaption = {
      id: token('AUieDa'),
      videoId: snippet.videoId,
      language: snippet.language,
      name: typeof snippet.name === 'string' ? snippet.name : '',
      isDraft: snippet.isDraft === true,
      body,
    };
    captions.push(caption);
    json(res, 200, {
      kind: 'youtube#caption',
      etag: token('etag'),
      id: caption.id,
      snippet: {
        videoId: caption.videoId,
        lastUpdated: new Date().toISOString(),
        trackKind: 'standard',
        language: caption.language,
        name: caption.name,
        audioTrackType: 'unknown',
        isCC: false,
        isLarge: false,
        isEasyReader: false,
        isDraft: caption.isDraft,
        isAutoSynced: false,
        status: 'serving',
      },
    });
  }

  /** POST /upload/youtube/v3/thumbnails/set?videoId=: a JPEG or PNG of at most 2 MB. */
  function setThumbnail(req: http.IncomingMessage, res: http.ServerResponse, query: URL, accountId: string, data: Buffer): void {
    const videoId = query.searchParams.get('videoId');
    if (!videoId) {
      apiError(res, 400, 'required', 'Required parameter: videoId', 'global');
      return;
    }
    const contentType = String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (data.length === 0) {
      apiError(res, 400, 'mediaBodyRequired', 'The request does not include the image content.', 'youtube.thumbnail');
      return;
    }
    if (data.length > THUMBNAIL_MAX_BYTES) {
      apiError(res, 400, 'mediaBodyTooLarge', `Media larger than: ${THUMBNAIL_MAX_BYTES}`, 'global');
      return;
    }
    if (!['image/jpeg', 'image/png', 'application/octet-stream'].includes(contentType)) {
      apiError(res, 400, 'invalidImage', 'The provided image content is invalid.', 'youtube.thumbnail');
      return;
    }
    const video = videos.get(videoId);
    if (!video) {
      apiError(
        res,
        404,
        'videoNotFound',
        'The video that you are trying to insert a thumbnail image for cannot be found.',
        'youtube.video',
      );
      return;
    }
    if (!owns(accountId, video.snippet.channelId)) {
      apiError(
        res,
        403,
        'forbidden',
        'The thumbnail cannot be set for the specified video. The request might not be properly authorized.',
        'youtube.thumbnail',
      );
      return;
    }
    thumbnails.set(videoId, { videoId, contentType, bytes: data.length, sha256: sha256(data) });
    const stamp = Date.now();
    const sizes = thumbnailsOf(videoId);
    const withStamp = (size: FakeThumbnailSize) => ({ ...size, url: `${size.url}?sqp=${stamp}` });
    json(res, 200, {
      kind: 'youtube#thumbnailSetResponse',
      etag: etag(),
      items: [{ default: withStamp(sizes.default), medium: withStamp(sizes.medium), high: withStamp(sizes.high) }],
    });
  }

  /** GET /youtube/v3/channels: channels.list by mine=true (the token's account) or by id. */
  function listChannels(res: http.ServerResponse, query: URL, accountId: string): void {
    if (listParam(query, 'part').length === 0) {
      apiError(res, 400, 'required', 'Required parameter: part', 'global');
      return;
    }
    // googleapis sends repeated parameters (part=snippet&part=statistics); both forms are accepted.
    const parts = listParam(query, 'part');
    const ids = listParam(query, 'id');
    if (ids.length > 50) {
      apiError(res, 400, 'badRequest', 'The request specifies more than 50 channel ids.', 'youtube.parameter');
      return;
    }
    const known = allChannels();
    const channels =
      query.searchParams.get('mine') === 'true'
        ? (accounts.get(accountId) ?? [])
        : ids.map((id) => known.find((c) => c.id === id)).filter((c): c is FakeChannel => c !== undefined);
    json(res, 200, {
      kind: 'youtube#channelListResponse',
      etag: etag(),
      pageInfo: { totalResults: channels.length, resultsPerPage: 5 },
      items: channels.map((c) => ({
        kind: 'youtube#channel',
        etag: etag(),
        id: c.id,
        ...(parts.includes('snippet')
          ? { snippet: { title: c.title, description: '', customUrl: `@${c.title.toLowerCase().replace(/\W+/g, '')}` } }
          : {}),
        ...(parts.includes('statistics')
          ? {
              statistics: {
                viewCount: String(c.viewCount),
                subscriberCount: c.hiddenSubscriberCount ? '0' : String(c.subscriberCount),
                hiddenSubscriberCount: c.hiddenSubscriberCount ?? false,
                videoCount: String(c.videoCount),
              },
            }
          : {}),
      })),
    });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const address = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = Object.fromEntries(address.searchParams);
    const authorization = req.headers.authorization;

    // Session PUTs stream: bytes are kept as they come, and a test may cut the connection midway.
    if (req.method === 'PUT' && address.pathname === UPLOAD_PATH) {
      requests.push({
        method: 'PUT',
        path: address.pathname,
        query,
        body: {},
        authorization,
        contentRange: req.headers['content-range'],
      });
      putUpload(req, res, address);
      return;
    }

    const raw = req.method === 'POST' || req.method === 'PUT' ? await readBody(req) : Buffer.alloc(0);
    if (page && page.count > 0 && address.pathname.startsWith(page.path)) {
      page.count -= 1;
      res.writeHead(page.status, { 'content-type': 'text/html; charset=UTF-8', 'content-length': Buffer.byteLength(page.html) });
      res.end(page.html);
      return;
    }
    const contentType = String(req.headers['content-type'] ?? '');
    const isJson = contentType.includes('application/json');
    const isBinary = address.pathname === THUMBNAIL_PATH;
    const body = isJson || isBinary ? {} : Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    let parsed: unknown;
    if (isJson && raw.length > 0) {
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        parsed = undefined;
      }
    }
    requests.push({
      method: req.method ?? 'GET',
      path: address.pathname,
      query,
      body,
      ...(parsed !== undefined ? { json: parsed } : {}),
      authorization,
    });

    if (req.method === 'GET' && address.pathname === '/o/oauth2/v2/auth') {
      const redirect = query.redirect_uri;
      if (!redirect || !knownClient(query.client_id)) {
        res.writeHead(400, { 'content-type': 'text/html' });
        res.end('<h1>Error 401: invalid_client</h1><p>The OAuth client was not found.</p>');
        return;
      }
      const target = new URL(redirect);
      if (consent === 'deny' || !currentAccount) {
        target.searchParams.set('error', 'access_denied');
      } else {
        const code = token('4/0A');
        codes.set(code, {
          clientId: query.client_id,
          redirectUri: redirect,
          accountId: currentAccount,
          scope: query.scope ?? '',
        });
        target.searchParams.set('code', code);
        target.searchParams.set('scope', query.scope ?? '');
      }
      if (query.state) target.searchParams.set('state', query.state);
      res.writeHead(302, { location: target.toString() });
      res.end();
      return;
    }

    if (req.method === 'POST' && address.pathname === '/token') {
      let clientId = body.client_id;
      let clientSecret = body.client_secret;
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
      if (basic) [clientId, clientSecret] = Buffer.from(basic[1]!, 'base64').toString().split(':');
      if (!knownClient(clientId, clientSecret ?? '')) {
        json(res, 401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
        return;
      }
      if (body.grant_type === 'authorization_code') {
        const grant = body.code ? codes.get(body.code) : undefined;
        if (!grant || grant.clientId !== clientId || grant.redirectUri !== body.redirect_uri) {
          json(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
          return;
        }
        codes.delete(body.code!);
        const access = token('ya29.');
        accessTokens.set(access, { accountId: grant.accountId, expiresAt: Date.now() + 3600_000 });
        const answer: Record<string, unknown> = {
          access_token: access,
          expires_in: 3599,
          scope: grant.scope,
          token_type: 'Bearer',
        };
        if (issueRefresh) {
          const refresh = token('1//0g');
          refreshTokens.set(refresh, { clientId, accountId: grant.accountId });
          answer.refresh_token = refresh;
        }
        json(res, 200, answer);
        return;
      }
      if (body.grant_type === 'refresh_token') {
        const grant = body.refresh_token ? refreshTokens.get(body.refresh_token) : undefined;
        if (!grant || grant.clientId !== clientId) {
          json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
          return;
        }
        const access = token('ya29.');
        accessTokens.set(access, { accountId: grant.accountId, expiresAt: Date.now() + 3600_000 });
        json(res, 200, {
          access_token: access,
          expires_in: 3599,
          scope: 'https://www.googleapis.com/auth/youtube.upload',
          token_type: 'Bearer',
        });
        return;
      }
      json(res, 400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${body.grant_type ?? ''}` });
      return;
    }

    if (address.pathname === '/generate_204') {
      // What proxy tests reach (PROXY_CHECK_URL), like Google's own connectivity check.
      res.writeHead(204);
      res.end();
      return;
    }

    const isUpload =
      req.method === 'POST' &&
      (address.pathname === UPLOAD_PATH || address.pathname === THUMBNAIL_PATH || address.pathname === CAPTIONS_PATH);
    if (address.pathname.startsWith('/youtube/v3/') || isUpload) {
      const accountId = authorized(req, res);
      if (!accountId) return;
      if (injectedFailure(res)) return;
      settle();
      if (req.method === 'POST' && address.pathname === UPLOAD_PATH) return startUpload(req, res, address, accountId, parsed);
      if (req.method === 'POST' && address.pathname === THUMBNAIL_PATH) return setThumbnail(req, res, address, accountId, raw);
      if (req.method === 'POST' && address.pathname === CAPTIONS_PATH) return insertCaption(req, res, accountId, raw);
      if (req.method === 'GET' && address.pathname === '/youtube/v3/channels') return listChannels(res, address, accountId);
      if (address.pathname === '/youtube/v3/videos') {
        if (req.method === 'GET') return listVideos(res, address, accountId);
        if (req.method === 'PUT') return updateVideo(res, address, accountId, parsed);
        if (req.method === 'DELETE') return deleteVideo(res, address, accountId);
      }
    }

    json(res, 404, { error: { code: 404, message: `Not found: ${req.method} ${address.pathname}` } });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        apiError(res, 500, 'internalError', error instanceof Error ? error.message : 'Internal error', 'global');
      else res.destroy();
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;

  return {
    url,
    authUrl: `${url}/o/oauth2/v2/auth`,
    tokenUrl: `${url}/token`,
    apiUrl: `${url}/`,
    requests,
    addClient: (clientId, clientSecret) => void clients.set(clientId, clientSecret),
    addAccount(channels) {
      const id = token('acct-');
      accounts.set(id, channels);
      currentAccount = id;
      return id;
    },
    useAccount: (accountId) => void (currentAccount = accountId),
    setConsent: (answer) => void (consent = answer),
    setIssueRefreshToken: (issue) => void (issueRefresh = issue),
    issueRefreshToken(clientId, accountId) {
      const refresh = token('1//0g');
      refreshTokens.set(refresh, { clientId, accountId });
      return refresh;
    },
    revoke: (refreshToken) => void refreshTokens.delete(refreshToken),
    failNextApiCalls: (count, reason = 'quotaExceeded') => void (failures = { count, reason }),
    answerPageNext: (path, count, status, html) => void (page = { path, count, status, html }),
    breakUploadAfter: (bytes) => void (breakAfter = Math.max(0, Math.floor(bytes))),
    holdUploadAfter: (bytes) => void (holdAfter = Math.max(0, Math.floor(bytes))),
    failNextUploadChunks: (count) => void (chunkFailures = count),
    expireUploadSessions() {
      for (const session of uploadSessions.values()) if (!session.videoId) session.expired = true;
    },
    uploadSessions,
    uploads,
    captions,
    videos,
    thumbnails,
    addVideo(input) {
      const status = statusFrom(
        {
          privacyStatus: input.privacyStatus ?? 'public',
          ...(input.publishAt ? { publishAt: input.publishAt.toISOString() } : {}),
          selfDeclaredMadeForKids: false,
        },
        {
          uploadStatus: input.uploadStatus ?? 'processed',
          failureReason: input.failureReason,
          rejectionReason: input.rejectionReason,
        },
      );
      return createVideo(input.channelId, { title: input.title, description: '' }, status).id;
    },
    setVideoStats(videoId, stats) {
      const video = videos.get(videoId);
      if (!video) throw new Error(`No video ${videoId}`);
      if (stats.views !== undefined) video.statistics.viewCount = String(stats.views);
      if (stats.likes !== undefined) video.statistics.likeCount = String(stats.likes);
      if (stats.comments !== undefined) video.statistics.commentCount = String(stats.comments);
    },
    setNow: (clock) => void (now = clock),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
