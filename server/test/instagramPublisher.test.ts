import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { startFakeMeta, type FakeMeta, type FakeMetaUser } from '../fakes/meta';
import { sendDrip, sendStream, sendWhole, startHostileServer, type HostileServer } from '../fakes/hostile';
import {
  PlatformError,
  type LedgerEntry,
  type PublishLedger,
  type PublishRequest,
  type Tokens,
} from '../src/providers/publishers/contract';
import {
  CAPTION_MAX_CHARS,
  CAPTION_MAX_HASHTAGS,
  CAPTION_MAX_MENTIONS,
  INSTAGRAM_SCOPES,
  buildInstagramCaption,
  captionCounts,
  classifyMetaError,
  createInstagramPublisher,
  type InstagramPublisher,
} from '../src/providers/publishers/instagram';

/**
 * The Instagram Reels publisher against the fake Meta (dialog, Graph API, upload host): consent to
 * a published Reel, every documented error to its PlatformError kind without retry storms, the
 * ledger that makes a crash at any step end in exactly one post, and hostile answers.
 */

const APP = { clientId: '1234567890123', clientSecret: 'meta-app-secret-value' };
const REDIRECT = 'https://console.example/api/platforms/instagram/callback';
const FAST = { timeoutMs: 5_000, maxRetries: 3, backoffBaseMs: 1 };
const DAY_MS = 24 * 3600_000;

const USER: FakeMetaUser = {
  id: '100200300',
  name: 'Ana Owner',
  pages: [
    { id: '5001', name: 'Page without Instagram' },
    {
      id: '5002',
      name: 'Stories Page',
      instagram: {
        id: '178414000001',
        username: 'stories.br',
        name: 'Stories BR',
        profilePictureUrl: 'https://cdn.example/p.jpg',
      },
    },
  ],
};

let meta: FakeMeta;
let publisher: InstagramPublisher;
let dir: string;
let videoFile: string;
let videoSha: string;
let clock = Date.now();

function memoryLedger(
  initial: LedgerEntry | null = null,
): PublishLedger & { entries: LedgerEntry[]; failOn?: (e: LedgerEntry) => boolean } {
  const ledger = {
    entries: initial ? [initial] : ([] as LedgerEntry[]),
    failOn: undefined as ((e: LedgerEntry) => boolean) | undefined,
    async read() {
      return ledger.entries.at(-1) ?? null;
    },
    async write(entry: LedgerEntry) {
      if (ledger.failOn?.(entry)) throw new Error('lease lost');
      ledger.entries.push({ ...entry });
    },
  };
  return ledger;
}

function request(caption = `Reel ${crypto.randomUUID()}`): PublishRequest {
  return { file: videoFile, size: fs.statSync(videoFile).size, durationSec: 42, caption, aiGenerated: true };
}

const count = (pathPart: string, method?: string) =>
  meta.requests.filter((r) => r.path.includes(pathPart) && (!method || r.method === method)).length;

/** Consent through the fake dialog, as a browser would follow it. */
async function consent(): Promise<URL> {
  const answer = await fetch(publisher.authorizeUrl({ app: APP, state: 'state-1', redirectUri: REDIRECT }), {
    redirect: 'manual',
  });
  return new URL(answer.headers.get('location')!);
}

async function connectAccount(): Promise<{ tokens: Tokens; igUserId: string }> {
  const back = await consent();
  const userTokens = await publisher.connect({ app: APP, code: back.searchParams.get('code')!, redirectUri: REDIRECT }, FAST);
  const [choice] = await publisher.accounts({ accessToken: userTokens.accessToken }, FAST);
  return { tokens: publisher.chosenTokens(userTokens, choice!), igUserId: choice!.igUserId };
}

/**
 * A Reel uploaded by an attempt that stopped waiting while Meta still processed it (a minute of
 * processing on the fake's clock): the attempt answered `processing`, the ledger says `uploaded`.
 */
async function leftProcessing() {
  const { tokens, igUserId } = await connectAccount();
  meta.setProcessingDelay(60_000);
  const ledger = memoryLedger();
  const req = request();
  const slow = createInstagramPublisher(
    { authUrl: meta.authUrl, apiUrl: meta.apiUrl, uploadUrl: meta.uploadUrl },
    { pollIntervalMs: 5, maxProcessingMs: 30 },
  );
  const outcome = await slow.publish({ accessToken: tokens.accessToken, externalId: igUserId, request: req, ledger }, FAST);
  expect(outcome).toEqual({ status: 'processing', postId: null, postUrl: null });
  expect((await ledger.read())?.phase).toBe('uploaded');
  return { tokens, igUserId, ledger, req };
}

/** A Reels container made by a call of its own (a crash's leftover that a ledger names). */
async function containerMadeAside(token: string, igUserId: string, caption: string): Promise<{ id: string; uri: string }> {
  const made = await fetch(`${meta.url}/v21.0/${igUserId}/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: `media_type=REELS&upload_type=resumable&caption=${caption}`,
  });
  return (await made.json()) as { id: string; uri: string };
}

/** Runs `steps` with a new owner (one Page, one Instagram account) consenting at the dialog. */
async function asNewOwner(userId: string, steps: () => Promise<void>): Promise<void> {
  meta.addUser({
    id: userId,
    name: `Owner ${userId}`,
    pages: [
      {
        id: `6${userId}`,
        name: `Page ${userId}`,
        instagram: { id: `178414${userId}`, username: `u${userId}`, name: 'U', profilePictureUrl: 'https://cdn.example/u.jpg' },
      },
    ],
  });
  meta.setConsentUser(userId);
  try {
    await steps();
  } finally {
    meta.setConsentUser(USER.id);
  }
}

beforeAll(async () => {
  meta = await startFakeMeta();
  meta.addApp(APP.clientId, APP.clientSecret);
  meta.addUser(USER);
  meta.setClock(() => new Date(clock));
  publisher = createInstagramPublisher(
    { authUrl: meta.authUrl, apiUrl: meta.apiUrl, uploadUrl: meta.uploadUrl },
    { pollIntervalMs: 5, maxProcessingMs: 2_000 },
  );
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ig-publisher-'));
  videoFile = path.join(dir, 'reel.mp4');
  const bytes = crypto.randomBytes(1_500_000);
  fs.writeFileSync(videoFile, bytes);
  videoSha = crypto.createHash('sha256').update(bytes).digest('hex');
});

afterAll(async () => {
  await meta.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  clock = Date.now();
  meta.setQuota(100);
  meta.setProcessingDelay(0);
  meta.failNextApiCalls(0, { code: 2 });
});

describe('consent and account', () => {
  it('asks for the four scopes and exchanges the code for a 60-day token', async () => {
    const url = new URL(publisher.authorizeUrl({ app: APP, state: 's', redirectUri: REDIRECT }));
    expect(url.searchParams.get('scope')).toBe(INSTAGRAM_SCOPES.join(','));
    expect(url.searchParams.get('response_type')).toBe('code');
    const business = createInstagramPublisher({ authUrl: meta.authUrl, apiUrl: meta.apiUrl }, { configId: '987654' });
    const withConfig = new URL(business.authorizeUrl({ app: APP, state: 's', redirectUri: REDIRECT }));
    expect(withConfig.searchParams.get('config_id')).toBe('987654');
    expect(withConfig.searchParams.has('scope')).toBe(false);
    const back = await consent();
    expect(back.searchParams.get('state')).toBe('state-1');
    const tokens = await publisher.connect({ app: APP, code: back.searchParams.get('code')!, redirectUri: REDIRECT }, FAST);
    expect(tokens.scopes.sort()).toEqual([...INSTAGRAM_SCOPES].sort());
    const days = (tokens.accessExpiresAt!.getTime() - Date.now()) / DAY_MS;
    expect(days).toBeGreaterThan(59);
    // A code is good once.
    await expect(
      publisher.connect({ app: APP, code: back.searchParams.get('code')!, redirectUri: REDIRECT }, FAST),
    ).rejects.toMatchObject({ kind: 'other', code: '100/36007' });
  });

  it('lists only the Pages with a linked Instagram account, and profile answers the chosen one', async () => {
    const back = await consent();
    const user = await publisher.connect({ app: APP, code: back.searchParams.get('code')!, redirectUri: REDIRECT }, FAST);
    const choices = await publisher.accounts({ accessToken: user.accessToken }, FAST);
    expect(choices).toEqual([
      {
        pageId: '5002',
        pageName: 'Stories Page',
        igUserId: '178414000001',
        username: 'stories.br',
        pictureUrl: 'https://cdn.example/p.jpg',
        pageAccessToken: expect.any(String),
      },
    ]);
    const tokens = publisher.chosenTokens(user, choices[0]!);
    expect(tokens.accessExpiresAt).toBeNull();
    expect(tokens.refreshToken).toBe(user.accessToken);
    await expect(publisher.profile({ accessToken: tokens.accessToken }, FAST)).resolves.toEqual({
      externalId: '178414000001',
      username: 'stories.br',
      displayName: 'Stories BR',
      avatarUrl: 'https://cdn.example/p.jpg',
    });
    // The user token is not an account's token: /me is then the user, with no Instagram account.
    await expect(publisher.profile({ accessToken: user.accessToken }, FAST)).rejects.toMatchObject({ kind: 'reauthorize' });
  });

  it('reads Pages past the first page of answers', async () => {
    const many: FakeMetaUser = {
      id: '900900',
      name: 'Many Pages',
      pages: Array.from({ length: 130 }, (_, i) => ({
        id: String(70000 + i),
        name: `P${i}`,
        ...(i % 60 === 59
          ? { instagram: { id: `1799${i}`, username: `u${i}`, name: `U${i}`, profilePictureUrl: 'https://cdn.example/u.jpg' } }
          : {}),
      })),
    };
    meta.addUser(many);
    meta.setConsentUser(many.id);
    try {
      const back = await consent();
      const user = await publisher.connect({ app: APP, code: back.searchParams.get('code')!, redirectUri: REDIRECT }, FAST);
      const choices = await publisher.accounts({ accessToken: user.accessToken }, FAST);
      expect(choices.map((c) => c.igUserId)).toEqual(['179959', '1799119']);
    } finally {
      meta.setConsentUser(USER.id);
    }
  });

  it('the fake refuses an unknown app, unless it runs lenient for clicking through by hand', async () => {
    const stranger = { clientId: '999', clientSecret: 'whatever' };
    const refused = await fetch(publisher.authorizeUrl({ app: stranger, state: 's', redirectUri: REDIRECT }), {
      redirect: 'manual',
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 101, type: 'OAuthException' } });
    const lenient = await startFakeMeta({ lenient: { users: [USER] } });
    try {
      const client = createInstagramPublisher({ authUrl: lenient.authUrl, apiUrl: lenient.apiUrl, uploadUrl: lenient.uploadUrl });
      const answer = await fetch(client.authorizeUrl({ app: stranger, state: 's', redirectUri: REDIRECT }), {
        redirect: 'manual',
      });
      const code = new URL(answer.headers.get('location')!).searchParams.get('code')!;
      const user = await client.connect({ app: stranger, code, redirectUri: REDIRECT }, FAST);
      expect((await client.accounts({ accessToken: user.accessToken }, FAST)).map((c) => c.username)).toEqual(['stories.br']);
    } finally {
      await lenient.close();
    }
  });

  it('a denied consent comes back with error=access_denied', async () => {
    meta.setConsent('deny');
    try {
      const back = await consent();
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('code')).toBeNull();
    } finally {
      meta.setConsent('approve');
    }
  });

  it('refresh has nothing to do with a Page token, and says reauthorize once a user token expired', async () => {
    const { tokens } = await connectAccount();
    await expect(publisher.refresh({ app: APP, tokens }, FAST)).resolves.toBeNull();
    const expired = { ...tokens, accessToken: tokens.refreshToken!, accessExpiresAt: new Date(Date.now() - 1000) };
    await expect(publisher.refresh({ app: APP, tokens: expired }, FAST)).rejects.toMatchObject({ kind: 'reauthorize' });
  });

  it('an expired user token (190/463) and a changed password (190/460) say reauthorize, once each', async () => {
    const { tokens } = await connectAccount();
    clock = Date.now() + 61 * DAY_MS;
    let before = meta.requests.length;
    await expect(publisher.accounts({ accessToken: tokens.refreshToken! }, FAST)).rejects.toMatchObject({
      kind: 'reauthorize',
      code: '190/463',
    });
    expect(meta.requests.length - before).toBe(1);
    // The Page token does not expire with the clock...
    await expect(publisher.profile({ accessToken: tokens.accessToken }, FAST)).resolves.toMatchObject({ username: 'stories.br' });
    // ...but dies with the authorization.
    await asNewOwner('444', async () => {
      const mine = await connectAccount();
      meta.invalidateUser('444', 460);
      before = meta.requests.length;
      await expect(publisher.profile({ accessToken: mine.tokens.accessToken }, FAST)).rejects.toMatchObject({
        kind: 'reauthorize',
        code: '190/460',
      });
      expect(meta.requests.length - before).toBe(1);
    });
  });

  it('revoke deletes the permissions: the tokens stop working', async () => {
    await asNewOwner('555', async () => {
      const { tokens } = await connectAccount();
      await publisher.revoke({ app: APP, tokens }, FAST);
      expect(meta.requests.at(-1)).toMatchObject({ method: 'DELETE', path: '/v21.0/me/permissions' });
      await expect(publisher.profile({ accessToken: tokens.accessToken }, FAST)).rejects.toMatchObject({ kind: 'reauthorize' });
      // Revoking again is not an error: nothing is left to revoke.
      await expect(publisher.revoke({ app: APP, tokens }, FAST)).resolves.toBeUndefined();
    });
  });
});

describe('publishing', () => {
  it('consent to a published Reel: container on record before the bytes, one media, its permalink', async () => {
    const { tokens, igUserId } = await connectAccount();
    const preflight = await publisher.preflight({ accessToken: tokens.accessToken, externalId: igUserId }, FAST);
    expect(preflight).toMatchObject({
      maxDurationSec: 900,
      postsLeft: 100 - meta.media.filter((m) => m.igUserId === igUserId).length,
    });
    const ledger = memoryLedger();
    const uploadsBefore = count('/ig-api-upload/');
    const publishesBefore = count('media_publish');
    const seenAt: Record<string, number> = {};
    const write = ledger.write.bind(ledger);
    ledger.write = async (entry) => {
      if (entry.phase === 'initialized') seenAt.uploads = count('/ig-api-upload/') - uploadsBefore;
      if (entry.phase === 'publish_requested') seenAt.publishes = count('media_publish') - publishesBefore;
      await write(entry);
    };
    const before = meta.media.length;
    const req = request();
    const outcome = await publisher.publish(
      { accessToken: tokens.accessToken, externalId: igUserId, request: req, ledger },
      FAST,
    );
    expect(meta.media.length).toBe(before + 1);
    const posted = meta.media.at(-1)!;
    expect(outcome).toEqual({ status: 'published', postId: posted.id, postUrl: posted.permalink });
    expect(posted.caption).toBe(req.caption);
    const container = meta.containers.find((c) => c.id === posted.containerId)!;
    expect(crypto.createHash('sha256').update(Buffer.concat(container.bytes)).digest('hex')).toBe(videoSha);
    expect(ledger.entries.map((e) => e.phase)).toEqual(['initialized', 'uploaded', 'publish_requested', 'published']);
    expect(ledger.entries[0]).toMatchObject({
      externalId: container.id,
      uploadUrl: `${meta.url}/ig-api-upload/v21.0/${container.id}`,
    });
    // Before the first byte: no upload of this container; before media_publish: none of it yet.
    expect(meta.requests.filter((r) => r.path.endsWith(container.id) && r.path.startsWith('/ig-api-upload')).length).toBe(1);
    expect(seenAt).toEqual({ uploads: 0, publishes: 0 });
    // The upload carried the token as OAuth, the offset and the size.
    const upload = meta.requests.find((r) => r.path === `/ig-api-upload/v21.0/${container.id}`)!;
    expect(upload.authorization).toBe(`OAuth ${tokens.accessToken}`);
    expect(upload.headers).toEqual({ offset: '0', file_size: String(req.size) });
    // And the stats.
    posted.likeCount = 12;
    posted.commentsCount = 3;
    const stats = await publisher.postStats(
      { accessToken: tokens.accessToken, externalId: igUserId, postIds: [posted.id] },
      FAST,
    );
    expect(stats.get(posted.id)).toEqual({ views: null, likes: 12, comments: 3, url: posted.permalink });
    // A post that no longer exists has empty stats; the others are still read.
    const both = await publisher.postStats(
      { accessToken: tokens.accessToken, externalId: igUserId, postIds: ['17999999999999999', posted.id] },
      FAST,
    );
    expect(both.get('17999999999999999')).toEqual({ views: null, likes: null, comments: null, url: null });
    expect(both.get(posted.id)?.likes).toBe(12);
  });

  it('talks to the upload host on its own origin when Meta serves it apart', async () => {
    const apart = await startFakeMeta({ separateUploadHost: true });
    try {
      apart.addApp(APP.clientId, APP.clientSecret);
      apart.addUser(USER);
      const client = createInstagramPublisher(
        { authUrl: apart.authUrl, apiUrl: apart.apiUrl, uploadUrl: apart.uploadUrl },
        { pollIntervalMs: 5 },
      );
      const answer = await fetch(client.authorizeUrl({ app: APP, state: 's', redirectUri: REDIRECT }), { redirect: 'manual' });
      const code = new URL(answer.headers.get('location')!).searchParams.get('code')!;
      const user = await client.connect({ app: APP, code, redirectUri: REDIRECT }, FAST);
      const [choice] = await client.accounts({ accessToken: user.accessToken }, FAST);
      const outcome = await client.publish(
        { accessToken: choice!.pageAccessToken, externalId: choice!.igUserId, request: request(), ledger: memoryLedger() },
        FAST,
      );
      expect(apart.uploadUrl).not.toBe(apart.apiUrl);
      expect(apart.media.map((m) => m.id)).toEqual([outcome.postId]);
    } finally {
      await apart.close();
    }
  });

  it('a crash after media_publish was sent, before its answer was recorded, resumes to exactly one media', async () => {
    const { tokens, igUserId } = await connectAccount();
    const req = request();
    const ledger = memoryLedger();
    meta.dropNextPublishAnswer();
    const before = meta.media.length;
    const lost = await publisher
      .publish({ accessToken: tokens.accessToken, externalId: igUserId, request: req, ledger }, FAST)
      .catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(PlatformError);
    expect(lost).toMatchObject({ kind: 'in_doubt' });
    expect((await ledger.read())?.phase).toBe('publish_requested');
    expect(meta.media.length).toBe(before + 1);
    const publishes = count('media_publish', 'POST');
    const outcome = await publisher.publish(
      { accessToken: tokens.accessToken, externalId: igUserId, request: req, ledger },
      FAST,
    );
    expect(meta.media.length).toBe(before + 1);
    expect(count('media_publish', 'POST')).toBe(publishes);
    expect(outcome).toEqual({ status: 'published', postId: meta.media.at(-1)!.id, postUrl: meta.media.at(-1)!.permalink });
    expect((await ledger.read())?.phase).toBe('published');
  });

  it('a lease lost while recording the answer (the post was made) resumes without a second post', async () => {
    const { tokens, igUserId } = await connectAccount();
    const req = request();
    const ledger = memoryLedger();
    ledger.failOn = (e) => e.phase === 'published';
    const before = meta.media.length;
    await expect(
      publisher.publish({ accessToken: tokens.accessToken, externalId: igUserId, request: req, ledger }, FAST),
    ).rejects.toThrow('lease lost');
    ledger.failOn = undefined;
    const outcome = await publisher.publish(
      { accessToken: tokens.accessToken, externalId: igUserId, request: req, ledger },
      FAST,
    );
    expect(meta.media.length).toBe(before + 1);
    expect(outcome.postId).toBe(meta.media.at(-1)!.id);
  });

  it('a container on record with no byte sent yet is continued: no second container', async () => {
    const { tokens, igUserId } = await connectAccount();
    const { id, uri } = await containerMadeAside(tokens.accessToken, igUserId, 'kept');
    const containers = meta.containers.length;
    const outcome = await publisher.publish(
      {
        accessToken: tokens.accessToken,
        externalId: igUserId,
        request: request('kept'),
        ledger: memoryLedger({ phase: 'initialized', externalId: id, uploadUrl: uri }),
      },
      FAST,
    );
    expect(meta.containers.length).toBe(containers);
    expect(meta.media.find((m) => m.id === outcome.postId)!.containerId).toBe(id);
  });

  it('a crash after the bytes were sent, before that was recorded, sends none of them again', async () => {
    const { tokens, igUserId } = await connectAccount();
    const ledger = memoryLedger();
    ledger.failOn = (e) => e.phase === 'uploaded';
    // The upload happens, then the lease is lost while recording it.
    await expect(
      publisher.publish({ accessToken: tokens.accessToken, externalId: igUserId, request: request('first'), ledger }, FAST),
    ).rejects.toThrow('lease lost');
    ledger.failOn = undefined;
    const containers = meta.containers.length;
    const uploads = count('/ig-api-upload/');
    await publisher.publish({ accessToken: tokens.accessToken, externalId: igUserId, request: request('first'), ledger }, FAST);
    // No new container, no byte sent twice: the host said it had them all.
    expect(meta.containers.length).toBe(containers);
    expect(count('/ig-api-upload/')).toBe(uploads);
  });

  it('an upload cut midway resumes from the offset the host reports', async () => {
    const { tokens, igUserId } = await connectAccount();
    meta.breakNextUploadAfter(600_000);
    const outcome = await publisher.publish(
      { accessToken: tokens.accessToken, externalId: igUserId, request: request(), ledger: memoryLedger() },
      FAST,
    );
    const posted = meta.media.find((m) => m.id === outcome.postId)!;
    const container = meta.containers.find((c) => c.id === posted.containerId)!;
    expect(crypto.createHash('sha256').update(Buffer.concat(container.bytes)).digest('hex')).toBe(videoSha);
    const uploads = meta.requests.filter((r) => r.path === `/ig-api-upload/v21.0/${container.id}`);
    expect(uploads.map((r) => r.headers.offset)).toEqual(['0', '600000']);
    expect(uploads[1]!.bodyBytes).toBe(1_500_000 - 600_000);
  });

  it('a refused upload is media_rejected, with no retry', async () => {
    const { tokens, igUserId } = await connectAccount();
    meta.failNextUpload(false);
    const before = count('/ig-api-upload/');
    await expect(
      publisher.publish(
        { accessToken: tokens.accessToken, externalId: igUserId, request: request(), ledger: memoryLedger() },
        FAST,
      ),
    ).rejects.toMatchObject({ kind: 'media_rejected' });
    expect(count('/ig-api-upload/') - before).toBe(1);
  });

  it('a container in ERROR is media_rejected with the reason; the next attempt makes a new container', async () => {
    const { tokens, igUserId } = await connectAccount();
    meta.failNextContainer('2207026: unsupported video format');
    const ledger = memoryLedger();
    const req = request();
    const publishes = count('media_publish');
    const error = await publisher
      .publish({ accessToken: tokens.accessToken, externalId: igUserId, request: req, ledger }, FAST)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'media_rejected' });
    expect(count('media_publish')).toBe(publishes);
    expect((error as Error).message).toContain('unsupported video format');
    const first = (await ledger.read())!;
    expect(first.phase).toBe('failed');
    const outcome = await publisher.publish(
      { accessToken: tokens.accessToken, externalId: igUserId, request: req, ledger },
      FAST,
    );
    expect(meta.containers.find((c) => c.mediaId === outcome.postId)!.id).not.toBe(first.externalId);
  });

  it('an EXPIRED container is replaced on the next attempt', async () => {
    const { tokens, igUserId, ledger, req } = await leftProcessing();
    const old = (await ledger.read())!.externalId;
    clock += 25 * 3600_000;
    meta.setProcessingDelay(0);
    const before = meta.media.length;
    const outcome = await publisher.publish(
      { accessToken: tokens.accessToken, externalId: igUserId, request: req, ledger },
      FAST,
    );
    expect(meta.media.length).toBe(before + 1);
    expect(meta.media.at(-1)!.containerId).not.toBe(old);
    expect(outcome.status).toBe('published');
  });

  it('processing that outlasts an attempt is continued by the next one: one container, one media', async () => {
    const { tokens, igUserId, ledger, req } = await leftProcessing();
    const containers = meta.containers.length;
    clock += 61_000;
    await publisher.publish({ accessToken: tokens.accessToken, externalId: igUserId, request: req, ledger }, FAST);
    expect(meta.containers.length).toBe(containers);
  });

  it('not ready for publishing (9007/2207027) waits and publishes once', async () => {
    const { tokens, igUserId } = await connectAccount();
    meta.failNextApiCalls(1, { code: 9007, subcode: 2207027, message: 'not ready' }, 'media_publish');
    const before = meta.media.length;
    const publishes = count('media_publish');
    await publisher.publish(
      { accessToken: tokens.accessToken, externalId: igUserId, request: request(), ledger: memoryLedger() },
      FAST,
    );
    expect(meta.media.length).toBe(before + 1);
    expect(count('media_publish') - publishes).toBe(2);
  });

  it('a full daily allowance: preflight says 0 and publish makes no request that could post', async () => {
    const { tokens, igUserId } = await connectAccount();
    meta.setQuota(50, 50);
    await expect(publisher.preflight({ accessToken: tokens.accessToken, externalId: igUserId }, FAST)).resolves.toMatchObject({
      postsLeft: 0,
    });
    const publishes = count('media_publish');
    const containers = meta.containers.length;
    await expect(
      publisher.publish(
        { accessToken: tokens.accessToken, externalId: igUserId, request: request(), ledger: memoryLedger() },
        FAST,
      ),
    ).rejects.toMatchObject({ kind: 'daily_limit' });
    expect(count('media_publish')).toBe(publishes);
    expect(meta.containers.length).toBe(containers);
  });

  it('an allowance spent between the check and media_publish (9/2207042) is daily_limit, sent once', async () => {
    const { tokens, igUserId } = await connectAccount();
    meta.failNextApiCalls(5, { code: 9, subcode: 2207042, message: 'limit' }, 'media_publish');
    const publishes = count('media_publish');
    await expect(
      publisher.publish(
        { accessToken: tokens.accessToken, externalId: igUserId, request: request(), ledger: memoryLedger() },
        FAST,
      ),
    ).rejects.toMatchObject({ kind: 'daily_limit', code: '9/2207042' });
    expect(count('media_publish') - publishes).toBe(1);
  });

  it("the caption limits are Meta's: a caption over them is refused by the fake (36004/2207010)", async () => {
    const { tokens, igUserId } = await connectAccount();
    const tags = Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ');
    await expect(
      publisher.publish(
        { accessToken: tokens.accessToken, externalId: igUserId, request: request(tags), ledger: memoryLedger() },
        FAST,
      ),
    ).rejects.toMatchObject({ kind: 'media_rejected', code: '36004/2207010' });
  });

  it('refuses a video outside 3 s to 15 min before any request', async () => {
    const before = meta.requests.length;
    await expect(
      publisher.publish(
        { accessToken: 'x', externalId: '1', request: { ...request(), durationSec: 901 }, ledger: memoryLedger() },
        FAST,
      ),
    ).rejects.toMatchObject({ kind: 'media_rejected' });
    expect(meta.requests.length).toBe(before);
  });
});

describe('rate limits and errors', () => {
  it.each([4, 17, 32, 613])('rate limit code %i: backoff, then success', async (code) => {
    const { tokens, igUserId } = await connectAccount();
    meta.failNextApiCalls(2, { code, message: 'limit reached' }, 'content_publishing_limit');
    const before = count('content_publishing_limit');
    await expect(publisher.preflight({ accessToken: tokens.accessToken, externalId: igUserId }, FAST)).resolves.toMatchObject({
      postsLeft: expect.any(Number),
    });
    expect(count('content_publishing_limit') - before).toBe(3);
  });

  it('a rate limit that lasts is rate_limit after the retries, not a storm', async () => {
    const { tokens, igUserId } = await connectAccount();
    meta.failNextApiCalls(50, { code: 4, message: 'Application request limit reached' }, 'content_publishing_limit');
    const before = count('content_publishing_limit');
    await expect(publisher.preflight({ accessToken: tokens.accessToken, externalId: igUserId }, FAST)).rejects.toMatchObject({
      kind: 'rate_limit',
      code: '4',
    });
    expect(count('content_publishing_limit') - before).toBe(FAST.maxRetries + 1);
  });

  it('a 5xx on container creation is in_doubt, never sent again blindly', async () => {
    const { tokens, igUserId } = await connectAccount();
    meta.failNextApiCalls(1, { code: 2, status: 503, message: 'Service temporarily unavailable' }, `${igUserId}/media`);
    const before = count(`${igUserId}/media`, 'POST');
    await expect(
      publisher.publish(
        { accessToken: tokens.accessToken, externalId: igUserId, request: request(), ledger: memoryLedger() },
        FAST,
      ),
    ).rejects.toMatchObject({ kind: 'in_doubt' });
    expect(count(`${igUserId}/media`, 'POST') - before).toBe(1);
  });

  it("never repeats the token that Meta's error message echoes", async () => {
    const { tokens, igUserId } = await connectAccount();
    meta.failNextApiCalls(1, { code: 100, message: `Invalid parameter for ${tokens.accessToken}` }, 'content_publishing_limit');
    const error = await publisher
      .preflight({ accessToken: tokens.accessToken, externalId: igUserId }, FAST)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'other', code: '100' });
    expect((error as Error).message).not.toContain(tokens.accessToken);
  });

  it('an HTML gateway page is a clear failure, retried a bounded number of times when safe', async () => {
    const { tokens, igUserId } = await connectAccount();
    meta.answerPageNext('content_publishing_limit', 502, '<html><body>Bad Gateway</body></html>');
    await expect(publisher.preflight({ accessToken: tokens.accessToken, externalId: igUserId }, FAST)).resolves.toMatchObject({
      postsLeft: expect.any(Number),
    });
  });

  it.each([
    [190, 463, 'reauthorize'],
    [190, 460, 'reauthorize'],
    [102, undefined, 'reauthorize'],
    [10, undefined, 'reauthorize'],
    [200, undefined, 'reauthorize'],
    [4, undefined, 'rate_limit'],
    [17, undefined, 'rate_limit'],
    [32, undefined, 'rate_limit'],
    [613, undefined, 'rate_limit'],
    [9, 2207042, 'daily_limit'],
    [4, 2207051, 'restricted'],
    [25, 2207050, 'restricted'],
    [352, 2207026, 'media_rejected'],
    [36004, 2207010, 'media_rejected'],
    [-2, 2207020, 'other'],
    [-1, 2207053, 'other'],
    [-1, 2207001, 'unreachable'],
    [1, undefined, 'unreachable'],
    [2, undefined, 'unreachable'],
    [100, 33, 'other'],
  ] as const)('code %i/%s is %s', (code, subcode, kind) => {
    const { error, retry } = classifyMetaError(400, { code, error_subcode: subcode, message: 'm', type: 'OAuthException' });
    expect(error.kind).toBe(kind);
    expect(retry).toBe(kind === 'rate_limit' || kind === 'unreachable');
  });
});

describe('hostile answers', () => {
  let hostile: HostileServer;
  let aimed: InstagramPublisher;
  beforeAll(async () => {
    hostile = await startHostileServer();
    aimed = createInstagramPublisher(
      { authUrl: `${hostile.url}/dialog`, apiUrl: `${hostile.url}/`, uploadUrl: `${hostile.url}/` },
      { pollIntervalMs: 5 },
    );
  });
  afterAll(() => hostile.close());
  beforeEach(() => hostile.reset());

  it('a huge answer is too_large, read no further than the cap', async () => {
    hostile.answer((_req, res, server) => sendStream(res, server, { head: '{"data":["', chunk: 'x'.repeat(64 * 1024) }));
    await expect(aimed.preflight({ accessToken: 't', externalId: '1' }, FAST)).rejects.toMatchObject({ kind: 'too_large' });
    expect(hostile.bytesSent).toBeLessThan(8 * 1024 * 1024);
  });

  it('a dripping answer is cut at the deadline', async () => {
    hostile.answer((_req, res, server) => sendDrip(res, server, { body: '{"data":[]}', intervalMs: 200 }));
    const started = Date.now();
    await expect(
      aimed.preflight({ accessToken: 't', externalId: '1' }, { ...FAST, timeoutMs: 300, maxRetries: 1 }),
    ).rejects.toMatchObject({ kind: 'unreachable' });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(hostile.requests.length).toBe(2);
  });

  it('429s are waited out as long as Retry-After asks, then the answer is read', async () => {
    let calls = 0;
    hostile.answer((_req, res, server) => {
      calls += 1;
      if (calls <= 2) sendWhole(res, server, 429, 'slow down', { 'retry-after': '0.2' });
      else
        sendWhole(res, server, 200, '{"data":[{"quota_usage":3,"config":{"quota_total":100}}]}', {
          'content-type': 'application/json',
        });
    });
    const started = Date.now();
    await expect(aimed.preflight({ accessToken: 't', externalId: '1' }, FAST)).resolves.toMatchObject({ postsLeft: 97 });
    expect(hostile.requests).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
  });

  it('an HTML page that persists is unreachable after bounded retries', async () => {
    hostile.answer((_req, res, server) =>
      sendWhole(res, server, 502, '<html>Bad Gateway</html>', { 'content-type': 'text/html' }),
    );
    await expect(aimed.profile({ accessToken: 't' }, FAST)).rejects.toMatchObject({ kind: 'unreachable', status: 502 });
    expect(hostile.requests.length).toBe(FAST.maxRetries + 1);
  });

  it('an upload address on another host is refused: neither token nor bytes leave', async () => {
    const { tokens, igUserId } = await connectAccount();
    // A container Meta made, and a ledger that says its bytes go elsewhere.
    const { id } = await containerMadeAside(tokens.accessToken, igUserId, 'x');
    const ledger = memoryLedger({ phase: 'initialized', externalId: id, uploadUrl: `${hostile.url}/ig-api-upload/v21.0/${id}` });
    await expect(
      publisher.publish({ accessToken: tokens.accessToken, externalId: igUserId, request: request('x'), ledger }, FAST),
    ).rejects.toMatchObject({ kind: 'other', message: expect.stringContaining('unexpected host') });
    expect(hostile.requests).toHaveLength(0);
    expect(meta.containers.find((c) => c.id === id)!.received).toBe(0);
  });

  it('an upload host that redirects elsewhere gets no token across origins', async () => {
    const { tokens, igUserId } = await connectAccount();
    const { id } = await containerMadeAside(tokens.accessToken, igUserId, 'y');
    const seen: Array<string | undefined> = [];
    const target = await startHostileServer();
    target.answer((req, res, server) => {
      seen.push(req.headers.authorization);
      sendWhole(res, server, 200, '{"success":true}', { 'content-type': 'application/json' });
    });
    hostile.answer((_req, res) => res.writeHead(307, { location: `${target.url}/elsewhere` }).end());
    const viaHostile = createInstagramPublisher(
      { authUrl: meta.authUrl, apiUrl: meta.apiUrl, uploadUrl: hostile.url },
      { pollIntervalMs: 5 },
    );
    const ledger = memoryLedger({ phase: 'initialized', externalId: id, uploadUrl: `${hostile.url}/ig-api-upload/v21.0/${id}` });
    try {
      const outcome = await viaHostile
        .publish(
          { accessToken: tokens.accessToken, externalId: igUserId, request: request('y'), ledger },
          { ...FAST, maxRetries: 1 },
        )
        .catch((e: unknown) => e);
      expect(outcome).toBeInstanceOf(PlatformError);
      // Not followed at all: the other origin saw nothing.
      expect(seen).toEqual([]);
      expect(hostile.requests.some((r) => r.method === 'POST' && r.url.startsWith('/ig-api-upload/'))).toBe(true);
      expect(meta.media.some((m) => m.containerId === id)).toBe(false);
    } finally {
      await target.close();
    }
  });

  it('a redirect does not carry the token to another origin', async () => {
    let seen: string | undefined = 'unset';
    const target = await startHostileServer();
    target.answer((req, res, server) => {
      seen = req.headers.authorization;
      sendWhole(res, server, 200, '{"data":[{"quota_usage":0,"config":{"quota_total":50}}]}', {
        'content-type': 'application/json',
      });
    });
    hostile.answer((_req, res) => res.writeHead(302, { location: `${target.url}/v21.0/1/content_publishing_limit` }).end());
    try {
      await expect(aimed.preflight({ accessToken: 'secret-token', externalId: '1' }, FAST)).resolves.toMatchObject({
        postsLeft: 50,
      });
      expect(seen).toBeUndefined();
    } finally {
      await target.close();
    }
  });
});

describe('captions', () => {
  const word = fc.stringMatching(/^[a-zà-ú0-9_]{1,12}$/);
  const piece = fc.oneof(
    word,
    word.map((w) => `#${w}`),
    word.map((w) => `@${w}`),
    fc.constantFrom('🎬', '😀', 'ção', '\n'),
  );

  it('stays within 2,200 characters, 30 hashtags and 20 mentions', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 700 }), fc.array(word, { maxLength: 60 }), (pieces, hashtags) => {
        const caption = buildInstagramCaption({ text: pieces.join(' '), hashtags });
        const counts = captionCounts(caption);
        expect(counts.chars).toBeLessThanOrEqual(CAPTION_MAX_CHARS);
        expect(counts.hashtags).toBeLessThanOrEqual(CAPTION_MAX_HASHTAGS);
        expect(counts.mentions).toBeLessThanOrEqual(CAPTION_MAX_MENTIONS);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a text that fits whole, and drops hashtags before cutting the text', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 2000 }).map((s) => s.replace(/[#@]/g, '').trim() || 'x'),
        fc.array(word, { minLength: 1, maxLength: 40 }),
        (text, hashtags) => {
          const caption = buildInstagramCaption({ text, hashtags });
          expect(caption.startsWith(text)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
    expect(buildInstagramCaption({ text: 'a'.repeat(2193), hashtags: ['ab', 'longtag'] })).toBe(`${'a'.repeat(2193)}\n\n#ab`);
    expect(buildInstagramCaption({ text: 'a'.repeat(2190), hashtags: ['longtag'] })).toBe(`${'a'.repeat(2190)}\n\n#longtag`);
    expect([...buildInstagramCaption({ text: '😀'.repeat(3000) })].length).toBe(2200);
  });
});
