/**
 * The contract every short-video platform's publisher keeps (issue 31: TikTok's Content Posting
 * API, Instagram Reels through Facebook Login for Business; Facebook Reels or X later are one
 * module each). A publisher is a client of the platform's official HTTP API and nothing else: it
 * reads no database and no settings, and is handed the account's tokens, the platform's addresses,
 * the file, and a ledger in which the caller keeps, fenced by its lease, what the platform
 * answered. Every answer is read bounded in size and time (providers/httpBodies.ts), and every
 * failure is a `PlatformError` whose `kind` says what to do about it.
 */

export type Platform = 'tiktok' | 'instagram';

/** The platform's addresses (settings with the real defaults; fakes on 127.0.0.1 in tests). */
export interface PlatformEndpoints {
  /** Where the browser is sent to consent (TikTok `https://www.tiktok.com/v2/auth/authorize/`, Meta `https://www.facebook.com/v21.0/dialog/oauth`). */
  authUrl: string;
  /** The API's base (TikTok `https://open.tiktokapis.com/`, Meta `https://graph.facebook.com/`). */
  apiUrl: string;
  /** Meta's upload host (`https://rupload.facebook.com/`); TikTok answers its upload URL per post. */
  uploadUrl?: string;
}

/** The app credentials an account authorizes with (TikTok client key and secret; Meta app id and secret). */
export interface AppCredentials {
  clientId: string;
  clientSecret: string;
}

/** Tokens as the platform answered them. Times are absolute. */
export interface Tokens {
  accessToken: string;
  accessExpiresAt: Date | null;
  /** TikTok's refresh token (a year; it may rotate on refresh). */
  refreshToken?: string;
  refreshExpiresAt?: Date | null;
  /** The scopes granted (the user may grant fewer than asked). */
  scopes: string[];
}

/** Who the account is on the platform, as its API shows it. */
export interface AccountProfile {
  /** TikTok `open_id`; Instagram professional account id. */
  externalId: string;
  username: string | null;
  displayName: string | null;
  avatarUrl: string | null;
}

/** What the platform allows this account to post now (TikTok creator_info; Instagram's publishing limit). */
export interface Preflight {
  /** Privacy levels the account may choose (TikTok `privacy_level_options`); Instagram: ['PUBLIC']. */
  privacyLevels: string[];
  /** Longest video the account may post, in seconds (TikTok `max_video_post_duration_sec`; Reels 900). */
  maxDurationSec: number;
  /** Posts left in the platform's window (Instagram `quota_total - quota_usage`), when it says. */
  postsLeft: number | null;
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
}

/** The video and what goes with it. */
export interface PublishRequest {
  /** The rendered MP4 on local disk. */
  file: string;
  /** Its size in bytes and duration in seconds (the caller probed it). */
  size: number;
  durationSec: number;
  /** The post's text, already within the platform's limits (see each module's caption builder). */
  caption: string;
  /** TikTok: the privacy level chosen (one of Preflight.privacyLevels); SELF_ONLY for an unaudited app. */
  privacyLevel?: string;
  allowComment?: boolean;
  allowDuet?: boolean;
  allowStitch?: boolean;
  /** Declared as AI-generated content (TikTok `is_aigc`). */
  aiGenerated: boolean;
}

/**
 * Where a post stands, as the ledger keeps it. The external id (TikTok `publish_id`, Instagram
 * container id) is written before any byte is sent, and `publish_requested` before Instagram's
 * `media_publish`, so that a run resumed after a crash continues or checks that attempt and never
 * posts twice.
 */
export type LedgerPhase = 'initialized' | 'uploaded' | 'publish_requested' | 'published' | 'failed';

export interface LedgerEntry {
  phase: LedgerPhase;
  externalId: string;
  /** Where the bytes go (TikTok `upload_url`, Instagram `uri`), while they are being sent. */
  uploadUrl?: string;
  /** Bytes the platform confirmed it holds. */
  bytesConfirmed?: number;
  /** The post once published (TikTok post id, Instagram media id). */
  postId?: string;
  /** The platform's reason, for the log (TikTok `fail_reason`, Meta's subcode). */
  detail?: string;
}

/** The caller's record of this destination's current attempt, written under its lease. */
export interface PublishLedger {
  read(): Promise<LedgerEntry | null>;
  /** Records an entry; rejects when the caller's lease was lost (the publisher then stops). */
  write(entry: LedgerEntry): Promise<void>;
}

export interface PublishOutcome {
  /** `private`: posted, visible to the account only (TikTok SELF_ONLY); `processing`: the platform is still at it. */
  status: 'published' | 'private' | 'processing';
  postId: string | null;
  postUrl: string | null;
}

export interface PostStats {
  views: number | null;
  likes: number | null;
  /** Comments, where the platform gives them (Instagram `comments_count`). */
  comments?: number | null;
  url: string | null;
}

/**
 * Why a platform call failed, and so what to do:
 * - `reauthorize`: the token is revoked or expired, or a scope is missing: the owner authorizes again;
 * - `rate_limit`: too fast, retried with backoff (a client only throws it once its retries are spent);
 * - `daily_limit`: the account's allowance for the day is spent: try tomorrow, never a retry storm;
 * - `private_only`: an unaudited app may only post privately;
 * - `media_rejected`: the video breaks the platform's rules (duration, size, format);
 * - `restricted`: the account may not post now (spam risk, banned, under review);
 * - `unreachable`: network, time-out, 5xx after retries;
 * - `in_doubt`: a non-idempotent call whose answer was lost: the ledger decides what comes next;
 * - `too_large`: an answer larger than the platform should ever send;
 * - `other`: anything else the platform answered.
 */
export type PlatformFailure =
  | 'reauthorize'
  | 'rate_limit'
  | 'daily_limit'
  | 'private_only'
  | 'media_rejected'
  | 'restricted'
  | 'unreachable'
  | 'in_doubt'
  | 'too_large'
  | 'other';

export class PlatformError extends Error {
  constructor(
    readonly platform: Platform,
    readonly kind: PlatformFailure,
    /** Short, English, safe to log and show: never a token or secret. */
    message: string,
    readonly status?: number,
    /** The platform's own code (TikTok `error.code`, Meta `code/error_subcode`). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/** Bounds of every exchange with a platform. */
export interface ExchangeOptions {
  /** Deadline of each request, headers and body. Default 60 000 ms (uploads: per chunk). */
  timeoutMs?: number;
  /** Retries of a request that failed on the network, with a 5xx or a rate limit. Default 5. */
  maxRetries?: number;
  /** The first retry waits about this long, each next one twice as long. Default 1000 ms. */
  backoffBaseMs?: number;
  /** An outbound proxy for this account's calls (the admins' proxies), when one is set. */
  proxyUrl?: string;
  signal?: AbortSignal;
}

/** One platform's publisher. */
export interface Publisher {
  readonly platform: Platform;
  /** The consent page's address for this account (TikTok adds the PKCE challenge of `codeVerifier`). */
  authorizeUrl(input: { app: AppCredentials; state: string; redirectUri: string; codeVerifier?: string }): string;
  /** Exchanges the consent's code for tokens (and, for Instagram, long-lived ones). */
  connect(
    input: { app: AppCredentials; code: string; redirectUri: string; codeVerifier?: string },
    options?: ExchangeOptions,
  ): Promise<Tokens>;
  /** New tokens when the access token is near its end (null: nothing to do). */
  refresh(input: { app: AppCredentials; tokens: Tokens }, options?: ExchangeOptions): Promise<Tokens | null>;
  /** Who the account is; throws `reauthorize` when the authorization no longer works. */
  profile(input: { accessToken: string }, options?: ExchangeOptions): Promise<AccountProfile>;
  /** What the account may post now. */
  preflight(input: { accessToken: string; externalId: string }, options?: ExchangeOptions): Promise<Preflight>;
  /**
   * Posts the video, or continues the attempt the ledger holds: reads the ledger first, and
   * writes to it before every step that cannot be undone.
   */
  publish(
    input: { accessToken: string; externalId: string; request: PublishRequest; ledger: PublishLedger },
    options?: ExchangeOptions,
  ): Promise<PublishOutcome>;
  /** Views, likes and links of posts, where the platform's API gives them with the scopes asked. */
  postStats(
    input: { accessToken: string; externalId: string; postIds: string[] },
    options?: ExchangeOptions,
  ): Promise<Map<string, PostStats>>;
  /** Revokes the authorization (the account is removed). */
  revoke(input: { app: AppCredentials; tokens: Tokens }, options?: ExchangeOptions): Promise<void>;
}
