/** Shapes of the API's answers (snake_case, as the server sends them). */
import type {
  BillingPeriod,
  HISTORY_PERIODS_DAYS,
  PromptCategory,
  PromptTextField,
  VoiceGender,
  VoiceProvider,
} from '../lib/constants';
import type { LanguageCode } from '../lib/languages';

export interface User {
  id: string;
  name: string;
  email: string;
  plan: string;
  plan_name: string;
  billing_period: BillingPeriod;
  time_zone: string;
  /** Set by the server (ADMIN_EMAIL); the client only uses it to hide admin-only things. */
  is_admin: boolean;
  /** The owner followed the confirmation link sent to this address. */
  email_verified: boolean;
  /** An ADMIN_EMAIL address not confirmed yet: admin rights come with the confirmation. */
  is_admin_pending: boolean;
  created_at: string;
}

export interface AuthResult {
  access_token: string;
  token_type: 'bearer';
  user: User;
}

export interface Detail {
  detail: string;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface RegisterRequest {
  name: string;
  email: string;
  password: string;
  plan: BillingPeriod;
  /** IANA zone, e.g. "America/Sao_Paulo". */
  time_zone: string;
}

export interface ProfileUpdate {
  name: string;
  email: string;
  time_zone?: string;
  /** Required when the email changes (422 without it, 401-like 422 when wrong). */
  current_password?: string;
}

export interface PasswordChange {
  current_password: string;
  new_password: string;
}

/** Settings › danger zone: the password confirms the deletion. */
export interface AccountDeletion {
  password: string;
}

/** GET /subscription/: the plan, its billing, the next billing date and this month's real usage. */
export interface Subscription {
  plan: string;
  plan_name: string;
  billing_period: BillingPeriod;
  channels_limit: number;
  period_start: string;
  next_billing_date: string;
  usage: {
    channels: number;
    videos_this_month: number;
    api_calls_this_month: number;
    month_start: string;
  };
}

export interface PlanChange {
  plan: string;
  billing_period: BillingPeriod;
}

export interface PasswordResetConfirm {
  token: string;
  new_password: string;
}

/** Paging of every list call (spec §7: skip 0, limit 100 unless told otherwise). */
export interface PageArgs {
  skip?: number;
  limit?: number;
}

// ---- channels (docs/api-connections.md) ---------------------------------------------------

export interface Channel {
  id: string;
  /** The platform studio's channel id, e.g. "UCxxxxxxxxxxxxxxxxxxxxxx". Cannot change. */
  channel_id: string;
  name: string | null;
  min_views: number;
  is_active: boolean;
  /** Platform statistics; null until the server has fetched them. */
  subscriber_count: number | null;
  video_count: number | null;
  view_count: number | null;
  stats_updated_at: string | null;
  /** Processes publishing to this channel. */
  process_count: number;
  /** The active ones among them: they stop when the channel is switched off. */
  active_process_count: number;
  created_at: string;
  updated_at: string;
}

export interface ChannelList {
  channels: Channel[];
  total: number;
}

export interface ChannelCreate {
  channel_id: string;
  name?: string | null;
  min_views?: number;
  is_active?: boolean;
}

/** The channel id cannot change (a different one is 422), so it is not part of an update. */
export interface ChannelUpdate {
  name?: string | null;
  min_views?: number;
  is_active?: boolean;
}

// ---- YouTube API configurations -----------------------------------------------------------

export interface YoutubeApi {
  id: string;
  name: string;
  channel_id: string;
  client_id: string;
  has_client_secret: boolean;
  /** "••••••••abcd": secrets are never answered in clear. */
  client_secret_masked: string;
  has_api_key: boolean;
  api_key_masked: string | null;
  has_refresh_token: boolean;
  /** A stored secret can no longer be decrypted (APP_SECRET changed): enter the secrets again. */
  secret_unreadable: boolean;
  /** The one configuration processes use by default; exactly one is active. */
  is_active: boolean;
  is_enabled: boolean;
  is_connected: boolean;
  /** Active processes using it: they stop when it is switched off. */
  active_process_count: number;
  last_tested: string | null;
  created_at: string;
  updated_at: string;
}

export interface YoutubeApiList {
  youtube_apis: YoutubeApi[];
  total: number;
  /** The URL to register as authorized redirect URI of the OAuth client. */
  oauth_redirect_uri: string;
}

export interface YoutubeApiListArgs extends PageArgs {
  enabled_only?: boolean;
}

export interface YoutubeApiCreate {
  name: string;
  channel_id: string;
  client_id: string;
  client_secret: string;
  api_key?: string;
  refresh_token?: string;
}

/** Any of the create fields; blank secrets keep the stored ones. */
export interface YoutubeApiUpdate extends Partial<YoutubeApiCreate> {
  /** Removes the stored API key. */
  clear_api_key?: boolean;
}

export interface YoutubeChannelInfo {
  id: string;
  title: string;
  subscriber_count: number | null;
  video_count: number | null;
  view_count: number | null;
}

export interface YoutubeApiTestResult {
  is_connected: boolean;
  last_tested: string;
  needs_authorization: boolean;
  detail: string | null;
  channel: YoutubeChannelInfo | null;
}

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

// ---- chat-model configuration -------------------------------------------------------------

export interface ChatModelConfig {
  has_api_key: boolean;
  api_key_masked: string;
  /** The stored key can no longer be decrypted (APP_SECRET changed): enter it again. */
  secret_unreadable: boolean;
  base_url: string | null;
  model: string;
  is_connected: boolean;
  last_tested: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChatModelConfigCreate {
  api_key: string;
  base_url?: string;
  model?: string;
}

/** A blank (absent) key keeps the stored one; `base_url: null` goes back to the default. */
export interface ChatModelConfigUpdate {
  api_key?: string;
  base_url?: string | null;
  model?: string;
}

/** Tests that key, else the stored one. */
export interface ChatModelTestRequest {
  api_key?: string;
  base_url?: string;
}

export interface ChatModelTestResult {
  is_connected: boolean;
  last_tested: string;
  detail: string | null;
}

// ---- proxies (admins only) ----------------------------------------------------------------

/** A proxy server (named so to keep clear of the global `Proxy`). */
export interface ProxyServer {
  id: string;
  name: string;
  /** With the password masked, e.g. "http://user:••••••••abcd@host:8080". */
  url: string;
  has_password: boolean;
  is_active: boolean;
  is_connected: boolean;
  last_tested: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProxyList {
  proxies: ProxyServer[];
  total: number;
}

export interface ProxyListArgs extends PageArgs {
  active_only?: boolean;
}

export interface ProxyInput {
  name: string;
  url: string;
}

export interface ProxyTestResult {
  is_connected: boolean;
  last_tested: string;
  detail: string | null;
  latency_ms: number | null;
}

// ---- the catalogue: prompts and voices (docs/api-catalogue.md) ----------------------------

/** What deleting a prompt or a voice answers: processes that used it were switched off. */
export interface CatalogueDeleteResult {
  /** A localized sentence, e.g. "Prompt excluído com sucesso! 2 processo(s) …". */
  detail: string;
  affected_processes: number;
}

export type PromptTexts = Record<PromptTextField, string>;

export interface PromptSummary {
  id: string;
  user_id: string | null;
  name: string;
  description: string;
  /** One of PROMPT_CATEGORIES; kept a string in case the server knows more. */
  category: PromptCategory | (string & {});
  is_active: boolean;
  language_codes: string[];
  /** The languages with at least one text that is not blank: those a process can use. */
  text_language_codes: string[];
  /** Processes (of any user) using the prompt. */
  process_count: number;
  /** The active ones among them: they stop when the prompt is switched off. */
  active_process_count: number;
  created_at: string;
  updated_at: string;
}

/** The full data; `languages` is empty for a prompt saved with basic data only. */
export interface Prompt extends PromptSummary {
  content: string;
  languages: Partial<Record<LanguageCode | (string & {}), PromptTexts>>;
}

export interface PromptList {
  /** Newest update first. */
  prompts: PromptSummary[];
  total: number;
}

export interface PromptListArgs extends PageArgs {
  active_only?: boolean;
}

/** POST /prompts/ (basic data, no languages). */
export interface PromptBasicInput {
  name: string;
  description: string;
  content: string;
  category?: PromptCategory;
}

/** POST /prompts/full and PUT /prompts/{id}/full: the languages are replaced as a whole. */
export interface PromptFullInput extends PromptBasicInput {
  languages: Partial<Record<LanguageCode, Partial<PromptTexts>>>;
}

export interface Voice {
  id: string;
  name: string;
  /** Free text, e.g. "Narrador", "Feminina". */
  type: string;
  /** An absolute http(s) URL, or a path on this server (built-ins: /api/v1/voice-samples/{id}.wav). */
  sample_url: string;
  description: string;
  language: LanguageCode | null;
  gender: VoiceGender | null;
  provider: VoiceProvider | (string & {});
  provider_voice_id: string;
  is_active: boolean;
  process_count: number;
  /** Active processes (of any user) using the voice: they stop when it is switched off. */
  active_process_count: number;
  created_at: string;
  updated_at: string;
}

export interface VoiceList {
  voices: Voice[];
  total: number;
}

export interface VoiceListArgs extends PageArgs {
  active_only?: boolean;
}

export interface VoiceInput {
  name: string;
  type: string;
  sample_url: string;
  description?: string | null;
  language?: LanguageCode | null;
  gender?: VoiceGender | null;
  provider?: VoiceProvider | null;
  provider_voice_id?: string | null;
}

// ---- processes, executions and publications (docs/api-processes.md) ----------------------

/** A process's language: the videos it generates are in it. */
export type ProcessLanguage = 'pt' | 'en';

/** `idle` (new), `queued` (its run waits for a worker), `running`, `awaiting_review`, `completed`, `error`; kept open. */
export type ProcessStatus = 'idle' | 'queued' | 'running' | 'awaiting_review' | 'completed' | 'error';

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

/** The seven steps of an execution, in order (the keys of EXECUTION_STEP_KEYS). */
export type ExecutionStepKey =
  | 'starting'
  | 'generating_texts'
  | 'creating_story'
  | 'generating_audios'
  | 'generating_images'
  | 'generating_video'
  | 'publishing_video';

export interface Process {
  id: string;
  name: string;
  /** Our channel record's id (not the platform's); null once that channel was deleted. */
  channel_id: string | null;
  /** The channel's name, or its platform id when unnamed. */
  channel_name: string | null;
  youtube_api_id: string | null;
  youtube_api_name: string | null;
  prompt_id: string | null;
  prompt_name: string | null;
  language: ProcessLanguage | (string & {});
  voice_id: string | null;
  voice_name: string | null;
  is_active: boolean;
  status: ProcessStatus | (string & {});
  /** Index of the running step while running; null otherwise. */
  execution_step: number | null;
  /** Step keys (see ExecutionStepKey) while running; null otherwise. */
  execution_steps: (ExecutionStepKey | (string & {}))[] | null;
  last_execution: string | null;
  next_execution: string;
  /** "HH:MM". */
  publication_time: string;
  publish_mode: PublishMode | (string & {});
  last_error: string | null;
  needs: (ProcessNeed | (string & {}))[];
  /** The newest execution, for the status dialog. */
  latest_execution_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProcessList {
  /** Newest first. */
  processes: Process[];
  total: number;
}

export interface ProcessListArgs extends PageArgs {
  active_only?: boolean;
}

export interface ProcessStats {
  total: number;
  active: number;
  inactive: number;
  /** Processes whose run waits for a worker, and whose run a worker holds. */
  queued: number;
  running: number;
  /** The user's enabled channels. */
  connected_channels: number;
}

export interface ProcessCreate {
  name: string;
  channel_id: string;
  youtube_api_id: string;
  prompt_id: string;
  language: ProcessLanguage;
  voice_id: string;
  /** Default false. */
  is_active?: boolean;
  /** "HH:MM", default "09:00". */
  publication_time?: string;
  /** Default `auto`. */
  publish_mode?: PublishMode;
}

/** Any of the create fields; only the fields sent change. */
export type ProcessUpdate = Partial<ProcessCreate>;

/** What execute and retry answer (202). */
export interface ExecutionStarted {
  execution_id: string;
  process: Process;
}

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

export interface Execution {
  id: string;
  process_id: string;
  status: ExecutionStatus | (string & {});
  trigger: ExecutionTrigger | (string & {});
  /** Index of the running (or failed) step, 0 to 6. */
  current_step: number;
  steps: ExecutionStep[];
  story_title: string | null;
  error: string | null;
  /** When the run last entered the queue. */
  queued_at: string;
  /** When a worker first took it; null while it waits in the queue. */
  started_at: string | null;
  finished_at: string | null;
  /** Only while queued: 1 for the next run any worker takes. */
  queue_position: number | null;
  /** Only while queued or running. */
  estimated_seconds_left: number | null;
  /** Signed URLs (valid one hour) once rendered. */
  video_url: string | null;
  thumbnail_url: string | null;
  video_duration_seconds: number | null;
  /** What the reader should know that did not stop the run (e.g. a script no font here can draw), translated. */
  warnings: string[];
  created_at: string;
}

export interface ExecutionList {
  /** Newest first. */
  executions: Execution[];
  total: number;
}

export interface ProcessExecutionsArgs extends PageArgs {
  processId: string;
}

export type PublicationStatus = 'published' | 'processing' | 'awaiting_review' | 'failed';
export type PublicationVisibility = 'public' | 'unlisted' | 'private';
/** The history's period filter: days back from now (spec §9), on published_at, else created_at. */
export type PublicationDateRange = (typeof HISTORY_PERIODS_DAYS)[number];

/** A video the engine uploaded or a user recorded (docs/api-publications.md). */
export interface Publication {
  id: string;
  process_id: string | null;
  /** The run that made it; approve and reject (awaiting_review) go there. */
  execution_id: string | null;
  channel_id: string | null;
  video_title: string;
  video_id: string | null;
  /** When the video is (or was) published; in the future while `processing`. */
  published_at: string | null;
  views: number;
  likes: number;
  /** `processing` (uploaded, waiting for its time), `published`, `failed` (see failure_reason). */
  status: PublicationStatus | (string & {});
  /** `private` until published_at passes, then `public` (or `unlisted`). */
  visibility: PublicationVisibility | (string & {});
  created_at: string;
  process_name: string | null;
  channel_name: string | null;
  /** Why a `failed` publication failed. */
  failure_reason: string | null;
  /** Published more than 7 days ago with fewer views than its channel's min_views. */
  below_min_views: boolean;
  /** https://i.ytimg.com/vi/{video_id}/mqdefault.jpg; null without a video id. */
  thumbnail_url: string | null;
  /** https://www.youtube.com/watch?v={video_id}; null without a video id. */
  watch_url: string | null;
  updated_at: string;
}

export interface PublicationList {
  /** Newest first. */
  publications: Publication[];
  total: number;
}

/** The history's filters (the list's and the CSV report's). */
export interface PublicationFilters {
  status?: PublicationStatus;
  /** A case- and accent-insensitive substring of the title, at most 200 characters. */
  search?: string;
  date_range?: PublicationDateRange;
}

export interface PublicationListArgs extends PageArgs, PublicationFilters {}

/** The user's counters (all publications, whatever the history's filters). */
export interface PublicationStats {
  total: number;
  published: number;
  processing: number;
  awaiting_review: number;
  failed: number;
  total_views: number;
  total_likes: number;
  /** When the statistics job last ran for this user; null before the first run. */
  stats_updated_at: string | null;
}

/** POST /publications/: a record of a video made elsewhere. */
export interface PublicationCreate {
  video_title: string;
  video_id?: string | null;
  process_id?: string | null;
  channel_id?: string | null;
  status?: Exclude<PublicationStatus, 'awaiting_review'>;
  visibility?: PublicationVisibility;
  published_at?: string | null;
}

/** PUT /publications/{id}: only the fields sent change. */
export type PublicationUpdate = Partial<Pick<PublicationCreate, 'video_title' | 'status' | 'visibility' | 'published_at'>>;

/** What POST /publications/stats/refresh answers (202). */
export interface StatsRefreshQueued {
  queued: boolean;
}

// ---- notifications (alerts) ---------------------------------------------------------------

/** What the owner is told (by email, and the webhook when set). */
export interface NotificationSettings {
  run_failed: boolean;
  authorization: boolean;
  quota: boolean;
  review: boolean;
  webhook_url: string | null;
  has_webhook_secret: boolean;
  /** "••••••••abcd": the secret is never answered in clear. */
  webhook_secret_masked: string;
}

/** Only the fields sent change; `null` removes the webhook or its secret. */
export interface NotificationSettingsUpdate {
  run_failed?: boolean;
  authorization?: boolean;
  quota?: boolean;
  review?: boolean;
  webhook_url?: string | null;
  webhook_secret?: string | null;
}

export interface WebhookTestResult {
  delivered: boolean;
  /** Translated; never the receiver's answer. */
  detail: string;
}
