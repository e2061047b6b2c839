import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { OAuth2Client, type gaxios } from 'google-auth-library';
import { youtube, type youtube_v3 } from '@googleapis/youtube';
import type { Dispatcher, RequestInit } from 'undici';
import { findCause } from '../lib/errorCause';
import { networkCode } from './httpBodies';
import { fetchThrough, sharedProxyDispatcher, socksProxyErrorOf } from './proxies';
import { classifyGoogleError, type GoogleEndpoints, type OAuthClientCredentials } from './youtube';

/**
 * Publishing to YouTube through Google's official clients: the video itself with the documented
 * resumable upload protocol (sent with google-auth-library's OAuth2Client, which adds and
 * refreshes the bearer token), everything else with googleapis' YouTube module.
 *
 * The upload session URL is handed to the caller as soon as it exists, so a process killed
 * mid-upload resumes the same upload later (`PUT` with `Content-Range: bytes *\/total` asks
 * YouTube how many bytes it has) instead of making a second video.
 */

/** A resumable upload in progress: the session URL and the file size it was started for. */
export interface UploadSession {
  uri: string;
  total: number;
}

export interface VideoMetadata {
  title: string;
  description: string;
  tags: string[];
  /** The language of the title, description and audio (BCP-47, e.g. 'pt-BR'). */
  language: string;
  /** Default '24' (Entertainment). */
  categoryId?: string;
  /** When the private video goes public; null keeps it private (a video waiting for the owner's review). */
  publishAt: Date | null;
  madeForKids: boolean;
  /** Declared as altered or synthetic content (status.containsSyntheticMedia). */
  syntheticMedia: boolean;
}

export type PublisherCredentials = OAuthClientCredentials & { refreshToken: string };

export interface PublisherOptions {
  /** Bytes per upload request; a multiple of 256 KiB. Default 8 MiB. */
  chunkBytes?: number;
  /** Time-out of each HTTP request, in ms. Default 120 000. */
  timeoutMs?: number;
  /** Retries of a request that failed on the network or with a 5xx, in a row. Default 5. */
  maxRetries?: number;
  /** The first retry waits about this long, each next one twice as long. Default 1000 ms. */
  backoffBaseMs?: number;
}

export interface VideoStats {
  views: number;
  likes: number;
  privacyStatus: string;
  uploadStatus: string;
  /** status.failureReason or status.rejectionReason when the upload failed or was rejected. */
  failureReason: string | null;
}

export interface ChannelStats {
  /** null when the channel hides it. */
  subscribers: number | null;
  videos: number | null;
  views: number | null;
}

/**
 * Why publishing failed. `quota`: quotaExceeded (the day's quota is spent); `rate_limit`: a 429 or
 * rateLimitExceeded/userRateLimitExceeded (too fast: retried with backoff); `upload_limit`: the
 * channel may not upload more videos for now (uploadLimitExceeded); `invalid_grant`: the refresh
 * token was revoked or expired; `unauthorized`: Google refused the client or the access.
 */
export type PublishErrorKind =
  'quota' | 'rate_limit' | 'upload_limit' | 'invalid_grant' | 'unauthorized' | 'not_found' | 'network' | 'other';

export class PublishError extends Error {
  constructor(
    readonly kind: PublishErrorKind,
    message: string,
    readonly status?: number,
    /** Google's error reason (errors[0].reason), e.g. 'quotaExceeded'. */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'PublishError';
  }
}

const UPLOAD_GRANULARITY = 256 * 1024;
const DEFAULT_CATEGORY = '24';
const VIDEOS_PER_LIST = 50;
const TITLE_MAX_CHARS = 100;
const DESCRIPTION_MAX_BYTES = 5000;
const TAGS_MAX_CHARS = 500;
const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

/** Google's reason for an API error, when the answer has one. */
function reasonOf(error: unknown): string | undefined {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data as
    { error?: { errors?: { reason?: unknown }[] } } | undefined;
  const reason = typeof data?.error === 'object' ? data.error.errors?.[0]?.reason : undefined;
  return typeof reason === 'string' ? reason : undefined;
}

/** Any failure of a Google call as a PublishError (classified like `classifyGoogleError`). */
export function toPublishError(error: unknown): PublishError {
  if (error instanceof PublishError) return error;
  const reason = reasonOf(error);
  const classified = classifyGoogleError(error);
  const { status, message } = classified;
  if (reason === 'uploadLimitExceeded') return new PublishError('upload_limit', message, status, reason);
  if (reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded' || status === 429) {
    return new PublishError('rate_limit', message, status, reason);
  }
  switch (classified.kind) {
    case 'quota':
      return new PublishError('quota', message, status, reason);
    case 'invalid_grant':
      return new PublishError('invalid_grant', message, status, 'invalid_grant');
    case 'invalid_client':
    case 'unauthorized':
      return new PublishError('unauthorized', message, status, reason);
    case 'network':
      return new PublishError('network', message, status, reason);
    default:
      if (status === undefined && error instanceof Error && /abort|timeout/i.test(`${error.name} ${error.message}`)) {
        return new PublishError('network', message, status, reason);
      }
      return new PublishError(status === 404 || status === 410 ? 'not_found' : 'other', message, status, reason);
  }
}

/** A network failure, a time-out, a rate limit or a server error; other 4xx answers (quota included) are final. */
function isRetryable(error: PublishError): boolean {
  if (error.kind === 'network' || error.kind === 'rate_limit') return true;
  if (error.kind !== 'other' || error.status === undefined) return false;
  return error.status >= 500 || error.status === 408;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { response?: { status?: unknown } } | null)?.response?.status;
  return typeof status === 'number' ? status : undefined;
}

function toCount(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Titles, descriptions and tags YouTube accepts: no angle brackets, within its length limits. */
function cleanMetadata(metadata: VideoMetadata): youtube_v3.Schema$Video {
  const clean = (text: string) => text.replace(/[<>]/g, '').trim();
  const title = [...clean(metadata.title)].slice(0, TITLE_MAX_CHARS).join('').trim();
  let description = clean(metadata.description);
  while (Buffer.byteLength(description) > DESCRIPTION_MAX_BYTES) description = [...description].slice(0, -1).join('');
  const tags: string[] = [];
  let used = 0;
  for (const tag of metadata.tags.map(clean).filter(Boolean)) {
    // YouTube counts quotes around tags with spaces and the commas between tags.
    const cost = tag.length + (tag.includes(' ') ? 2 : 0) + (tags.length > 0 ? 1 : 0);
    if (used + cost > TAGS_MAX_CHARS) break;
    tags.push(tag);
    used += cost;
  }
  return {
    snippet: {
      title,
      description,
      tags,
      categoryId: metadata.categoryId ?? DEFAULT_CATEGORY,
      defaultLanguage: metadata.language,
      defaultAudioLanguage: metadata.language,
    },
    status: {
      privacyStatus: 'private',
      ...(metadata.publishAt ? { publishAt: metadata.publishAt.toISOString() } : {}),
      selfDeclaredMadeForKids: metadata.madeForKids,
      containsSyntheticMedia: metadata.syntheticMedia,
    },
  };
}

/**
 * A fetch for gaxios (google-auth-library, googleapis) that sends each request through
 * `dispatcher` with undici's fetch. gaxios hands over its prepared request: a body may be a Node
 * stream of strings (googleapis' multipart uploads), which undici wants as bytes. A network
 * failure is rethrown with its errno-like code (ECONNREFUSED, ESOCKS, UND_ERR_ABORTED for a proxy's
 * refusal...) and its short English text, as gaxios' own fetch would, so `classifyGoogleError` sees
 * a network error.
 */
function gaxiosFetch(dispatcher: Dispatcher): typeof globalThis.fetch {
  const send = fetchThrough(dispatcher);
  const gaxiosFetchImplementation = async (input: string | URL | { url: string }, init: RequestInit = {}) => {
    const body = init.body as unknown;
    const bytes =
      body && typeof body === 'object' && Symbol.asyncIterator in body && !(body instanceof ReadableStream)
        ? asBytes(body as AsyncIterable<unknown>)
        : init.body;
    try {
      return await send(input, { ...init, body: bytes as RequestInit['body'] });
    } catch (error) {
      if (!(error instanceof TypeError && error.message === 'fetch failed')) throw error;
      const cause = socksProxyErrorOf(error) ?? codedCause(error);
      // Without a code of its own the failure is still a network one (gaxios classifies by code).
      const code = networkCode(cause) ?? 'EFETCH';
      const why = cause instanceof Error && cause.message ? cause.message : code;
      const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
      throw Object.assign(new Error(`request to ${new URL(url).host} failed: ${why}`), { code });
    }
  };
  return gaxiosFetchImplementation as unknown as typeof globalThis.fetch;
}

/** The first cause with an errno-like code (fetch wraps a proxy's refusal twice), else the first cause. */
function codedCause(error: Error): unknown {
  return findCause(error.cause, (cause) => typeof (cause as { code?: unknown }).code === 'string') ?? error.cause;
}

async function* asBytes(source: AsyncIterable<unknown>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
}

/** The session answered 404/410: it expired, a new one must be started. */
class SessionGone extends Error {
  constructor(readonly status: number) {
    super(`The upload session is gone (${status})`);
  }
}

/** What a session PUT answered: the video, or how many bytes YouTube has. */
type UploadStep = { videoId: string } | { videoId: null; received: number };

export function createYoutubePublisher(
  endpoints: Pick<GoogleEndpoints, 'tokenUrl' | 'authUrl' | 'apiUrl'>,
  options: PublisherOptions = {},
) {
  const chunkBytes = options.chunkBytes ?? 8 * 1024 * 1024;
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes <= 0 || chunkBytes % UPLOAD_GRANULARITY !== 0) {
    throw new RangeError(`chunkBytes must be a positive multiple of ${UPLOAD_GRANULARITY}`);
  }
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxRetries = options.maxRetries ?? 5;
  const backoffBaseMs = options.backoffBaseMs ?? 1000;
  const uploadUrl = new URL('upload/youtube/v3/videos', endpoints.apiUrl).toString();
  /** Retries are ours (counted, with our back-off), never gaxios'. */
  const callOptions = { retry: false, timeout: timeoutMs };

  /**
   * The OAuth client every call goes through (token refresh included, and googleapis' calls, which
   * it sends); with `proxyUrl` (an admin's http://, https:// or socks5:// proxy) each request goes
   * through the same dispatcher as the engine's other clients (proxyDispatcher).
   */
  function oauthClient(credentials: PublisherCredentials, proxyUrl?: string): OAuth2Client {
    const dispatcher = sharedProxyDispatcher(proxyUrl);
    const auth = new OAuth2Client({
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      redirectUri: credentials.redirectUri,
      endpoints: { oauth2TokenUrl: endpoints.tokenUrl, oauth2AuthBaseUrl: endpoints.authUrl },
      ...(dispatcher ? { transporterOptions: { fetchImplementation: gaxiosFetch(dispatcher) } } : {}),
    });
    auth.setCredentials({ refresh_token: credentials.refreshToken });
    return auth;
  }

  function api(credentials: PublisherCredentials, proxyUrl?: string): youtube_v3.Youtube {
    return youtube({ version: 'v3', auth: oauthClient(credentials, proxyUrl), rootUrl: endpoints.apiUrl, timeout: timeoutMs });
  }

  /** Exponential back-off with a little jitter; rejects with the signal's reason when aborted. */
  async function backoff(attempt: number, signal?: AbortSignal): Promise<void> {
    const delay = Math.min(backoffBaseMs * 2 ** (attempt - 1), backoffBaseMs * 64) + Math.random() * (backoffBaseMs / 4);
    try {
      await sleep(delay, undefined, { signal });
    } catch (error) {
      throw signal?.reason ?? error;
    }
  }

  /** Runs a call, again after network errors and 5xx answers; any failure ends as a PublishError. */
  async function withRetry<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      signal?.throwIfAborted();
      try {
        return await call();
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        const failure = toPublishError(error);
        if (!isRetryable(failure) || attempt > maxRetries) throw failure;
        await backoff(attempt, signal);
      }
    }
  }

  /** POST …/upload/youtube/v3/videos?uploadType=resumable: the metadata; answers the session URL. */
  async function startSession(
    auth: OAuth2Client,
    metadata: VideoMetadata,
    total: number,
    signal?: AbortSignal,
  ): Promise<UploadSession> {
    const response = await auth.request<unknown>({
      url: uploadUrl,
      method: 'POST',
      params: { uploadType: 'resumable', part: 'snippet,status' },
      headers: {
        'Content-Type': 'application/json; charset=UTF-8',
        'X-Upload-Content-Length': String(total),
        'X-Upload-Content-Type': 'video/mp4',
      },
      data: JSON.stringify(cleanMetadata(metadata)),
      responseType: 'json',
      signal,
      ...callOptions,
    });
    const location = response.headers.get('location');
    if (!location) throw new PublishError('other', 'YouTube did not answer an upload session URL', response.status);
    return { uri: location, total };
  }

  /** 308: the bytes YouTube has (`Range: bytes=0-N`, none without it); 200/201: the video. */
  function stepOf(response: gaxios.GaxiosResponse<unknown>): UploadStep {
    if (response.status === 308) {
      const range = /bytes=0-(\d+)/.exec(response.headers.get('range') ?? '');
      return { videoId: null, received: range ? Number(range[1]) + 1 : 0 };
    }
    const id = (response.data as youtube_v3.Schema$Video | null)?.id;
    if (typeof id !== 'string' || id === '')
      throw new PublishError('other', 'YouTube finished the upload without a video id', response.status);
    return { videoId: id };
  }

  /** A PUT to the session URL; 404/410 become SessionGone. */
  async function putSession(
    auth: OAuth2Client,
    session: UploadSession,
    contentRange: string,
    data: Buffer | undefined,
    signal?: AbortSignal,
  ): Promise<UploadStep> {
    try {
      const response = await auth.request<unknown>({
        url: session.uri,
        method: 'PUT',
        headers: { 'Content-Range': contentRange, ...(data ? { 'Content-Type': 'video/mp4' } : {}) },
        ...(data ? { data } : {}),
        responseType: 'json',
        validateStatus: (status) => status === 308 || (status >= 200 && status < 300),
        redirect: 'manual',
        signal,
        ...callOptions,
      });
      return stepOf(response);
    } catch (error) {
      const status = statusOf(error);
      if (status === 404 || status === 410) throw new SessionGone(status);
      throw error;
    }
  }

  /** Reads `length` bytes of the file from `position`. */
  async function readSlice(file: fs.FileHandle, position: number, length: number): Promise<Buffer> {
    const buffer = Buffer.alloc(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await file.read(buffer, filled, length - filled, position + filled);
      if (bytesRead === 0) throw new PublishError('other', 'The video file changed during the upload');
      filled += bytesRead;
    }
    return buffer;
  }

  /**
   * Starts or resumes a resumable upload. `onSession` is awaited right after a session is
   * created (the caller stores it), and again if the stored session had expired (404/410) and a
   * new one was started. A stored session for a file of another size is not resumed. Answers
   * the video id.
   */
  async function uploadVideo(input: {
    credentials: PublisherCredentials;
    file: string;
    metadata: VideoMetadata;
    session?: UploadSession | null;
    onSession(session: UploadSession): Promise<void>;
    signal?: AbortSignal;
    /** A proxy every request goes through: http://, https:// or socks5:// (see proxyDispatcher). */
    proxyUrl?: string;
    /** Bytes YouTube has kept of `total`, after each chunk it acknowledges. */
    onProgress?(received: number, total: number): void;
  }): Promise<{ videoId: string }> {
    const { signal } = input;
    const total = (await fs.stat(input.file)).size;
    if (total === 0) throw new PublishError('other', 'The video file is empty');
    const auth = oauthClient(input.credentials, input.proxyUrl);
    let session = input.session?.uri && input.session.total === total ? input.session : null;
    /** Where the next chunk starts; null: ask YouTube first. */
    let offset: number | null = session ? null : 0;
    let failures = 0;
    let restarts = 0;
    const file = await fs.open(input.file, 'r');
    try {
      for (;;) {
        signal?.throwIfAborted();
        if (!session) {
          session = await withRetry(() => startSession(auth, input.metadata, total, signal), signal);
          await input.onSession(session);
          offset = 0;
        }
        try {
          let step: UploadStep;
          if (offset === null) {
            step = await putSession(auth, session, `bytes */${total}`, undefined, signal);
          } else {
            const end = Math.min(offset + chunkBytes, total) - 1;
            const data = await readSlice(file, offset, end - offset + 1);
            step = await putSession(auth, session, `bytes ${offset}-${end}/${total}`, data, signal);
          }
          if (step.videoId !== null) {
            input.onProgress?.(total, total);
            return { videoId: step.videoId };
          }
          const progressed = offset === null || step.received > offset;
          offset = step.received;
          input.onProgress?.(offset, total);
          if (progressed) {
            failures = 0;
            continue;
          }
          // YouTube kept nothing of that chunk: count it as a failure, so it cannot loop forever.
          failures += 1;
          if (failures > maxRetries) throw new PublishError('other', `YouTube keeps no bytes past ${offset} of the upload`);
          await backoff(failures, signal);
        } catch (error) {
          if (signal?.aborted) throw signal.reason ?? error;
          if (error instanceof SessionGone) {
            restarts += 1;
            if (restarts > maxRetries) throw new PublishError('not_found', error.message, error.status);
            session = null;
            continue;
          }
          const failure = toPublishError(error);
          if (!isRetryable(failure) || failures >= maxRetries) throw failure;
          failures += 1;
          await backoff(failures, signal);
          offset = null;
        }
      }
    } finally {
      await file.close();
    }
  }

  /** thumbnails.set with the image as the media body (JPEG, or PNG by its signature), at most 2 MB. */
  async function setThumbnail(input: {
    credentials: PublisherCredentials;
    videoId: string;
    file: string;
    proxyUrl?: string;
  }): Promise<void> {
    const image = await fs.readFile(input.file);
    if (image.length > THUMBNAIL_MAX_BYTES)
      throw new PublishError('other', `The thumbnail is larger than ${THUMBNAIL_MAX_BYTES} bytes`);
    const isPng = image.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const yt = api(input.credentials, input.proxyUrl);
    // googleapis ignores the client's rootUrl for media uploads: it must come with the call.
    await withRetry(() =>
      yt.thumbnails.set(
        { videoId: input.videoId, media: { mimeType: isPng ? 'image/png' : 'image/jpeg', body: image } },
        { ...callOptions, rootUrl: endpoints.apiUrl },
      ),
    );
  }

  /**
   * captions.insert: the video's caption track in `language` (BCP-47, e.g. pt, en), from a SubRip
   * file, published with the video (not a draft).
   */
  async function insertCaptions(input: {
    credentials: PublisherCredentials;
    videoId: string;
    language: string;
    file: string;
    proxyUrl?: string;
  }): Promise<void> {
    const srt = await fs.readFile(input.file);
    const yt = api(input.credentials, input.proxyUrl);
    await withRetry(() =>
      yt.captions.insert(
        {
          part: ['snippet'],
          requestBody: { snippet: { videoId: input.videoId, language: input.language, name: '', isDraft: false } },
          // A multipart upload (metadata and file) needs a stream, made anew for every attempt.
          media: { mimeType: 'application/octet-stream', body: Readable.from([srt]) },
        },
        { ...callOptions, rootUrl: endpoints.apiUrl },
      ),
    );
  }

  /**
   * videos.update(part=status) to public. The status part is replaced whole, so the writable
   * fields the video has (made for kids, synthetic media, licence…) are read first and sent back;
   * publishAt is dropped (it is only allowed on private videos). A video already public is left alone.
   */
  async function setPublic(input: { credentials: PublisherCredentials; videoId: string; proxyUrl?: string }): Promise<void> {
    await updateStatus(input.credentials, input.videoId, { privacyStatus: 'public' }, input.proxyUrl);
  }

  /**
   * Keeps a private video private until `publishAt`, when YouTube publishes it (the approval of a
   * reviewed video for its publication time). The video's other status fields are kept.
   */
  async function schedule(input: {
    credentials: PublisherCredentials;
    videoId: string;
    publishAt: Date;
    proxyUrl?: string;
  }): Promise<void> {
    await updateStatus(
      input.credentials,
      input.videoId,
      { privacyStatus: 'private', publishAt: input.publishAt.toISOString() },
      input.proxyUrl,
    );
  }

  /** videos.update(part=status) with `change`, after reading the fields YouTube wants sent back. A public video stays public. */
  async function updateStatus(
    credentials: PublisherCredentials,
    videoId: string,
    change: { privacyStatus: 'public' } | { privacyStatus: 'private'; publishAt: string },
    proxyUrl?: string,
  ): Promise<void> {
    const yt = api(credentials, proxyUrl);
    const listed = await withRetry(() => yt.videos.list({ id: [videoId], part: ['status'] }, callOptions));
    const status = listed.data.items?.find((v) => v.id === videoId)?.status;
    if (!status) throw new PublishError('not_found', `YouTube has no video ${videoId}`, 404, 'videoNotFound');
    if (status.privacyStatus === 'public') return;
    const requestBody: youtube_v3.Schema$Video = {
      id: videoId,
      status: {
        ...change,
        ...(status.license != null ? { license: status.license } : {}),
        ...(status.embeddable != null ? { embeddable: status.embeddable } : {}),
        ...(status.publicStatsViewable != null ? { publicStatsViewable: status.publicStatsViewable } : {}),
        ...(status.selfDeclaredMadeForKids != null ? { selfDeclaredMadeForKids: status.selfDeclaredMadeForKids } : {}),
        ...(status.containsSyntheticMedia != null ? { containsSyntheticMedia: status.containsSyntheticMedia } : {}),
      },
    };
    await withRetry(() => yt.videos.update({ part: ['status'], requestBody }, callOptions));
  }

  /** videos.delete; a video YouTube does not have answers 'not_found'. */
  async function deleteVideo(input: {
    credentials: PublisherCredentials;
    videoId: string;
    proxyUrl?: string;
  }): Promise<'deleted' | 'not_found'> {
    const yt = api(input.credentials, input.proxyUrl);
    try {
      await withRetry(() => yt.videos.delete({ id: input.videoId }, callOptions));
      return 'deleted';
    } catch (error) {
      if (error instanceof PublishError && error.kind === 'not_found') return 'not_found';
      throw error;
    }
  }

  /** videos.list(part=statistics,status), 50 ids per call; videos YouTube no longer has are absent. */
  async function videoStats(input: {
    credentials: PublisherCredentials;
    videoIds: string[];
    proxyUrl?: string;
  }): Promise<Map<string, VideoStats>> {
    const ids = [...new Set(input.videoIds.filter(Boolean))];
    const found = new Map<string, VideoStats>();
    if (ids.length === 0) return found;
    const yt = api(input.credentials, input.proxyUrl);
    for (let i = 0; i < ids.length; i += VIDEOS_PER_LIST) {
      const batch = ids.slice(i, i + VIDEOS_PER_LIST);
      const response = await withRetry(() =>
        yt.videos.list({ id: batch, part: ['statistics', 'status'], maxResults: VIDEOS_PER_LIST }, callOptions),
      );
      for (const item of response.data.items ?? []) {
        if (!item.id) continue;
        found.set(item.id, {
          views: toCount(item.statistics?.viewCount) ?? 0,
          likes: toCount(item.statistics?.likeCount) ?? 0,
          privacyStatus: item.status?.privacyStatus ?? 'private',
          uploadStatus: item.status?.uploadStatus ?? 'uploaded',
          failureReason: item.status?.failureReason ?? item.status?.rejectionReason ?? null,
        });
      }
    }
    return found;
  }

  /** channels.list(part=statistics, id=…), 50 ids per call. */
  async function channelStats(input: {
    credentials: PublisherCredentials;
    channelIds: string[];
    proxyUrl?: string;
  }): Promise<Map<string, ChannelStats>> {
    const ids = [...new Set(input.channelIds.filter(Boolean))];
    const found = new Map<string, ChannelStats>();
    if (ids.length === 0) return found;
    const yt = api(input.credentials, input.proxyUrl);
    for (let i = 0; i < ids.length; i += VIDEOS_PER_LIST) {
      const batch = ids.slice(i, i + VIDEOS_PER_LIST);
      const response = await withRetry(() =>
        yt.channels.list({ id: batch, part: ['statistics'], maxResults: VIDEOS_PER_LIST }, callOptions),
      );
      for (const item of response.data.items ?? []) {
        if (!item.id) continue;
        const statistics = item.statistics;
        found.set(item.id, {
          subscribers: statistics?.hiddenSubscriberCount ? null : toCount(statistics?.subscriberCount),
          videos: toCount(statistics?.videoCount),
          views: toCount(statistics?.viewCount),
        });
      }
    }
    return found;
  }

  return { uploadVideo, setThumbnail, insertCaptions, setPublic, schedule, deleteVideo, videoStats, channelStats };
}

export type YoutubePublisher = ReturnType<typeof createYoutubePublisher>;
