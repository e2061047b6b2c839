/**
 * The one database schema (spec section 3). Drizzle generates the SQL migrations in
 * server/drizzle from this file: `npm run db:generate`. Both PGlite and PostgreSQL run them.
 */
import { sql } from 'drizzle-orm';
import type { ExecutionStatus, ExecutionTrigger, ProcessLanguage, ProcessStatus, ProcessStep } from '../contracts/processes';
import type { LanguageCode, PromptCategory } from '../contracts/prompts';
import type { BillingPeriod } from '../lib/plans';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  real,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true });

export const users = pgTable(
  'users',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Plan id from the catalogue of spec section 9 (starter, basic, professional, business, enterprise). */
    plan: text('plan').notNull().default('starter'),
    /** Billing period chosen at sign-up: monthly or annual. */
    billingPeriod: text('billing_period').$type<BillingPeriod>().notNull().default('monthly'),
    /** IANA time zone, used to place publication times. */
    timeZone: text('time_zone').notNull().default('UTC'),
    /** Bumped on every password change; tokens carry it, so older tokens stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** When the owner of the address followed the link we sent there; null until then (and after an email change). */
    emailVerifiedAt: ts('email_verified_at'),
    /** The interface language last used (pt or en): alerts sent while nobody is looking are written in it. */
    language: text('language').notNull().default('en'),
    /**
     * Bumped (by the triggers of migration 0004, at commit) whenever something the user's lists show
     * changes: their processes, channels, API configurations, executions started, or a catalogue
     * prompt or voice their processes use. Read with the session, it keys the list caches.
     */
    dataVersion: bigint('data_version', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** sha256 of the token sent by email; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_idx').on(t.tokenHash), index('password_reset_tokens_user_idx').on(t.userId)],
);

/** Failed sign-in attempts, counted per email and per address for rate limiting across processes. */
/** One sign-in: a token names its session, and signing out (or an email change elsewhere) revokes it. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
    /** Last request seen, written at most every few minutes (services/auth.ts, SESSION_TOUCH_MS): the idle timeout reads it. */
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    /** The browser's User-Agent when the session opened, cut to 200 characters (Settings › Security lists it). */
    userAgent: text('user_agent').notNull().default(''),
    /** The client address the session was opened from (request.ip, after TRUST_PROXY), as it was. */
    ip: text('ip').notNull().default(''),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Links sent to prove an address: one-time, valid 24 hours, for the address they were sent to. */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the link was sent to: it verifies only while the account still has it. */
    email: text('email').notNull(),
    /** sha256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('email_verification_tokens_hash_idx').on(t.tokenHash),
    index('email_verification_tokens_user_idx').on(t.userId),
  ],
);

/**
 * Pending OAuth authorizations (services/oauthStates.ts): the `state` sent through a provider's
 * consent screen names a row; the browser that asked holds a cookie whose sha256 is `nonce_hash`.
 * One-time (`used_at`), short-lived, and void once the user's token_version moves (a password
 * change or reset).
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    /** Random (128 bits, base64url), made by the server; the state carries it. */
    id: text('id').primaryKey(),
    /** Whose consent screen: youtube, tiktok or instagram. */
    provider: text('provider').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What the authorization is for (the YouTube API configuration's id). */
    subject: text('subject').notNull(),
    /** sha256 (base64url) of the nonce in the asking browser's cookie; the nonce itself is never stored. */
    nonceHash: text('nonce_hash').notNull(),
    /** TikTok's PKCE code verifier, sealed with the secret box (the callback's code exchange needs it). */
    codeVerifierEnc: text('code_verifier_enc'),
    /** The user's token_version when it was issued. */
    tokenVersion: integer('token_version').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_states_user_idx').on(t.userId), index('oauth_states_expires_idx').on(t.expiresAt)],
);

/** Fixed-window counters of the rate limits (sign-up, reset, resend, tests), shared by every process. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: ts('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_limits_window_idx').on(t.windowStart)],
);

export const loginFailures = pgTable(
  'login_failures',
  {
    id: id(),
    email: text('email').notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('login_failures_email_idx').on(t.email, t.createdAt),
    index('login_failures_address_idx').on(t.address, t.createdAt),
  ],
);

/**
 * Checks of a signed-in user's password (a password change, an email change, deleting the
 * account) within the last 15 minutes, written before the hash is computed
 * (services/reauthentication.ts): a right password or a reset removes them.
 */
export const reauthFailures = pgTable(
  'reauth_failures',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('reauth_failures_user_idx').on(t.userId, t.createdAt)],
);

export const channels = pgTable(
  'channels',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The platform studio's channel id (UC...). Never changes after creation. */
    channelId: text('channel_id').notNull(),
    name: text('name'),
    minViews: integer('min_views').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    subscriberCount: bigint('subscriber_count', { mode: 'number' }),
    videoCount: bigint('video_count', { mode: 'number' }),
    viewCount: bigint('view_count', { mode: 'number' }),
    statsUpdatedAt: ts('stats_updated_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('channels_user_channel_idx').on(t.userId, t.channelId),
    index('channels_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/** Video-platform (YouTube Data API) configurations. Secrets are stored encrypted (*_enc). */
export const youtubeApis = pgTable(
  'youtube_apis',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    channelId: text('channel_id').notNull(),
    apiKeyEnc: text('api_key_enc'),
    clientId: text('client_id').notNull(),
    clientSecretEnc: text('client_secret_enc').notNull(),
    refreshTokenEnc: text('refresh_token_enc'),
    isActive: boolean('is_active').notNull().default(false),
    isEnabled: boolean('is_enabled').notNull().default(true),
    isConnected: boolean('is_connected').notNull().default(false),
    lastTested: ts('last_tested'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('youtube_apis_user_created_idx').on(t.userId, t.createdAt),
    uniqueIndex('youtube_apis_one_active_idx')
      .on(t.userId)
      .where(sql`${t.isActive}`),
  ],
);

/** An Instagram account the owner may pick, of the Pages the authorization reached (secrets sealed). */
export interface PlatformAccountChoice {
  externalId: string;
  username: string | null;
  pageId: string;
  pageName: string;
  pictureUrl: string | null;
  /** The Page's token, sealed with the secret box. */
  pageAccessTokenEnc: string;
}

/**
 * A user's TikTok or Instagram account that runs publish to (issue 31). Secrets are sealed with
 * the secret box; client_id null means the operator's app (TIKTOK_CLIENT_KEY, META_APP_ID).
 */
export const platformAccounts = pgTable(
  'platform_accounts',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platform: text('platform').$type<'tiktok' | 'instagram'>().notNull(),
    name: text('name').notNull(),
    clientId: text('client_id'),
    clientSecretEnc: text('client_secret_enc'),
    /** TikTok open_id; Instagram professional account id. Null until authorized (and chosen). */
    externalId: text('external_id'),
    username: text('username'),
    displayName: text('display_name'),
    avatarUrl: text('avatar_url'),
    accessTokenEnc: text('access_token_enc'),
    accessExpiresAt: ts('access_expires_at'),
    refreshTokenEnc: text('refresh_token_enc'),
    refreshExpiresAt: ts('refresh_expires_at'),
    scopes: jsonb('scopes').$type<string[]>().notNull().default([]),
    /** Instagram: the Pages with a linked account, waiting for the owner's pick; null otherwise. */
    choices: jsonb('choices').$type<PlatformAccountChoice[] | null>(),
    /** Posts stay visible to the account only (TikTok SELF_ONLY: the operator's app is not audited). */
    privateOnly: boolean('private_only').notNull().default(false),
    maxDurationSec: integer('max_duration_sec'),
    privacyLevels: jsonb('privacy_levels').$type<string[]>(),
    /** Switched on by its owner. */
    isActive: boolean('is_active').notNull().default(true),
    isConnected: boolean('is_connected').notNull().default(false),
    /** Why it is no longer connected: a message key. */
    disconnectReason: text('disconnect_reason'),
    lastTested: ts('last_tested'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('platform_accounts_user_created_idx').on(t.userId, t.createdAt),
    uniqueIndex('platform_accounts_external_idx')
      .on(t.userId, t.platform, t.externalId)
      .where(sql`${t.externalId} is not null`),
    check('platform_accounts_platform_check', sql`${t.platform} in ('tiktok', 'instagram')`),
  ],
);

/** How far a running step is: `done` of `total` chapters or images, or a percentage (total 100). */
export interface StepProgress {
  unit: 'chapters' | 'images' | 'percent';
  done: number;
  total: number;
}

/** One chat-model (OpenAI-compatible) configuration per user. */
export const chatModelConfigs = pgTable(
  'chat_model_configs',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    apiKeyEnc: text('api_key_enc').notNull(),
    baseUrl: text('base_url'),
    model: text('model'),
    /** Narration from another OpenAI-compatible server (Kokoro-FastAPI, LocalAI...); null: the chat API's root. */
    speechBaseUrl: text('speech_base_url'),
    /** null: the server's default speech model (OPENAI_SPEECH_MODEL). */
    speechModel: text('speech_model'),
    /** Images from another OpenAI-compatible server; null: the chat API's root. */
    imageBaseUrl: text('image_base_url'),
    /** null: the server's default image model (OPENAI_IMAGE_MODEL). */
    imageModel: text('image_model'),
    isConnected: boolean('is_connected').notNull().default(false),
    lastTested: ts('last_tested'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('chat_model_configs_user_idx').on(t.userId)],
);

/** Story prompt templates, curated by admins and read by everyone. */
export const prompts = pgTable(
  'prompts',
  {
    id: id(),
    /** The admin who created it; kept null when that account is deleted. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    content: text('content').notNull(),
    category: text('category').$type<PromptCategory>().notNull().default('drama_psicologico'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('prompts_created_idx').on(t.createdAt)],
);

/** The six texts of a prompt in one language. */
export const promptLanguages = pgTable(
  'prompt_languages',
  {
    promptId: uuid('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    language: text('language').$type<LanguageCode>().notNull(),
    title: text('title').notNull().default(''),
    premise: text('premise').notNull().default(''),
    narrativePrompt: text('narrative_prompt').notNull().default(''),
    chapter1: text('chapter_1').notNull().default(''),
    nextChapters: text('next_chapters').notNull().default(''),
    finalChapter: text('final_chapter').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.promptId, t.language] })],
);

/** Narration voices, curated by admins and read by everyone. */
export const voices = pgTable(
  'voices',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    type: text('type').notNull(),
    sampleUrl: text('sample_url').notNull(),
    description: text('description').notNull().default(''),
    language: text('language').$type<LanguageCode>(),
    gender: text('gender'),
    /** openai, elevenlabs or espeak. */
    provider: text('provider').notNull().default('espeak'),
    providerVoiceId: text('provider_voice_id').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('voices_created_idx').on(t.createdAt)],
);

/**
 * Background music, curated by admins and chosen per process: the file lives in
 * MEDIA_DIR/music/<id>.<format> (services/music.ts), its loudness measured once at upload.
 */
export const musicTracks = pgTable(
  'music_tracks',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** One of MUSIC_MOODS (services/music.ts). */
    mood: text('mood').notNull(),
    /** mp3, wav or ogg: what the file really is. */
    format: text('format').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    durationSeconds: real('duration_seconds').notNull(),
    /** Integrated loudness, LUFS; null for silence. */
    loudnessLufs: real('loudness_lufs'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('music_tracks_created_idx').on(t.createdAt)],
);

/** Outbound proxies, admin only. The password part of the URL is stored encrypted. */
export const proxies = pgTable(
  'proxies',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** The proxy URL without its password. */
    url: text('url').notNull(),
    passwordEnc: text('password_enc'),
    isActive: boolean('is_active').notNull().default(true),
    isConnected: boolean('is_connected').notNull().default(false),
    lastTested: ts('last_tested'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('proxies_created_idx').on(t.createdAt)],
);

/** Recurring workflows that make and publish one story video every 3 days. */
export const processes = pgTable(
  'processes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    channelId: uuid('channel_id').references(() => channels.id, { onDelete: 'set null' }),
    youtubeApiId: uuid('youtube_api_id').references(() => youtubeApis.id, { onDelete: 'set null' }),
    promptId: uuid('prompt_id').references(() => prompts.id, { onDelete: 'set null' }),
    voiceId: uuid('voice_id').references(() => voices.id, { onDelete: 'set null' }),
    language: text('language').$type<ProcessLanguage>().notNull().default('pt'),
    isActive: boolean('is_active').notNull().default(false),
    /** idle, running, completed or error. */
    status: text('status').$type<ProcessStatus>().notNull().default('idle'),
    executionStep: integer('execution_step'),
    executionSteps: jsonb('execution_steps').$type<ProcessStep[]>(),
    lastExecution: ts('last_execution'),
    nextExecution: ts('next_execution').notNull(),
    /** auto: the video is published at its time; review: it waits private until the owner approves it. */
    publishMode: text('publish_mode').notNull().default('auto'),
    publicationTime: text('publication_time').notNull().default('09:00'),
    /** video: 1920x1080; short: a vertical YouTube Short of at most 3 minutes. */
    format: text('format').notNull().default('video'),
    /** Background music under the narration; none by default. */
    musicId: uuid('music_id').references(() => musicTracks.id, { onDelete: 'set null' }),
    /** The last run's error: English text for logs, and a message key + params shown in the reader's language. */
    lastError: text('last_error'),
    lastErrorKey: text('last_error_key'),
    lastErrorParams: jsonb('last_error_params').$type<Record<string, string | number>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('processes_user_created_idx').on(t.userId, t.createdAt),
    index('processes_due_idx').on(t.isActive, t.nextExecution),
    index('processes_channel_idx').on(t.channelId),
    index('processes_prompt_idx').on(t.promptId),
    index('processes_voice_idx').on(t.voiceId),
    index('processes_youtube_api_idx').on(t.youtubeApiId),
    index('processes_music_idx').on(t.musicId),
  ],
);

/** One run of a process through the seven steps, with its checkpoints and files. */
export const executions = pgTable(
  'executions',
  {
    id: id(),
    processId: uuid('process_id')
      .notNull()
      .references(() => processes.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * queued (waiting for a worker), running, awaiting_review, completed, error, cancelled or
     * rejected (docs/engine.md).
     */
    status: text('status').$type<ExecutionStatus>().notNull().default('queued'),
    currentStep: integer('current_step').notNull().default(0),
    language: text('language').notNull(),
    /** Per step: started and finished times. */
    stepTimes: jsonb('step_times').$type<Record<string, { startedAt?: string; finishedAt?: string }>>().notNull().default({}),
    /** Outputs of finished steps, reused when a failed run is retried. */
    checkpoint: jsonb('checkpoint').$type<Record<string, unknown>>().notNull().default({}),
    /** How far the current step is (chapters narrated, images made, render or upload percent); null between steps. */
    progress: jsonb('progress').$type<StepProgress | null>(),
    storyTitle: text('story_title'),
    /** English text for logs; the key and params are translated for the reader. */
    error: text('error'),
    errorKey: text('error_key'),
    errorParams: jsonb('error_params').$type<Record<string, string | number>>(),
    /** manual (execute), schedule or retry. */
    trigger: text('trigger').$type<ExecutionTrigger>().notNull().default('manual'),
    /** The pg-boss job that runs it now; an older job that finds another id here stops. */
    jobId: text('job_id'),
    /** Touched by the worker while it runs; a stale one means the worker died. */
    heartbeatAt: ts('heartbeat_at'),
    /** How many times a run left by a dead worker was resumed. */
    recoveries: integer('recoveries').notNull().default(0),
    /** The worker holding the run now (its process id and host); null when nobody does. */
    leaseOwner: text('lease_owner'),
    /**
     * Moves by one every time a worker takes the run. Every write of a run carries the fence it was
     * taken with, so a worker that lost the run (a recovery gave it to another) changes nothing.
     */
    leaseFence: integer('lease_fence').notNull().default(0),
    /** When the run last entered the queue (created, retried, or handed back by a dead worker). */
    queuedAt: ts('queued_at').notNull().defaultNow(),
    /** When a worker first took it (step 1 began); null while it waits in the queue. */
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('executions_process_created_idx').on(t.processId, t.createdAt),
    index('executions_user_created_idx').on(t.userId, t.createdAt),
    index('executions_status_idx').on(t.status),
    index('executions_status_queued_idx').on(t.status, t.queuedAt),
  ],
);

/** Titles a process has already made, per language, so a story is never made twice. */
export const storyTitles = pgTable(
  'story_titles',
  {
    id: id(),
    processId: uuid('process_id')
      .notNull()
      .references(() => processes.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    title: text('title').notNull(),
    /** Lower-cased, accents and punctuation removed: what uniqueness is checked on. */
    normalizedTitle: text('normalized_title').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('story_titles_unique_idx').on(t.processId, t.language, t.normalizedTitle)],
);

/** Uploaded (or failed) videos. */
export const publications = pgTable(
  'publications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processId: uuid('process_id').references(() => processes.id, { onDelete: 'set null' }),
    executionId: uuid('execution_id').references(() => executions.id, { onDelete: 'set null' }),
    channelId: uuid('channel_id').references(() => channels.id, { onDelete: 'set null' }),
    videoTitle: text('video_title').notNull(),
    /** The title lower-cased without accents: what the history's search matches. */
    searchTitle: text('search_title').notNull().default(''),
    videoId: text('video_id'),
    publishedAt: ts('published_at'),
    views: bigint('views', { mode: 'number' }).notNull().default(0),
    likes: bigint('likes', { mode: 'number' }).notNull().default(0),
    /** published, processing or failed. */
    status: text('status').notNull().default('processing'),
    /** public, unlisted or private. */
    visibility: text('visibility').notNull().default('private'),
    /**
     * Why the upload failed, as a key of the server's message catalogue and its parameters,
     * translated when read (the upstream text goes to the server log, never here).
     */
    failureKey: text('failure_key'),
    failureParams: jsonb('failure_params').$type<Record<string, string | number>>(),
    /** The resumable upload session, so an interrupted upload resumes instead of starting over. */
    uploadSession: jsonb('upload_session').$type<Record<string, unknown>>(),
    belowMinViews: boolean('below_min_views').notNull().default(false),
    statsUpdatedAt: ts('stats_updated_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** When the row sits in the history: its publication time, else its creation. Ordering and periods use it. */
    listedAt: timestamp('listed_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .generatedAlwaysAs(sql`coalesce(published_at, created_at)`),
  },
  (t) => [
    index('publications_user_listed_idx').on(t.userId, t.listedAt),
    index('publications_user_status_listed_idx').on(t.userId, t.status, t.listedAt),
    index('publications_process_idx').on(t.processId),
    index('publications_video_idx').on(t.videoId),
  ],
);

/** What each user wants to be told, and where (docs/engine.md, "Alerts"). */
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  runFailed: boolean('run_failed').notNull().default(true),
  authorization: boolean('authorization').notNull().default(true),
  quota: boolean('quota').notNull().default(true),
  review: boolean('review').notNull().default(true),
  /** A Slack/Discord-compatible webhook; signed with the secret below (HMAC-SHA256). */
  webhookUrl: text('webhook_url'),
  webhookSecretEnc: text('webhook_secret_enc'),
  updatedAt: updatedAt(),
});

/** One row per alert sent: at most one per cause, process and day. */
export const alertsSent = pgTable(
  'alerts_sent',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processId: uuid('process_id')
      .notNull()
      .references(() => processes.id, { onDelete: 'cascade' }),
    cause: text('cause').notNull(),
    /** The UTC day, YYYY-MM-DD. */
    day: text('day').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.processId, t.cause, t.day] }), index('alerts_sent_created_idx').on(t.createdAt)],
);

/** Every call the engine makes to an external API, for the usage panel and quotas. */
export const apiCalls = pgTable(
  'api_calls',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    executionId: uuid('execution_id').references(() => executions.id, { onDelete: 'set null' }),
    /** openai, elevenlabs, youtube, ... */
    service: text('service').notNull(),
    operation: text('operation').notNull(),
    /** YouTube calls: the configuration whose OAuth client (Google Cloud project) the quota is counted on. */
    youtubeApiId: uuid('youtube_api_id').references(() => youtubeApis.id, { onDelete: 'set null' }),
    /** YouTube quota units the call cost (videos.insert 1600, list calls 1...); 1 for other services. */
    units: integer('units').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    index('api_calls_user_created_idx').on(t.userId, t.createdAt),
    index('api_calls_youtube_api_created_idx').on(t.youtubeApiId, t.createdAt),
  ],
);
