import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { startFakeTiktok, tiktokChunkRuleBroken, type FakeTiktok } from '../fakes/tiktok';
import { sendDrip, sendStream, sendWhole, startHostileServer, type HostileServer } from '../fakes/hostile';
import { PlatformError, type LedgerEntry, type PublishLedger, type PublishRequest } from '../src/providers/publishers/contract';
import {
  TIKTOK_TITLE_MAX,
  classifyFailReason,
  classifyTiktokAnswer,
  createTiktokPublisher,
  tiktokCaption,
  tiktokChunkPlan,
  tiktokCodeChallenge,
  tiktokCodeVerifier,
  type TiktokPublisherOptions,
} from '../src/providers/publishers/tiktok';

/**
 * The TikTok publisher against the fake Login Kit and Content Posting API: consent to post, the
 * chunk plan and its boundaries, every documented error to its PlatformError kind without a retry
 * storm, rate limits waited out, tokens refreshed and revoked, a lost answer or a crash at each
 * step resumed from the ledger with exactly one post, and hostile answers cut short.
 */

const APP = { clientId: 'sbawtiktokkey', clientSecret: 'tiktok-client-secret-123' };
const REDIRECT = 'https://console.example/api/platforms/tiktok/callback';
const MIB = 2 ** 20;
const SMALL_BYTES = 1_000_000;
const BIG_BYTES = 12 * MIB;
const FAST = { backoffBaseMs: 1, timeoutMs: 5000 };

let fake: FakeTiktok;
let dir: string;
let smallFile: string;
let bigFile: string;
let bigSha: string;

function publisherFor(options: TiktokPublisherOptions = {}) {
  return createTiktokPublisher(
    { authUrl: fake.authUrl, apiUrl: fake.apiUrl },
    { uploadOrigins: [fake.url], chunkBytes: 5 * MIB, statusPolls: 4, statusIntervalMs: 1, rateLimitWaitMs: 1, ...options },
  );
}

/** A ledger in memory; `crashOn` makes one write fail as a lost lease or a killed worker would. */
function memoryLedger(crashOn?: (entry: LedgerEntry) => boolean) {
  const writes: LedgerEntry[] = [];
  let current: LedgerEntry | null = null;
  let armed = crashOn;
  const ledger: PublishLedger & { writes: LedgerEntry[]; current(): LedgerEntry | null } = {
    writes,
    current: () => current,
    read: () => Promise.resolve(current),
    write(entry) {
      if (armed?.(entry)) {
        armed = undefined;
        return Promise.reject(new Error('lease lost'));
      }
      writes.push(entry);
      current = { ...entry };
      return Promise.resolve();
    },
  };
  return ledger;
}

function video(file: string, size: number, extra: Partial<PublishRequest> = {}): PublishRequest {
  return {
    file,
    size,
    durationSec: 45,
    caption: 'Uma história #shorts',
    aiGenerated: true,
    privacyLevel: 'PUBLIC_TO_EVERYONE',
    ...extra,
  };
}

const count = (p: string, method = 'POST') => fake.requests.filter((r) => r.path === p && r.method === method).length;
const INIT = '/v2/post/publish/video/init/';
const STATUS = '/v2/post/publish/status/fetch/';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

let userSeq = 0;
/** A fresh creator with its tokens (so rate windows and daily caps never leak between tests). */
function newCreator(extra: { privateAccount?: boolean; maxVideoPostDurationSec?: number } = {}) {
  userSeq += 1;
  const openId = `open-${userSeq}`;
  fake.addUser({
    openId,
    displayName: `Criador ${userSeq}`,
    username: `criador${userSeq}`,
    avatarUrl: 'https://p16.example/a.jpg',
    ...extra,
  });
  return { openId, ...fake.issueTokens(APP.clientId, openId) };
}

type Creator = ReturnType<typeof newCreator>;

/** What `publish` takes for this creator: by default the small file, public, a fresh ledger. */
function job(creator: Creator, request = video(smallFile, SMALL_BYTES), ledger: PublishLedger = memoryLedger()) {
  return { accessToken: creator.accessToken, externalId: creator.openId, request, ledger };
}

const postsOf = (creator: Creator) => fake.posts.filter((p) => p.openId === creator.openId);

beforeAll(async () => {
  fake = await startFakeTiktok();
  fake.addClient(APP.clientId, APP.clientSecret, [REDIRECT]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-tiktok-'));
  smallFile = path.join(dir, 'small.mp4');
  bigFile = path.join(dir, 'big.mp4');
  fs.writeFileSync(smallFile, crypto.randomBytes(SMALL_BYTES));
  const big = crypto.randomBytes(BIG_BYTES);
  fs.writeFileSync(bigFile, big);
  bigSha = crypto.createHash('sha256').update(big).digest('hex');
});

afterEach(() => {
  fake.setUnaudited(false);
  fake.setDailyPostCap(15);
  fake.setProcessing(1);
  fake.setConsent('approve');
  fake.setRotateRefreshTokens(true);
  fake.failNextUploadChunks(0);
  fake.setNow(() => new Date());
});

afterAll(async () => {
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('chunk plan', () => {
  it.each([
    [5 * MIB - 1, 1, 5 * MIB - 1],
    [5 * MIB, 1, 5 * MIB],
    [64 * 10 ** 6, 1, 64 * 10 ** 6],
  ])('sends %i bytes whole', (size, chunks, chunkSize) => {
    const plan = tiktokChunkPlan(size);
    expect([plan.totalChunkCount, plan.chunkSize]).toEqual([chunks, chunkSize]);
    expect(plan.chunks).toEqual([{ first: 0, last: size - 1 }]);
  });

  it('splits 64·10^6 + 1 bytes, the last chunk taking the trailing bytes', () => {
    const plan = tiktokChunkPlan(64 * 10 ** 6 + 1);
    expect(plan.totalChunkCount).toBe(2);
    expect(plan.chunkSize).toBe(32 * 10 ** 6);
    expect(plan.chunks).toEqual([
      { first: 0, last: 32 * 10 ** 6 - 1 },
      { first: 32 * 10 ** 6, last: 64 * 10 ** 6 },
    ]);
    expect(tiktokChunkPlan(64 * 10 ** 6 + 1, 16 * MIB).totalChunkCount).toBe(3);
  });

  it("follows the guide's example: 50,000,123 bytes in 10,000,000-byte chunks are 5 chunks, the last 10,000,123", () => {
    const plan = tiktokChunkPlan(50_000_123, 10_000_000);
    expect(plan.totalChunkCount).toBe(5);
    const last = plan.chunks.at(-1)!;
    expect(last.last - last.first + 1).toBe(10_000_123);
  });

  it('lets the last chunk grow to 128·10^6 at most, and refuses a file over 4 GB', () => {
    const plan = tiktokChunkPlan(192 * 10 ** 6 - 1, 64 * 10 ** 6);
    const last = plan.chunks.at(-1)!;
    expect(last.last - last.first + 1).toBe(128 * 10 ** 6 - 1);
    expect(() => tiktokChunkPlan(4 * 1024 ** 3 + 1)).toThrow(expect.objectContaining({ kind: 'media_rejected' }));
  });

  it('keeps every rule of the media transfer guide for any size and chunk setting', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 * 1024 ** 3 }), fc.integer({ min: 1, max: 200 * 10 ** 6 }), (size, chunk) => {
        const plan = tiktokChunkPlan(size, chunk);
        expect(tiktokChunkRuleBroken(plan.videoSize, plan.chunkSize, plan.totalChunkCount)).toBeNull();
        expect(plan.chunks).toHaveLength(plan.totalChunkCount);
        expect(plan.chunks.at(-1)!.last).toBe(size - 1);
        plan.chunks.forEach((c, i) => expect(c.first).toBe(i * plan.chunkSize));
      }),
      { numRuns: 500 },
    );
  });
});

describe('PKCE and captions', () => {
  it('makes the challenge the lowercase hex SHA-256 of the verifier, not base64url', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    const challenge = tiktokCodeChallenge(verifier);
    expect(challenge).toBe(crypto.createHash('sha256').update(verifier).digest('hex'));
    expect(challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge).not.toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(tiktokCodeVerifier()).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
  });

  it('keeps a caption within 2200 UTF-16 units without splitting an emoji, hashtags only whole', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 3000 }),
        fc.array(fc.string({ minLength: 1, maxLength: 40 }), { maxLength: 40 }),
        (text, tags) => {
          const caption = tiktokCaption({ text, hashtags: tags });
          expect(caption.length).toBeLessThanOrEqual(TIKTOK_TITLE_MAX);
          expect(caption).not.toMatch(LONE_SURROGATE);
        },
      ),
      { numRuns: 200 },
    );
    const emoji = '😀'.repeat(1500);
    const cut = tiktokCaption({ text: emoji, hashtags: ['história'] });
    expect(cut.length).toBeLessThanOrEqual(TIKTOK_TITLE_MAX);
    expect(cut.endsWith('😀…')).toBe(true);
    expect(tiktokCaption({ text: 'Olá', hashtags: ['#shorts', 'ia generativa'] })).toBe('Olá\n\n#shorts #iagenerativa');
  });
});

describe('error classifier', () => {
  it.each([
    [401, 'access_token_invalid', 'reauthorize'],
    [401, 'scope_not_authorized', 'reauthorize'],
    [429, 'rate_limit_exceeded', 'rate_limit'],
    [403, 'spam_risk_too_many_posts', 'daily_limit'],
    [403, 'reached_active_user_cap', 'daily_limit'],
    [403, 'spam_risk_user_banned_from_posting', 'restricted'],
    [403, 'unaudited_client_can_only_post_to_private_accounts', 'private_only'],
    [400, 'invalid_file_upload', 'media_rejected'],
    [400, 'invalid_param', 'other'],
    [403, 'privacy_level_option_mismatch', 'other'],
    [500, 'internal_error', 'unreachable'],
    // A 200 whose code is not ok is a failure ("any code other than ok").
    [200, 'rate_limit_exceeded', 'rate_limit'],
  ])('reads %i %s as %s', (status, code, kind) => {
    const error = classifyTiktokAnswer(status, { data: {}, error: { code, message: 'x', log_id: 'L' } });
    expect(error).toMatchObject({ kind, code, status });
  });

  it('reads the OAuth shape, scrubs the secret, and takes ok as success', () => {
    expect(classifyTiktokAnswer(400, { error: 'invalid_grant', error_description: 'gone' })?.kind).toBe('reauthorize');
    expect(classifyTiktokAnswer(503, { error: 'temporarily_unavailable' })?.kind).toBe('unreachable');
    const scrubbed = classifyTiktokAnswer(
      401,
      { error: 'invalid_client', error_description: `bad ${APP.clientSecret}` },
      APP.clientSecret,
    );
    expect(scrubbed?.message).not.toContain(APP.clientSecret);
    expect(classifyTiktokAnswer(200, { data: { a: 1 }, error: { code: 'ok', message: '' } })).toBeNull();
    expect(classifyFailReason('duration_check_failed').kind).toBe('media_rejected');
    expect(classifyFailReason('auth_removed').kind).toBe('reauthorize');
    expect(classifyFailReason('spam_risk_text').kind).toBe('restricted');
  });
});

describe('against the fake TikTok', () => {
  it('connects, reads the profile and creator info, and posts a chunked video once, declared AI-generated', async () => {
    const creator = newCreator();
    fake.useUser(creator.openId);
    const publisher = publisherFor();
    const verifier = tiktokCodeVerifier();
    const consent = await fetch(
      publisher.authorizeUrl({ app: APP, state: 's-1', redirectUri: REDIRECT, codeVerifier: verifier }),
      {
        redirect: 'manual',
      },
    );
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('s-1');
    expect(back.searchParams.get('scopes')).toBe('user.info.basic,video.publish');
    const tokens = await publisher.connect(
      { app: APP, code: back.searchParams.get('code')!, redirectUri: REDIRECT, codeVerifier: verifier },
      FAST,
    );
    expect(tokens.scopes).toEqual(['user.info.basic', 'video.publish']);
    expect(tokens.accessExpiresAt!.getTime() - Date.now()).toBeGreaterThan(86_000_000);
    expect(tokens.refreshToken).toMatch(/^rft\./);

    const profile = await publisher.profile({ accessToken: tokens.accessToken }, FAST);
    expect(profile).toEqual({
      externalId: creator.openId,
      username: `criador${userSeq}`,
      displayName: `Criador ${userSeq}`,
      avatarUrl: 'https://p16.example/a.jpg',
    });
    const preflight = await publisher.preflight({ accessToken: tokens.accessToken, externalId: creator.openId }, FAST);
    expect(preflight).toMatchObject({
      privacyLevels: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      maxDurationSec: 600,
    });

    const ledger = memoryLedger();
    const outcome = await publisher.publish(
      { accessToken: tokens.accessToken, externalId: creator.openId, request: video(bigFile, BIG_BYTES), ledger },
      FAST,
    );
    const post = fake.posts.find((p) => p.openId === creator.openId)!;
    expect(outcome).toEqual({
      status: 'published',
      postId: post.postId,
      postUrl: `https://www.tiktok.com/@criador${userSeq}/video/${post.postId}`,
    });
    expect(post).toMatchObject({
      privacyLevel: 'PUBLIC_TO_EVERYONE',
      isAigc: true,
      bytes: BIG_BYTES,
      sha256: bigSha,
      title: 'Uma história #shorts',
    });
    const puts = fake.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.contentRange)).toEqual([
      `bytes 0-${5 * MIB - 1}/${BIG_BYTES}`,
      `bytes ${5 * MIB}-${BIG_BYTES - 1}/${BIG_BYTES}`,
    ]);
    expect(puts.every((r) => r.authorization === undefined)).toBe(true);
    // The publish_id was in the ledger before the first byte.
    expect(ledger.writes[0]).toMatchObject({ phase: 'initialized', bytesConfirmed: 0 });
    expect(ledger.current()).toMatchObject({ phase: 'published', postId: post.postId });
    fake.requests.length = 0;
  });

  it('refuses a base64url challenge on the consent page and a wrong verifier at the exchange', async () => {
    const creator = newCreator();
    fake.useUser(creator.openId);
    const publisher = publisherFor();
    const verifier = tiktokCodeVerifier();
    const url = new URL(publisher.authorizeUrl({ app: APP, state: 's', redirectUri: REDIRECT, codeVerifier: verifier }));
    url.searchParams.set('code_challenge', crypto.createHash('sha256').update(verifier).digest('base64url'));
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(400);
    const good = await fetch(publisher.authorizeUrl({ app: APP, state: 's', redirectUri: REDIRECT, codeVerifier: verifier }), {
      redirect: 'manual',
    });
    const code = new URL(good.headers.get('location')!).searchParams.get('code')!;
    await expect(
      publisher.connect({ app: APP, code, redirectUri: REDIRECT, codeVerifier: tiktokCodeVerifier() }, FAST),
    ).rejects.toMatchObject({
      kind: 'other',
      code: 'invalid_request',
    });
  });

  it('connects a user who granted fewer scopes, and says so when posting is refused', async () => {
    const creator = newCreator();
    fake.useUser(creator.openId);
    fake.setConsent('approve', ['user.info.basic']);
    const publisher = publisherFor();
    const verifier = tiktokCodeVerifier();
    const consent = await fetch(publisher.authorizeUrl({ app: APP, state: 's', redirectUri: REDIRECT, codeVerifier: verifier }), {
      redirect: 'manual',
    });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const tokens = await publisher.connect({ app: APP, code, redirectUri: REDIRECT, codeVerifier: verifier }, FAST);
    expect(tokens.scopes).toEqual(['user.info.basic']);
    expect(await publisher.profile({ accessToken: tokens.accessToken }, FAST)).toMatchObject({
      externalId: creator.openId,
      username: null,
    });
    await expect(
      publisher.preflight({ accessToken: tokens.accessToken, externalId: creator.openId }, FAST),
    ).rejects.toMatchObject({
      kind: 'reauthorize',
      code: 'scope_not_authorized',
    });
  });

  it('posts SELF_ONLY from an unaudited client as private, and refuses a public account without a retry', async () => {
    fake.setUnaudited(true);
    const priv = newCreator({ privateAccount: true });
    const publisher = publisherFor();
    const outcome = await publisher.publish(job(priv, video(smallFile, SMALL_BYTES, { privacyLevel: 'SELF_ONLY' })), FAST);
    expect(outcome).toEqual({ status: 'private', postId: null, postUrl: null });
    expect(postsOf(priv)).toEqual([expect.objectContaining({ privacyLevel: 'SELF_ONLY', postId: null, bytes: SMALL_BYTES })]);

    const pub = newCreator();
    const before = count(INIT);
    await expect(
      publisher.publish(job(pub, video(smallFile, SMALL_BYTES, { privacyLevel: 'SELF_ONLY' })), FAST),
    ).rejects.toMatchObject({ kind: 'private_only', code: 'unaudited_client_can_only_post_to_private_accounts' });
    expect(count(INIT) - before).toBe(1);
  });

  it('stops at the daily cap with one request, and at a ban after one init', async () => {
    const creator = newCreator();
    const publisher = publisherFor();
    fake.setDailyPostCap(0);
    const before = fake.requests.length;
    await expect(publisher.publish(job(creator), FAST)).rejects.toMatchObject({
      kind: 'daily_limit',
      code: 'spam_risk_too_many_posts',
    });
    expect(fake.requests.length - before).toBe(1);
    fake.setDailyPostCap(15);
    fake.failNext(INIT, 1, { status: 403, code: 'spam_risk_user_banned_from_posting' });
    const inits = count(INIT);
    await expect(publisher.publish(job(creator), FAST)).rejects.toMatchObject({ kind: 'restricted' });
    expect(count(INIT) - inits).toBe(1);
    expect(postsOf(creator).length > 0).toBe(false);
  });

  it.each([
    [401, 'access_token_invalid', 'reauthorize'],
    [401, 'scope_not_authorized', 'reauthorize'],
    [403, 'spam_risk_too_many_posts', 'daily_limit'],
    [403, 'reached_active_user_cap', 'daily_limit'],
    [403, 'unaudited_client_can_only_post_to_private_accounts', 'private_only'],
    [403, 'privacy_level_option_mismatch', 'other'],
    [400, 'invalid_param', 'other'],
    [400, 'invalid_file_upload', 'media_rejected'],
  ])('stops at an init answered %i %s (%s) after one request, nothing posted', async (status, code, kind) => {
    const creator = newCreator();
    fake.failNext(INIT, 1, { status, code });
    const [inits, statuses] = [count(INIT), count(STATUS)];
    const ledger = memoryLedger();
    await expect(publisherFor().publish(job(creator, video(smallFile, SMALL_BYTES), ledger), FAST)).rejects.toMatchObject({
      kind,
      code,
      status,
    });
    expect([count(INIT) - inits, count(STATUS) - statuses]).toEqual([1, 0]);
    expect(ledger.current()).toBeNull();
    expect(postsOf(creator).length > 0).toBe(false);
  });

  it('starts anew when the stored upload URL expired before TikTok had every byte, and posts once', async () => {
    const creator = newCreator();
    const publisher = publisherFor();
    const ledger = memoryLedger((entry) => entry.phase === 'initialized' && (entry.bytesConfirmed ?? 0) > 0);
    const request = job(creator, video(bigFile, BIG_BYTES), ledger);
    await expect(publisher.publish(request, FAST)).rejects.toThrow('lease lost');
    const stale = ledger.current()!;
    const later = Date.now() + 61 * 60_000;
    fake.setNow(() => new Date(later));
    await expect(publisher.publish(request, FAST)).rejects.toMatchObject({ kind: 'other', status: 403 });
    expect(ledger.current()).toMatchObject({ phase: 'failed', externalId: stale.externalId });
    const outcome = await publisher.publish(request, FAST);
    expect(outcome.status).toBe('published');
    expect(ledger.current()!.externalId).not.toBe(stale.externalId);
    expect(postsOf(creator)).toEqual([expect.objectContaining({ sha256: bigSha })]);
  });

  it('starts anew at once when a stored upload that never had every byte has FAILED', async () => {
    const creator = newCreator();
    const publisher = publisherFor();
    const ledger = memoryLedger((entry) => entry.phase === 'initialized' && (entry.bytesConfirmed ?? 0) > 0);
    const request = job(creator, video(bigFile, BIG_BYTES), ledger);
    await expect(publisher.publish(request, FAST)).rejects.toThrow('lease lost');
    const stale = fake.inits.at(-1)!;
    stale.status = 'FAILED';
    stale.failReason = 'internal';
    expect(await publisher.publish(request, FAST)).toMatchObject({ status: 'published' });
    expect(ledger.writes.find((w) => w.phase === 'failed')).toMatchObject({ externalId: stale.publishId, detail: 'internal' });
    expect(ledger.current()!.externalId).not.toBe(stale.publishId);
    expect(postsOf(creator)).toEqual([expect.objectContaining({ sha256: bigSha })]);
  });

  it('waits out rate limits, then posts once', async () => {
    const creator = newCreator();
    fake.failNext(INIT, 2, { status: 429, code: 'rate_limit_exceeded' });
    const inits = count(INIT);
    const outcome = await publisherFor().publish(job(creator), FAST);
    expect(outcome.status).toBe('published');
    expect(count(INIT) - inits).toBe(3);
    expect(postsOf(creator)).toHaveLength(1);
  });

  it("answers the fake's own 6-a-minute init limit as rate_limit once retries are spent", async () => {
    const creator = newCreator();
    const publisher = publisherFor();
    fake.setProcessing(0);
    for (let i = 0; i < 6; i += 1) {
      await publisher.publish(job(creator), FAST);
    }
    const inits = count(INIT);
    await expect(publisher.publish(job(creator), { ...FAST, maxRetries: 2 })).rejects.toMatchObject({
      kind: 'rate_limit',
      status: 429,
    });
    expect(count(INIT) - inits).toBe(3);
  });

  it('refreshes a token near its end, keeps the rotated refresh token, and revokes', async () => {
    const creator = newCreator();
    const publisher = publisherFor();
    const tokens = {
      accessToken: creator.accessToken,
      accessExpiresAt: new Date(Date.now() + 3_600_000),
      refreshToken: creator.refreshToken,
      scopes: ['user.info.basic', 'video.publish'],
    };
    expect(await publisher.refresh({ app: APP, tokens }, FAST)).toBeNull();
    const soon = { ...tokens, accessExpiresAt: new Date(Date.now() + 5 * 60_000) };
    const next = (await publisher.refresh({ app: APP, tokens: soon }, FAST))!;
    expect(next.accessToken).not.toBe(creator.accessToken);
    expect(next.refreshToken).not.toBe(creator.refreshToken);
    await expect(publisher.refresh({ app: APP, tokens: soon }, FAST)).rejects.toMatchObject({
      kind: 'reauthorize',
      code: 'invalid_grant',
    });
    // An access token past its 24 hours is refused.
    fake.setNow(() => new Date(Date.now() + 86_400_000 + 1000));
    await expect(publisher.profile({ accessToken: next.accessToken }, FAST)).rejects.toMatchObject({
      kind: 'reauthorize',
      code: 'access_token_invalid',
    });
    fake.setNow(() => new Date());
    await publisher.revoke({ app: APP, tokens: next }, FAST);
    await expect(publisher.profile({ accessToken: next.accessToken }, FAST)).rejects.toMatchObject({ kind: 'reauthorize' });
    await expect(publisher.refresh({ app: APP, tokens: { ...next, accessExpiresAt: new Date() } }, FAST)).rejects.toMatchObject({
      kind: 'reauthorize',
    });
  });

  it("answers in_doubt when init's answer is lost; the next call inits anew and only one post is made", async () => {
    const creator = newCreator();
    const publisher = publisherFor();
    const ledger = memoryLedger();
    const request = job(creator, video(bigFile, BIG_BYTES), ledger);
    fake.dropAnswerNext(INIT);
    const inits = fake.inits.length;
    await expect(publisher.publish(request, FAST)).rejects.toMatchObject({ kind: 'in_doubt' });
    expect(ledger.current()).toBeNull();
    expect(await publisher.publish(request, FAST)).toMatchObject({ status: 'published' });
    expect(fake.inits.length - inits).toBe(2);
    expect(postsOf(creator)).toHaveLength(1);
  });

  it('resumes after a crash mid-upload from the next chunk, with the same publish_id', async () => {
    const creator = newCreator();
    const publisher = publisherFor();
    const ledger = memoryLedger((entry) => entry.phase === 'initialized' && (entry.bytesConfirmed ?? 0) > 0);
    const request = job(creator, video(bigFile, BIG_BYTES), ledger);
    const puts = fake.requests.filter((r) => r.method === 'PUT').length;
    const inits = fake.inits.length;
    await expect(publisher.publish(request, FAST)).rejects.toThrow('lease lost');
    const outcome = await publisher.publish(request, FAST);
    expect(outcome.status).toBe('published');
    expect(fake.inits.length - inits).toBe(1);
    // The first chunk was confirmed but not recorded: TikTok's uploaded_bytes says where to go on.
    expect(fake.requests.filter((r) => r.method === 'PUT').length - puts).toBe(2);
    expect(postsOf(creator)).toEqual([expect.objectContaining({ sha256: bigSha })]);
  });

  it('resumes after a crash right after the 201 by status only: no new init, no byte sent again', async () => {
    const creator = newCreator();
    const publisher = publisherFor();
    const ledger = memoryLedger((entry) => entry.phase === 'uploaded');
    const request = job(creator, video(smallFile, SMALL_BYTES), ledger);
    await expect(publisher.publish(request, FAST)).rejects.toThrow('lease lost');
    const inits = count(INIT);
    const puts = fake.requests.filter((r) => r.method === 'PUT').length;
    expect(await publisher.publish(request, FAST)).toMatchObject({ status: 'published' });
    expect([count(INIT) - inits, fake.requests.filter((r) => r.method === 'PUT').length - puts]).toEqual([0, 0]);
    expect(postsOf(creator)).toHaveLength(1);
  });

  it('finishes when the last chunk was kept but its answer lost (a 416, then status)', async () => {
    const creator = newCreator();
    fake.dropAnswerNext('/upload/');
    const outcome = await publisherFor().publish(job(creator), FAST);
    expect(outcome.status).toBe('published');
    expect(postsOf(creator)).toHaveLength(1);
  });

  it('retries a chunk TikTok answered 503 and one whose connection broke', async () => {
    const creator = newCreator();
    fake.failNextUploadChunks(2);
    fake.breakUploadAfter(1000);
    const outcome = await publisherFor().publish(job(creator, video(bigFile, BIG_BYTES)), FAST);
    expect(outcome.status).toBe('published');
    expect(postsOf(creator)).toEqual([expect.objectContaining({ sha256: bigSha })]);
  });

  it('answers processing when TikTok takes longer than the polls, and a later call completes it without a new init', async () => {
    const creator = newCreator();
    fake.setProcessing(10);
    const ledger = memoryLedger();
    const request = job(creator, video(smallFile, SMALL_BYTES), ledger);
    expect(await publisherFor().publish(request, FAST)).toEqual({ status: 'processing', postId: null, postUrl: null });
    expect(ledger.current()?.phase).toBe('uploaded');
    fake.inits.at(-1)!.pollsLeft = 0;
    const inits = count(INIT);
    expect(await publisherFor().publish(request, FAST)).toMatchObject({ status: 'published' });
    expect(count(INIT) - inits).toBe(0);
  });

  it("records TikTok's refusal of the video (FAILED) and names it", async () => {
    const creator = newCreator();
    fake.setProcessing(0, { failReason: 'duration_check_failed' });
    const ledger = memoryLedger();
    await expect(publisherFor().publish(job(creator, video(smallFile, SMALL_BYTES), ledger), FAST)).rejects.toMatchObject({
      kind: 'media_rejected',
      code: 'duration_check_failed',
    });
    expect(ledger.current()).toMatchObject({ phase: 'failed', detail: 'duration_check_failed' });
  });

  it('refuses a video longer than the creator may post, before any init', async () => {
    const creator = newCreator({ maxVideoPostDurationSec: 60 });
    const inits = count(INIT);
    await expect(
      publisherFor().publish(job(creator, video(smallFile, SMALL_BYTES, { durationSec: 61 })), FAST),
    ).rejects.toMatchObject({ kind: 'media_rejected' });
    expect(count(INIT) - inits).toBe(0);
  });

  it('sends nothing to an upload URL outside the allowed origins', async () => {
    const creator = newCreator();
    const puts = fake.requests.filter((r) => r.method === 'PUT').length;
    const ledger = memoryLedger();
    await expect(
      publisherFor({ uploadOrigins: ['https://open-upload.tiktokapis.com'] }).publish(
        job(creator, video(smallFile, SMALL_BYTES), ledger),
        FAST,
      ),
    ).rejects.toThrow(/not on an allowed host/);
    expect(fake.requests.filter((r) => r.method === 'PUT').length - puts).toBe(0);
    expect(ledger.current()?.phase).toBe('failed');
  });

  it('gives links only as post stats (views and likes need video.list)', async () => {
    const creator = newCreator();
    const stats = await publisherFor().postStats(
      { accessToken: creator.accessToken, externalId: creator.openId, postIds: ['123'] },
      FAST,
    );
    expect(stats.get('123')).toEqual({ views: null, likes: null, url: `https://www.tiktok.com/@criador${userSeq}/video/123` });
  });

  it('retries a gateway page a bounded number of times, then says unreachable', async () => {
    const creator = newCreator();
    fake.answerPageNext('/v2/user/info/', 10, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>');
    const before = count('/v2/user/info/', 'GET');
    await expect(publisherFor().profile({ accessToken: creator.accessToken }, { ...FAST, maxRetries: 2 })).rejects.toMatchObject({
      kind: 'unreachable',
      status: 502,
    });
    expect(count('/v2/user/info/', 'GET') - before).toBe(3);
    fake.answerPageNext('/v2/user/info/', 0, 502, '');
  });
});

describe('against hostile answers', () => {
  let hostile: HostileServer;
  beforeAll(async () => {
    hostile = await startHostileServer();
  });
  afterAll(() => hostile.close());
  const publisher = () =>
    createTiktokPublisher({ authUrl: `${hostile.url}/auth`, apiUrl: `${hostile.url}/` }, { uploadOrigins: [hostile.url] });

  it('drops a huge token answer at 1 MiB', async () => {
    hostile.reset();
    hostile.answer((_req, res, server) => sendStream(res, server, { head: '{"access_token":"', chunk: 'a'.repeat(64 * 1024) }));
    await expect(
      publisher().connect({ app: APP, code: 'c', redirectUri: REDIRECT, codeVerifier: 'v' }, { ...FAST, maxRetries: 0 }),
    ).rejects.toMatchObject({
      kind: 'too_large',
    });
    expect(hostile.bytesSent).toBeLessThan(8 * MIB);
  });

  it('cuts a dripping answer at the deadline', async () => {
    hostile.answer((_req, res, server) => sendDrip(res, server, { body: '{"data":{}}', intervalMs: 200 }));
    const started = Date.now();
    await expect(
      publisher().preflight({ accessToken: 'act.x', externalId: 'o' }, { timeoutMs: 500, maxRetries: 0 }),
    ).rejects.toBeInstanceOf(PlatformError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("waits what a 429's Retry-After asks, then goes on", async () => {
    hostile.reset();
    let calls = 0;
    hostile.answer((_req, res, server) => {
      calls += 1;
      if (calls <= 2) {
        sendWhole(
          res,
          server,
          429,
          JSON.stringify({ data: {}, error: { code: 'rate_limit_exceeded', message: '', log_id: 'L' } }),
          {
            'retry-after': '0',
          },
        );
        return;
      }
      const body = { data: { privacy_level_options: ['SELF_ONLY'], max_video_post_duration_sec: 180 }, error: { code: 'ok' } };
      sendWhole(res, server, 200, JSON.stringify(body), { 'content-type': 'application/json' });
    });
    // Without the header, the default floor of 10 s would make this test time out.
    const preflight = await publisher().preflight({ accessToken: 'act.x', externalId: 'o' }, FAST);
    expect(preflight).toMatchObject({ privacyLevels: ['SELF_ONLY'], maxDurationSec: 180 });
    expect(hostile.requests).toHaveLength(3);
  });

  it('does not follow a redirect with the token', async () => {
    hostile.reset();
    hostile.answer((_req, res) => res.writeHead(307, { location: `${hostile.url}/elsewhere` }).end());
    await expect(publisher().profile({ accessToken: 'act.secret' }, { ...FAST, maxRetries: 0 })).rejects.toMatchObject({
      kind: 'other',
      status: 307,
    });
    expect(hostile.requests.map((r) => r.url)).toEqual(['/v2/user/info/?fields=open_id,union_id,avatar_url,display_name']);
  });

  it('refuses an upload URL on another host without sending a byte', async () => {
    hostile.reset();
    hostile.answer((req, res, server) => {
      const body =
        req.url === INIT
          ? { data: { publish_id: 'v_pub_file~1', upload_url: 'https://evil.example/upload/?t=1' }, error: { code: 'ok' } }
          : {
              data: { privacy_level_options: ['SELF_ONLY'], max_video_post_duration_sec: 600, creator_username: 'x' },
              error: { code: 'ok' },
            };
      sendWhole(res, server, 200, JSON.stringify(body), { 'content-type': 'application/json' });
    });
    const ledger = memoryLedger();
    await expect(
      publisher().publish(
        { accessToken: 'act.x', externalId: 'o', request: video(smallFile, SMALL_BYTES, { privacyLevel: 'SELF_ONLY' }), ledger },
        FAST,
      ),
    ).rejects.toThrow(/evil\.example/);
    expect(hostile.requests.every((r) => r.method === 'POST')).toBe(true);
    expect(ledger.current()).toMatchObject({ phase: 'failed', externalId: 'v_pub_file~1' });
  });
});
