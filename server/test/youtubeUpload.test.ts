import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeGoogle, type FakeGoogle, type FakeRequest } from '../fakes/google';
import {
  PublishError,
  createYoutubePublisher,
  type PublisherOptions,
  type UploadSession,
  type VideoMetadata,
} from '../src/providers/youtubeUpload';

/**
 * Publishing through the official Google clients against the fake YouTube API: the resumable
 * upload (chunks, a broken connection, a session stored by a process that died, an expired
 * session), the errors that must not be retried, and the calls around the upload.
 */

const CLIENT = { clientId: 'upload-client.apps.googleusercontent.com', clientSecret: 'GOCSPX-upload-secret' };
const CHANNEL = 'UC_upload_channel';
const OTHER_CHANNEL = 'UC_someone_elses';
const CHUNK = 256 * 1024 * 4;
const FILE_BYTES = 3_000_000;
const UPLOAD_PATH = '/upload/youtube/v3/videos';
const DAY_MS = 24 * 60 * 60 * 1000;

let google: FakeGoogle;
let dir: string;
let videoFile: string;
let videoSha: string;
let credentials: typeof CLIENT & { refreshToken: string };
let otherCredentials: typeof CLIENT & { refreshToken: string };

beforeAll(async () => {
  google = await startFakeGoogle();
  google.addClient(CLIENT.clientId, CLIENT.clientSecret);
  const other = google.addAccount([
    { id: OTHER_CHANNEL, title: 'Someone else', subscriberCount: 7, videoCount: 1, viewCount: 50, hiddenSubscriberCount: true },
  ]);
  const account = google.addAccount([
    { id: CHANNEL, title: 'Histórias', subscriberCount: 1200, videoCount: 34, viewCount: 98_765 },
  ]);
  credentials = { ...CLIENT, refreshToken: google.issueRefreshToken(CLIENT.clientId, account) };
  otherCredentials = { ...CLIENT, refreshToken: google.issueRefreshToken(CLIENT.clientId, other) };
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-youtube-upload-'));
  videoFile = path.join(dir, 'video.mp4');
  const bytes = crypto.randomBytes(FILE_BYTES);
  fs.writeFileSync(videoFile, bytes);
  videoSha = crypto.createHash('sha256').update(bytes).digest('hex');
});

afterEach(() => {
  google.failNextApiCalls(0);
  google.failNextUploadChunks(0);
  google.setNow(() => new Date());
});

afterAll(async () => {
  await google.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const publisher = (options: PublisherOptions = {}) =>
  createYoutubePublisher(
    { tokenUrl: google.tokenUrl, authUrl: google.authUrl, apiUrl: google.apiUrl },
    { chunkBytes: CHUNK, backoffBaseMs: 5, maxRetries: 3, timeoutMs: 10_000, ...options },
  );

function metadata(overrides: Partial<VideoMetadata> = {}): VideoMetadata {
  return {
    title: 'A Carta Esquecida',
    description: 'Uma carta escondida por cinquenta anos muda uma família.',
    tags: ['Histórias', 'Português'],
    language: 'pt-BR',
    publishAt: new Date(Date.now() + 2 * DAY_MS),
    madeForKids: false,
    syntheticMedia: true,
    ...overrides,
  };
}

/** The requests made while `run` ran. */
async function recorded<T>(run: () => Promise<T>): Promise<{ result: T; requests: FakeRequest[] }> {
  const from = google.requests.length;
  const result = await run();
  return { result, requests: google.requests.slice(from) };
}

async function failure(promise: Promise<unknown>): Promise<PublishError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PublishError);
  return error as PublishError;
}

const sessionPuts = (requests: FakeRequest[]) => requests.filter((r) => r.method === 'PUT' && r.path === UPLOAD_PATH);
const initiations = (requests: FakeRequest[]) => requests.filter((r) => r.method === 'POST' && r.path === UPLOAD_PATH);
const uploadsOf = (videoId: string) => google.uploads.filter((u) => u.id === videoId);

/** An upload that a broken connection stops (no retries): the session it stored. */
async function interruptedUpload(afterBytes: number): Promise<UploadSession> {
  const stored: UploadSession[] = [];
  google.breakUploadAfter(afterBytes);
  const error = await failure(
    publisher({ maxRetries: 0 }).uploadVideo({
      credentials,
      file: videoFile,
      metadata: metadata(),
      onSession: async (session) => void stored.push(session),
    }),
  );
  expect(error.kind).toBe('network');
  expect(stored).toHaveLength(1);
  return stored[0]!;
}

describe('resumable upload', () => {
  test('a 3 MB file arrives byte-identical in 1 MiB chunks, private with its metadata', async () => {
    const sessions: UploadSession[] = [];
    const meta = metadata();
    const { result, requests } = await recorded(() =>
      publisher().uploadVideo({ credentials, file: videoFile, metadata: meta, onSession: async (s) => void sessions.push(s) }),
    );
    expect(sessions).toEqual([
      { uri: expect.stringContaining(`${google.url}${UPLOAD_PATH}?uploadType=resumable&upload_id=`), total: FILE_BYTES },
    ]);
    expect(initiations(requests)).toHaveLength(1);
    expect(initiations(requests)[0]!.query).toMatchObject({ uploadType: 'resumable', part: 'snippet,status' });
    expect(sessionPuts(requests).map((r) => r.contentRange)).toEqual([
      `bytes 0-${CHUNK - 1}/${FILE_BYTES}`,
      `bytes ${CHUNK}-${2 * CHUNK - 1}/${FILE_BYTES}`,
      `bytes ${2 * CHUNK}-${FILE_BYTES - 1}/${FILE_BYTES}`,
    ]);

    const [upload] = uploadsOf(result.videoId);
    expect(upload).toMatchObject({ bytes: FILE_BYTES, sha256: videoSha, contentType: 'video/mp4' });
    expect(upload!.metadata).toEqual({
      snippet: {
        title: 'A Carta Esquecida',
        description: meta.description,
        tags: ['Histórias', 'Português'],
        categoryId: '24',
        defaultLanguage: 'pt-BR',
        defaultAudioLanguage: 'pt-BR',
      },
      status: {
        privacyStatus: 'private',
        publishAt: meta.publishAt!.toISOString(),
        selfDeclaredMadeForKids: false,
        containsSyntheticMedia: true,
      },
    });
    const video = google.videos.get(result.videoId)!;
    expect(video.snippet).toMatchObject({
      channelId: CHANNEL,
      title: 'A Carta Esquecida',
      defaultAudioLanguage: 'pt-BR',
      categoryId: '24',
    });
    expect(video.status).toMatchObject({
      privacyStatus: 'private',
      publishAt: meta.publishAt!.toISOString(),
      selfDeclaredMadeForKids: false,
      madeForKids: false,
      containsSyntheticMedia: true,
    });
  });

  test('a connection broken mid-chunk resumes from what YouTube kept: one video, the same bytes', async () => {
    const sessions: UploadSession[] = [];
    google.breakUploadAfter(300_000);
    const { result, requests } = await recorded(() =>
      publisher().uploadVideo({
        credentials,
        file: videoFile,
        metadata: metadata(),
        onSession: async (s) => void sessions.push(s),
      }),
    );
    expect(sessions).toHaveLength(1);
    expect(initiations(requests)).toHaveLength(1);
    const ranges = sessionPuts(requests).map((r) => r.contentRange);
    expect(ranges.slice(0, 3)).toEqual([
      `bytes 0-${CHUNK - 1}/${FILE_BYTES}`,
      `bytes */${FILE_BYTES}`,
      `bytes 300000-${300_000 + CHUNK - 1}/${FILE_BYTES}`,
    ]);
    expect(uploadsOf(result.videoId)).toEqual([expect.objectContaining({ bytes: FILE_BYTES, sha256: videoSha })]);
    expect(google.uploads.filter((u) => u.sessionId === sessions[0]!.uri.split('upload_id=')[1])).toHaveLength(1);
  });

  test('a server error on a chunk asks what YouTube has and goes on', async () => {
    google.failNextUploadChunks(1);
    const { result, requests } = await recorded(() =>
      publisher().uploadVideo({ credentials, file: videoFile, metadata: metadata(), onSession: async () => undefined }),
    );
    expect(
      sessionPuts(requests)
        .map((r) => r.contentRange)
        .slice(0, 3),
    ).toEqual([`bytes 0-${CHUNK - 1}/${FILE_BYTES}`, `bytes */${FILE_BYTES}`, `bytes 0-${CHUNK - 1}/${FILE_BYTES}`]);
    expect(uploadsOf(result.videoId)).toEqual([expect.objectContaining({ sha256: videoSha })]);
  });

  test('a new process resumes the stored session instead of making a second video', async () => {
    const videosBefore = google.videos.size;
    const sessionsBefore = google.uploadSessions.size;
    const stored = await interruptedUpload(500_000);
    expect(google.videos.size).toBe(videosBefore);

    // A fresh publisher, as after a restart, with only the stored session.
    const again: UploadSession[] = [];
    const { result, requests } = await recorded(() =>
      publisher().uploadVideo({
        credentials,
        file: videoFile,
        metadata: metadata(),
        session: { ...stored },
        onSession: async (s) => void again.push(s),
      }),
    );
    expect(again).toEqual([]);
    expect(initiations(requests)).toHaveLength(0);
    expect(sessionPuts(requests)[0]!.contentRange).toBe(`bytes */${FILE_BYTES}`);
    expect(sessionPuts(requests)[1]!.contentRange).toBe(`bytes 500000-${500_000 + CHUNK - 1}/${FILE_BYTES}`);
    expect(google.uploadSessions.size).toBe(sessionsBefore + 1);
    expect(google.videos.size).toBe(videosBefore + 1);
    expect(uploadsOf(result.videoId)).toEqual([expect.objectContaining({ bytes: FILE_BYTES, sha256: videoSha })]);

    // Asked again with the finished session (the answer was lost before it was saved): the same video.
    const replay = await publisher().uploadVideo({
      credentials,
      file: videoFile,
      metadata: metadata(),
      session: stored,
      onSession: async () => undefined,
    });
    expect(replay.videoId).toBe(result.videoId);
    expect(google.videos.size).toBe(videosBefore + 1);
  });

  test('an expired session starts a new one and hands it over', async () => {
    const stored = await interruptedUpload(400_000);
    google.expireUploadSessions();
    const sessions: UploadSession[] = [];
    const { result, requests } = await recorded(() =>
      publisher().uploadVideo({
        credentials,
        file: videoFile,
        metadata: metadata(),
        session: stored,
        onSession: async (s) => void sessions.push(s),
      }),
    );
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.uri).not.toBe(stored.uri);
    expect(initiations(requests)).toHaveLength(1);
    expect(sessionPuts(requests)[0]!.contentRange).toBe(`bytes */${FILE_BYTES}`);
    expect(sessionPuts(requests)[1]!.contentRange).toBe(`bytes 0-${CHUNK - 1}/${FILE_BYTES}`);
    expect(uploadsOf(result.videoId)).toEqual([expect.objectContaining({ bytes: FILE_BYTES, sha256: videoSha })]);
  });

  test('a stored session for a file of another size is not resumed', async () => {
    const stored = await interruptedUpload(100_000);
    const sessions: UploadSession[] = [];
    const { requests } = await recorded(() =>
      publisher().uploadVideo({
        credentials,
        file: videoFile,
        metadata: metadata(),
        session: { ...stored, total: FILE_BYTES + 1 },
        onSession: async (s) => void sessions.push(s),
      }),
    );
    expect(sessions).toHaveLength(1);
    expect(initiations(requests)).toHaveLength(1);
  });

  test('server errors when starting the session are retried', async () => {
    google.failNextApiCalls(2, 'backendError');
    const { result, requests } = await recorded(() =>
      publisher().uploadVideo({ credentials, file: videoFile, metadata: metadata(), onSession: async () => undefined }),
    );
    expect(initiations(requests)).toHaveLength(3);
    expect(uploadsOf(result.videoId)).toHaveLength(1);
  });

  test('rateLimitExceeded (too fast, not out of quota) is retried with backoff', async () => {
    google.failNextApiCalls(2, 'rateLimitExceeded');
    const { result, requests } = await recorded(() =>
      publisher().uploadVideo({ credentials, file: videoFile, metadata: metadata(), onSession: async () => undefined }),
    );
    expect(initiations(requests)).toHaveLength(3);
    expect(uploadsOf(result.videoId)).toHaveLength(1);
  });

  test.each([
    ['quotaExceeded', 'quota', 403],
    ['uploadLimitExceeded', 'upload_limit', 400],
  ] as const)('%s is a %s PublishError and is not retried', async (reason, kind, status) => {
    google.failNextApiCalls(3, reason);
    const onSession = jest.fn(async () => undefined);
    const uploadsBefore = google.uploads.length;
    const from = google.requests.length;
    const error = await failure(publisher().uploadVideo({ credentials, file: videoFile, metadata: metadata(), onSession }));
    expect(error).toMatchObject({ kind, status, reason });
    expect(initiations(google.requests.slice(from))).toHaveLength(1);
    expect(onSession).not.toHaveBeenCalled();
    expect(google.uploads.length).toBe(uploadsBefore);
  });

  test('a revoked refresh token is invalid_grant, asked once', async () => {
    const account = google.addAccount([{ id: 'UC_revoked', title: 'Revoked', subscriberCount: 0, videoCount: 0, viewCount: 0 }]);
    const refreshToken = google.issueRefreshToken(CLIENT.clientId, account);
    google.revoke(refreshToken);
    const from = google.requests.length;
    const error = await failure(
      publisher().uploadVideo({
        credentials: { ...CLIENT, refreshToken },
        file: videoFile,
        metadata: metadata(),
        onSession: async () => undefined,
      }),
    );
    expect(error.kind).toBe('invalid_grant');
    const requests = google.requests.slice(from);
    expect(requests.filter((r) => r.path === '/token')).toHaveLength(1);
    expect(initiations(requests)).toHaveLength(0);
  });

  test('metadata YouTube refuses fails at once with its reason', async () => {
    const from = google.requests.length;
    const error = await failure(
      publisher().uploadVideo({
        credentials,
        file: videoFile,
        metadata: metadata({ publishAt: new Date(Date.now() - DAY_MS) }),
        onSession: async () => undefined,
      }),
    );
    expect(error).toMatchObject({ kind: 'other', status: 400, reason: 'invalidPublishAt' });
    expect(initiations(google.requests.slice(from))).toHaveLength(1);
  });

  test('titles are kept within what YouTube accepts', async () => {
    const { videoId } = await publisher().uploadVideo({
      credentials,
      file: videoFile,
      metadata: metadata({ title: `<O Segredo> ${'da Avó '.repeat(30)}`, tags: ['a'.repeat(300), 'b'.repeat(300)] }),
      onSession: async () => undefined,
    });
    const video = google.videos.get(videoId)!;
    expect([...video.snippet.title].length).toBeLessThanOrEqual(100);
    expect(video.snippet.title.startsWith('O Segredo da Avó')).toBe(true);
    expect(video.snippet.tags).toEqual(['a'.repeat(300)]);
  });

  test('an aborted upload stops with the signal’s reason', async () => {
    const controller = new AbortController();
    const reason = new Error('execution cancelled');
    const promise = publisher().uploadVideo({
      credentials,
      file: videoFile,
      metadata: metadata(),
      onSession: async () => controller.abort(reason),
      signal: controller.signal,
    });
    await expect(promise).rejects.toBe(reason);
  });
});

describe('around the upload', () => {
  let videoId: string;

  beforeAll(async () => {
    ({ videoId } = await publisher().uploadVideo({
      credentials,
      file: videoFile,
      metadata: metadata(),
      onSession: async () => undefined,
    }));
  });

  test('thumbnails.set sends the image as media to the configured root', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(50_000)]);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(40_000)]);
    fs.writeFileSync(path.join(dir, 'thumb.jpg'), jpeg);
    fs.writeFileSync(path.join(dir, 'thumb.png'), png);
    const { requests } = await recorded(() =>
      publisher().setThumbnail({ credentials, videoId, file: path.join(dir, 'thumb.jpg') }),
    );
    expect(requests.find((r) => r.path === '/upload/youtube/v3/thumbnails/set')?.query).toMatchObject({
      videoId,
      uploadType: 'media',
    });
    expect(google.thumbnails.get(videoId)).toMatchObject({
      contentType: 'image/jpeg',
      bytes: jpeg.length,
      sha256: crypto.createHash('sha256').update(jpeg).digest('hex'),
    });
    await publisher().setThumbnail({ credentials, videoId, file: path.join(dir, 'thumb.png') });
    expect(google.thumbnails.get(videoId)).toMatchObject({ contentType: 'image/png', bytes: png.length });

    const stranger = await failure(
      publisher().setThumbnail({ credentials: otherCredentials, videoId, file: path.join(dir, 'thumb.jpg') }),
    );
    expect(stranger).toMatchObject({ kind: 'unauthorized', status: 403 });
    const missing = await failure(
      publisher().setThumbnail({ credentials, videoId: 'nonexistent', file: path.join(dir, 'thumb.jpg') }),
    );
    expect(missing).toMatchObject({ kind: 'not_found', reason: 'videoNotFound' });
  });

  test('setPublic makes the video public and keeps its other status fields', async () => {
    const { requests } = await recorded(() => publisher().setPublic({ credentials, videoId }));
    const update = requests.find((r) => r.method === 'PUT' && r.path === '/youtube/v3/videos');
    expect(update?.json).toEqual({
      id: videoId,
      status: {
        privacyStatus: 'public',
        license: 'youtube',
        embeddable: true,
        publicStatsViewable: true,
        selfDeclaredMadeForKids: false,
        containsSyntheticMedia: true,
      },
    });
    const status = google.videos.get(videoId)!.status;
    expect(status).toMatchObject({
      privacyStatus: 'public',
      containsSyntheticMedia: true,
      selfDeclaredMadeForKids: false,
      uploadStatus: 'processed',
    });
    expect(status.publishAt).toBeUndefined();

    // Already public: nothing to update.
    const { requests: again } = await recorded(() => publisher().setPublic({ credentials, videoId }));
    expect(again.filter((r) => r.method === 'PUT')).toHaveLength(0);

    const mine = google.addVideo({ channelId: CHANNEL, title: 'Mine', privacyStatus: 'private' });
    expect(await failure(publisher().setPublic({ credentials: otherCredentials, videoId: mine }))).toMatchObject({
      kind: 'not_found',
    });
    const theirs = google.addVideo({ channelId: OTHER_CHANNEL, title: 'Theirs', privacyStatus: 'unlisted' });
    expect(await failure(publisher().setPublic({ credentials, videoId: theirs }))).toMatchObject({
      kind: 'unauthorized',
      status: 403,
      reason: 'forbidden',
    });
    expect(google.videos.get(theirs)!.status.privacyStatus).toBe('unlisted');
  });

  test('a failed videos.update is a quota error when the quota is used up', async () => {
    const id = google.addVideo({ channelId: CHANNEL, title: 'Quota day', privacyStatus: 'private' });
    google.failNextApiCalls(5, 'quotaExceeded');
    expect(await failure(publisher().setPublic({ credentials, videoId: id }))).toMatchObject({
      kind: 'quota',
      reason: 'quotaExceeded',
    });
    expect(google.videos.get(id)!.status.privacyStatus).toBe('private');
  });

  test('deleteVideo: deleted, then not_found; someone else’s video is refused', async () => {
    const doomed = google.addVideo({ channelId: CHANNEL, title: 'Doomed', privacyStatus: 'private' });
    expect(await publisher().deleteVideo({ credentials, videoId: doomed })).toBe('deleted');
    expect(google.videos.has(doomed)).toBe(false);
    expect(await publisher().deleteVideo({ credentials, videoId: doomed })).toBe('not_found');
    const theirs = google.addVideo({ channelId: OTHER_CHANNEL, title: 'Theirs' });
    expect(await failure(publisher().deleteVideo({ credentials, videoId: theirs }))).toMatchObject({
      kind: 'unauthorized',
      status: 403,
    });
    expect(google.videos.has(theirs)).toBe(true);
  });

  test('videoStats asks 50 ids per call and leaves out videos YouTube no longer has', async () => {
    const ids = Array.from({ length: 117 }, (_, i) =>
      google.addVideo({ channelId: CHANNEL, title: `Story ${i}`, privacyStatus: 'public' }),
    );
    google.setVideoStats(ids[0]!, { views: 1234, likes: 56 });
    const scheduled = google.addVideo({
      channelId: CHANNEL,
      title: 'Scheduled',
      privacyStatus: 'private',
      publishAt: new Date(Date.now() + 60 * 60 * 1000),
    });
    const broken = google.addVideo({
      channelId: CHANNEL,
      title: 'Broken',
      privacyStatus: 'private',
      uploadStatus: 'failed',
      failureReason: 'codec',
    });
    const gone = google.addVideo({ channelId: CHANNEL, title: 'Gone' });
    await publisher().deleteVideo({ credentials, videoId: gone });
    google.setNow(() => new Date(Date.now() + 2 * 60 * 60 * 1000));

    const all = [...ids, scheduled, broken, gone];
    expect(all).toHaveLength(120);
    const { result, requests } = await recorded(() => publisher().videoStats({ credentials, videoIds: all }));
    const lists = requests.filter((r) => r.method === 'GET' && r.path === '/youtube/v3/videos');
    expect(lists).toHaveLength(3);
    expect(result.size).toBe(119);
    expect(result.has(gone)).toBe(false);
    expect(result.get(ids[0]!)).toEqual({
      views: 1234,
      likes: 56,
      privacyStatus: 'public',
      uploadStatus: 'processed',
      failureReason: null,
    });
    expect(result.get(scheduled)).toMatchObject({ privacyStatus: 'public' });
    expect(result.get(broken)).toMatchObject({ uploadStatus: 'failed', failureReason: 'codec', privacyStatus: 'private' });
    expect(await publisher().videoStats({ credentials, videoIds: [] })).toEqual(new Map());
  });

  test('channelStats reads channels by id; a hidden subscriber count is null', async () => {
    const { result, requests } = await recorded(() =>
      publisher().channelStats({ credentials, channelIds: [CHANNEL, OTHER_CHANNEL, 'UC_nobody'] }),
    );
    expect(requests.filter((r) => r.path === '/youtube/v3/channels')).toHaveLength(1);
    expect(result).toEqual(
      new Map([
        [CHANNEL, { subscribers: 1200, videos: 34, views: 98_765 }],
        [OTHER_CHANNEL, { subscribers: null, videos: 1, views: 50 }],
      ]),
    );
  });
});

describe('the fake’s answers to other clients', () => {
  async function accessToken(): Promise<string> {
    const response = await fetch(google.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: credentials.refreshToken,
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      }),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  }

  test('thumbnails over 2 MB, unknown sessions, 51 ids and a title over 100 characters are refused', async () => {
    const bearer = { authorization: `Bearer ${await accessToken()}` };
    const video = google.addVideo({ channelId: CHANNEL, title: 'Big thumbnail' });
    const big = await fetch(`${google.url}/upload/youtube/v3/thumbnails/set?videoId=${video}&uploadType=media`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'image/jpeg' },
      body: Buffer.alloc(2 * 1024 * 1024 + 1),
    });
    expect(big.status).toBe(400);
    expect(((await big.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]!.reason).toBe('mediaBodyTooLarge');

    const unknown = await fetch(`${google.url}${UPLOAD_PATH}?uploadType=resumable&upload_id=nope`, {
      method: 'PUT',
      headers: { 'content-range': 'bytes */10' },
    });
    expect(unknown.status).toBe(404);

    const ids = Array.from({ length: 51 }, (_, i) => `id${i}`).join(',');
    const many = await fetch(`${google.url}/youtube/v3/videos?part=statistics&id=${ids}`, { headers: bearer });
    expect(many.status).toBe(400);

    const long = await fetch(`${google.url}${UPLOAD_PATH}?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: {
        ...bearer,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': '10',
        'x-upload-content-type': 'video/mp4',
      },
      body: JSON.stringify({ snippet: { title: 'x'.repeat(101) }, status: { privacyStatus: 'private' } }),
    });
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({
      error: {
        code: 400,
        message: expect.any(String),
        errors: [{ reason: 'invalidTitle', domain: 'youtube.video', message: expect.any(String) }],
      },
    });
  });

  test('a whole-file PUT finishes the upload; the status query then answers the video', async () => {
    const bearer = { authorization: `Bearer ${await accessToken()}` };
    const started = await fetch(`${google.url}${UPLOAD_PATH}?uploadType=resumable&part=snippet,status`, {
      method: 'POST',
      headers: {
        ...bearer,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': '5',
        'x-upload-content-type': 'video/mp4',
      },
      body: JSON.stringify({ snippet: { title: 'Tiny' }, status: { privacyStatus: 'unlisted' } }),
    });
    const location = started.headers.get('location')!;
    const status = await fetch(location, { method: 'PUT', headers: { 'content-range': 'bytes */5' } });
    expect(status.status).toBe(308);
    expect(status.headers.get('range')).toBeNull();
    const done = await fetch(location, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: Buffer.from('hello') });
    expect(done.status).toBe(200);
    const video = (await done.json()) as { kind: string; id: string; status: { uploadStatus: string; privacyStatus: string } };
    expect(video).toMatchObject({ kind: 'youtube#video', status: { uploadStatus: 'uploaded', privacyStatus: 'unlisted' } });
    const again = await fetch(location, { method: 'PUT', headers: { 'content-range': 'bytes */5' } });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(video.id);
  });
});
