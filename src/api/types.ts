import type { BILLING_PERIODS, HISTORY_PERIODS_DAYS, PLAN_IDS, PROMPT_CATEGORIES, PromptTextField } from '../lib/constants';
import type { LANGUAGE_CODES } from '../lib/languages';
import type { paths } from './openapi.gen';

/**
 * What the server answers and takes, read from its OpenAPI document (openapi.gen.ts, generated from
 * the route schemas by `npm run api:types`; `npm test` fails when it is out of date). The shapes are
 * written once, in the route schemas; this file only names them for the app.
 */
type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;
type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R }
  ? R extends { 200: infer A }
    ? Json<A>
    : R extends { 201: infer A }
      ? Json<A>
      : R extends { 202: infer A }
        ? Json<A>
        : never
  : never;
type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: infer B;
}
  ? Json<NonNullable<B>>
  : never;

export type User = Answer<'/api/v1/auth/me', 'get'>;

export type AuthResult = Answer<'/api/v1/auth/login', 'post'>;

export interface Detail {
  detail: string;
}

export type LoginRequest = RequestBody<'/api/v1/auth/login', 'post'>;

export type RegisterRequest = RequestBody<'/api/v1/auth/register', 'post'>;

export type ProfileUpdate = RequestBody<'/api/v1/auth/profile', 'put'>;

export type PasswordChange = RequestBody<'/api/v1/auth/password', 'put'>;

/** Settings › danger zone: the password confirms the deletion. */
export type AccountDeletion = RequestBody<'/api/v1/auth/account', 'delete'>;

/** GET /subscription/: the plan, its billing, the next billing date and this month's real usage. */
export type Subscription = Answer<'/api/v1/subscription', 'get'>;

export type PlanChange = RequestBody<'/api/v1/subscription', 'put'>;

export type PasswordResetConfirm = RequestBody<'/api/v1/auth/reset-password/confirm', 'post'>;

/** A reset done; `urls_cleared`: the account's webhook and model, speech and image servers were cleared. */
export type PasswordResetDone = Answer<'/api/v1/auth/reset-password/confirm', 'post'>;

/** The confirmation link's token; `password` too when the address is an administrator's. */
export type EmailVerification = RequestBody<'/api/v1/auth/verify-email', 'post'>;

/** Settings › Security: one signed-in device (`current`: this one). */
export type Session = Answer<'/api/v1/auth/sessions', 'get'>['sessions'][number];

export type SessionList = Answer<'/api/v1/auth/sessions', 'get'>;

/** "Sign out everywhere else": how many sessions ended, and the sentence that says so. */
export type OtherSessionsRevoked = Answer<'/api/v1/auth/sessions/revoke-others', 'post'>;

/** Paging of every list call (spec §7: skip 0, limit 100 unless told otherwise). */
export interface PageArgs {
  skip?: number;
  limit?: number;
}

// ---- channels (docs/api-connections.md) ---------------------------------------------------

export type Channel = Answer<'/api/v1/channels/{id}', 'get'>;

export type ChannelList = Answer<'/api/v1/channels', 'get'>;

export type ChannelCreate = RequestBody<'/api/v1/channels', 'post'>;

/** The channel id cannot change (a different one is 422), so it is not part of an update. */
export type ChannelUpdate = RequestBody<'/api/v1/channels/{id}', 'put'>;

// ---- YouTube API configurations -----------------------------------------------------------

export type YoutubeApi = Answer<'/api/v1/youtube-apis/{id}', 'get'>;

export type YoutubeApiList = Answer<'/api/v1/youtube-apis', 'get'>;

export interface YoutubeApiListArgs extends PageArgs {
  enabled_only?: boolean;
}

export type YoutubeApiCreate = RequestBody<'/api/v1/youtube-apis', 'post'>;

/** Any of the create fields; blank secrets keep the stored ones. */
export type YoutubeApiUpdate = RequestBody<'/api/v1/youtube-apis/{id}', 'put'>;

export interface YoutubeChannelInfo {
  id: string;
  title: string;
  subscriber_count: number | null;
  video_count: number | null;
  view_count: number | null;
}

export type YoutubeApiTestResult = Answer<'/api/v1/youtube-apis/{id}/test', 'post'>;

/** The consent URL to open in a new window. */
export interface AuthorizationUrl {
  url: string;
}

/** What the authorization window posts to its opener before closing. */
export interface YoutubeAuthMessage {
  type: 'youtube-auth';
  ok: boolean;
  config_id: string;
  message?: string;
}

// ---- platform accounts (TikTok, Instagram Reels: issue #31) --------------------------------

export type PlatformAccount = Answer<'/api/v1/platform-accounts/{id}', 'get'>;

export type Platform = PlatformAccount['platform'];

/** An Instagram account the owner may publish as (one per Facebook Page the authorization reached). */
export type PlatformAccountChoice = NonNullable<PlatformAccount['choices']>[number];

/** The accounts, each platform's redirect URI to register, and which platforms the operator's app covers. */
export type PlatformAccountList = Answer<'/api/v1/platform-accounts', 'get'>;

/** Client id and secret both, or neither (the operator's app). */
export type PlatformAccountCreate = RequestBody<'/api/v1/platform-accounts', 'post'>;

/** A new name, and/or `external_id`: the Instagram account picked from `choices`. */
export type PlatformAccountUpdate = RequestBody<'/api/v1/platform-accounts/{id}', 'put'>;

export type PlatformAccountTestResult = Answer<'/api/v1/platform-accounts/{id}/test', 'post'>;

/**
 * What the platform authorization window posts to its opener before closing (server
 * routes/platformAuth); `account_id` is null when the window's state was refused (no account known).
 */
export interface PlatformAuthMessage {
  type: 'platform-auth';
  platform: Platform;
  ok: boolean;
  account_id: string | null;
  message?: string;
}

// ---- chat-model configuration -------------------------------------------------------------

export type ChatModelConfig = Answer<'/api/v1/chatgpt/config', 'get'>;

export type ChatModelConfigCreate = RequestBody<'/api/v1/chatgpt/config', 'post'>;

/** A blank (absent) key keeps the stored one; `base_url: null` goes back to the default. */
export type ChatModelConfigUpdate = RequestBody<'/api/v1/chatgpt/config', 'put'>;

/** Tests that key, else the stored one. */
export type ChatModelTestRequest = RequestBody<'/api/v1/chatgpt/test', 'post'>;

export type ChatModelTestResult = Answer<'/api/v1/chatgpt/test', 'post'>;

// ---- proxies (admins only) ----------------------------------------------------------------

/** A proxy server (named so to keep clear of the global `Proxy`). */
export type ProxyServer = Answer<'/api/v1/proxies/{id}', 'get'>;

export type ProxyList = Answer<'/api/v1/proxies', 'get'>;

export interface ProxyListArgs extends PageArgs {
  active_only?: boolean;
}

export type ProxyInput = RequestBody<'/api/v1/proxies', 'post'>;

export type ProxyTestResult = Answer<'/api/v1/proxies/{id}/test', 'post'>;

// ---- the catalogue: prompts and voices (docs/api-catalogue.md) ----------------------------

/** What deleting a prompt or a voice answers: processes that used it were switched off. */
export type CatalogueDeleteResult = Answer<'/api/v1/voices/{id}', 'delete'>;

export type PromptTexts = Record<PromptTextField, string>;

export type PromptSummary = Answer<'/api/v1/prompts', 'get'>['prompts'][number];

/** The full data; `languages` is empty for a prompt saved with basic data only. */
export type Prompt = Answer<'/api/v1/prompts/{id}', 'get'>;

export type PromptList = Answer<'/api/v1/prompts', 'get'>;

export interface PromptListArgs extends PageArgs {
  active_only?: boolean;
}

/** POST /prompts/ (basic data, no languages). */
export type PromptBasicInput = RequestBody<'/api/v1/prompts', 'post'>;

/** POST /prompts/full and PUT /prompts/{id}/full: the languages are replaced as a whole. */
export type PromptFullInput = RequestBody<'/api/v1/prompts/full', 'post'>;

export type Voice = Answer<'/api/v1/voices/{id}', 'get'>;

export type VoiceList = Answer<'/api/v1/voices', 'get'>;

export interface VoiceListArgs extends PageArgs {
  active_only?: boolean;
}

export type VoiceInput = RequestBody<'/api/v1/voices', 'post'>;

// ---- background music (docs/api-catalogue.md) ---------------------------------------------

export type MusicTrack = Answer<'/api/v1/music/{id}', 'get'>;

export type MusicList = Answer<'/api/v1/music', 'get'>;

export interface MusicListArgs extends PageArgs {
  active_only?: boolean;
}

/** POST /music/: the file is the body; its name and mood go in the query. */
export interface MusicUpload {
  file: Blob;
  name: string;
  mood: MusicTrack['mood'];
}

export type MusicUpdate = RequestBody<'/api/v1/music/{id}', 'put'>;

// ---- processes, executions and publications (docs/api-processes.md) ----------------------

/** A process's language: the videos it generates are in it. */
export type ProcessLanguage = 'pt' | 'en';

/**
 * `idle` (new), `queued` (its run waits for a worker), `running`, `awaiting_review`, `completed`,
 * `error`, `cancelled` (its owner cancelled its last run); kept open.
 */
export type ProcessStatus = 'idle' | 'queued' | 'running' | 'awaiting_review' | 'completed' | 'error' | 'cancelled';

/** `auto`: published the next day at the publication time; `review`: the owner approves each video first. */
export type PublishMode = 'auto' | 'review';

/** What a process lacks to run, as keys the client translates. */
export type ProcessNeed =
  | 'channel'
  | 'channel_disabled'
  | 'youtube_api'
  | 'prompt'
  | 'voice'
  | 'youtube_api_disabled'
  | 'channel_mismatch'
  | 'prompt_inactive'
  | 'voice_inactive'
  | 'language';

/** A step of an execution: the enum of the server's OpenAPI document (in order: EXECUTION_STEP_KEYS). */
export type ExecutionStepKey = NonNullable<Process['execution_steps']>[number];

export type Process = Answer<'/api/v1/processes/{id}', 'get'>;

export type ProcessList = Answer<'/api/v1/processes', 'get'>;

export interface ProcessListArgs extends PageArgs {
  active_only?: boolean;
}

export type ProcessStats = Answer<'/api/v1/processes/stats', 'get'>;

export type ProcessCreate = RequestBody<'/api/v1/processes', 'post'>;

/** Any of the create fields; only the fields sent change. */
export type ProcessUpdate = RequestBody<'/api/v1/processes/{id}', 'put'>;

/** What execute and retry answer (202). */
export type ExecutionStarted = Answer<'/api/v1/processes/{id}/execute', 'post'>;

export type ExecutionStatus = 'queued' | 'running' | 'awaiting_review' | 'completed' | 'error' | 'cancelled' | 'rejected';

/** Approve a video waiting for review: at the process's next publication time, or now. */
export type ApprovalTime = 'scheduled' | 'now';
export type ExecutionTrigger = 'manual' | 'schedule' | 'retry';
export type ExecutionStepStatus = 'pending' | 'running' | 'done' | 'error';

export interface ExecutionStep {
  key: ExecutionStepKey | (string & {});
  status: ExecutionStepStatus | (string & {});
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
}

export type Execution = Answer<'/api/v1/executions/{id}', 'get'>;

export type ExecutionList = Answer<'/api/v1/processes/{id}/executions', 'get'>;

export interface ProcessExecutionsArgs extends PageArgs {
  processId: string;
}

export type PublicationStatus = 'published' | 'processing' | 'awaiting_review' | 'failed';
export type PublicationVisibility = 'public' | 'unlisted' | 'private';
/** The history's period filter: days back from now (spec §9), on published_at, else created_at. */
export type PublicationDateRange = (typeof HISTORY_PERIODS_DAYS)[number];

/** A video the engine uploaded or a user recorded (docs/api-publications.md). */
export type Publication = Answer<'/api/v1/publications/{id}', 'get'>;

export type PublicationList = Answer<'/api/v1/publications', 'get'>;

/** The history's filters (the list's and the CSV report's). */
export interface PublicationFilters {
  status?: PublicationStatus;
  /** A case- and accent-insensitive substring of the title, at most 200 characters. */
  search?: string;
  date_range?: PublicationDateRange;
}

export interface PublicationListArgs extends PageArgs, PublicationFilters {}

/** The user's counters (all publications, whatever the history's filters). */
export type PublicationStats = Answer<'/api/v1/publications/stats', 'get'>;

/** POST /publications/: a record of a video made elsewhere. */
export type PublicationCreate = RequestBody<'/api/v1/publications', 'post'>;

/** PUT /publications/{id}: only the fields sent change. */
export type PublicationUpdate = RequestBody<'/api/v1/publications/{id}', 'put'>;

/** What POST /publications/stats/refresh answers (202). */
export type StatsRefreshQueued = Answer<'/api/v1/publications/stats/refresh', 'post'>;

// ---- notifications (alerts) ---------------------------------------------------------------

/** What the owner is told (by email, and the webhook when set). */
export type NotificationSettings = Answer<'/api/v1/notifications', 'get'>;

/** Only the fields sent change; `null` removes the webhook or its secret. */
export type NotificationSettingsUpdate = RequestBody<'/api/v1/notifications', 'put'>;

export type WebhookTestResult = Answer<'/api/v1/notifications/test', 'post'>;

// ---- the enumerations the app lists -------------------------------------------------------

/**
 * The lists of src/lib (apiEnums.gen.ts, generated from the same document) hold exactly the values
 * the API's types allow, both ways: a value added or removed on the server and not regenerated on
 * both sides fails the type check here.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Listed<L extends readonly unknown[]> = L[number];
type AllTrue<T extends true[]> = T;
export type EnumsMatch = AllTrue<
  [
    Same<Listed<typeof LANGUAGE_CODES>, Prompt['language_codes'][number]>,
    Same<Listed<typeof LANGUAGE_CODES> | null, Voice['language']>,
    Same<Listed<typeof PROMPT_CATEGORIES>, PromptSummary['category']>,
    Same<Listed<typeof PLAN_IDS>, User['plan']>,
    Same<Listed<typeof PLAN_IDS>, Subscription['plan']>,
    Same<Listed<typeof BILLING_PERIODS>, User['billing_period']>,
    Same<Listed<typeof BILLING_PERIODS>, NonNullable<RegisterRequest['plan']>>,
  ]
>;
