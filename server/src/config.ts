import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { redactText } from './lib/redact';
import path from 'node:path';

/** Every setting the server reads from the environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminEmails: string[];
  appSecret: string;
  publicUrl: string;
  logLevel: LogLevel;
  smtpUrl: string | undefined;
  /** Where the built web app lives; not served when the folder is missing. */
  webDir: string;
  /** Run the job queue's workers inside this process. */
  runJobs: boolean;
  /** Google's OAuth consent screen, token endpoint and the YouTube Data API root. */
  googleAuthUrl: string;
  googleTokenUrl: string;
  youtubeApiUrl: string;
  /** TikTok's consent page, its API root and the origins its upload URLs may have (issue 31). */
  tiktokAuthUrl: string;
  tiktokApiUrl: string;
  tiktokUploadOrigins: string[];
  /** The operator's TikTok app (client key and secret): accounts without their own use it. */
  tiktokClientKey: string | undefined;
  tiktokClientSecret: string | undefined;
  /** The operator's TikTok app passed TikTok's audit: without it, posts are SELF_ONLY (private). */
  tiktokAppAudited: boolean;
  /** Meta's login dialog, Graph API root and resumable upload host. */
  metaAuthUrl: string;
  metaGraphUrl: string;
  metaUploadUrl: string;
  /** The operator's Meta app (id and secret) and an optional Facebook Login for Business configuration id. */
  metaAppId: string | undefined;
  metaAppSecret: string | undefined;
  metaConfigId: string | undefined;
  /** YouTube Data API units per day of each Google Cloud project (Google's default is 10,000). */
  youtubeDailyQuota: number;
  /** Default root of the OpenAI-compatible chat-model API. */
  openaiBaseUrl: string;
  /** What a proxy test reaches through the proxy. */
  proxyCheckUrl: string;
  /** Where executions keep their files (DATA_DIR/media unless MEDIA_DIR is set). */
  mediaDir: string;
  /** An ffmpeg binary to use instead of a system or the bundled one (FFMPEG_PATH). */
  ffmpegPath: string | undefined;
  /** An ffprobe binary likewise (FFPROBE_PATH); beside FFMPEG_PATH's by default. */
  ffprobePath: string | undefined;
  /** Engine jobs run at once by each process that runs jobs. */
  workerConcurrency: number;
  /** The processes-list answers kept in memory by each API process, in bytes (LIST_CACHE_MB). */
  listCacheBytes: number;
  /** Where scene images come from: the OpenAI images API, or cards drawn locally. */
  imageProvider: 'openai' | 'local';
  /** Chapters per story: chapter 1, the next chapters and the final one. */
  storyChapters: number;
  /**
   * The share of the full frame a run renders (RENDER_SCALE, 0.1 to 1; 1, the default, is 1920x1080,
   * 1080x1920 for a Short): every size of the picture (video, scene cards, thumbnail, subtitles)
   * shrinks by it and the filter graph stays the same. Tests render at 0.25 (docs/decisions.md).
   */
  renderScale: number;
  openaiSpeechModel: string;
  openaiImageModel: string;
  /** The operator's ElevenLabs key, used by voices whose provider is elevenlabs. */
  elevenlabsApiKey: string | undefined;
  elevenlabsBaseUrl: string;
  /** Time-out of one outbound call of the engine (chat model, speech, images). */
  outboundTimeoutMs: number;
  /** Time a client has to send a whole request, headers and body (REQUEST_TIMEOUT_MS): 408 past it. */
  requestTimeoutMs: number;
  /** Let users' URLs (chat model, speech, images, webhooks, proxies) reach private addresses: for a local model server. */
  allowPrivateUrls: boolean;
  /** Which reverse proxies to believe about the client's address (Fastify's trustProxy): off, a hop count or addresses. */
  trustProxy: boolean | number | string[];
  /** Sign-ups, password resets and verification emails per client address and per account an hour. */
  authRateLimitPerHour: number;
  /** Connection tests (chat model, YouTube, proxies) per client address and per account an hour. */
  testRateLimitPerHour: number;
  /** A user's runs queued or running at once, past which "run now" and "retry" answer 429 (scheduled runs count, never refused). */
  maxActiveRunsPerUser: number;
  /** "Run now" and "retry" per user an hour (429 with Retry-After past it). */
  maxManualRunsPerHour: number;
  /** Requests per client address a minute to the whole API (0: no limit). */
  apiRateLimitPerMinute: number;
  /** Argon2id's memory a hash, as a power of two in KiB (17: 128 MiB, the least allowed; 3 passes). */
  passwordHashCost: number;
  /** Password hashes that may wait for one of the two turns before more answer 503 (PASSWORD_HASH_QUEUE). */
  passwordHashQueue: number;
  /** A session unused for this many hours ends (401), within its 7 days (SESSION_IDLE_HOURS). */
  sessionIdleHours: number;
  /** A run whose worker has not written its heartbeat (every 2 s) for this long is taken over by another. */
  leaseStaleSeconds: number;
  /** Days the rendered video of a run stays on disk once it is on YouTube (the thumbnail stays). */
  mediaRetentionDays: number;
  /** `npm run worker`'s health (and metrics) port; 0: none. */
  workerHealthPort: number;
  /**
   * `npm run worker`'s scheduling priority (nice, 0 to 19; 0 leaves it as started): a worker's runs
   * and their ffmpeg yield the cores to API processes on the same machine, so pages stay quick.
   */
  workerNice: number;
  /** Serve Prometheus metrics at /metrics. */
  metrics: boolean;
  /** When set, /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 3000;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535 (got "${raw}")`);
  }
  return Number(raw);
}

function parseUrl(name: string, raw: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (got "${redactText(raw)}")`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')} (got "${url.protocol}")`);
  }
  return raw;
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

function integerIn(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function urlOr(env: Env, name: string, fallback: string): string {
  const raw = nonEmpty(env, name);
  return raw === undefined ? fallback : parseUrl(name, raw, ['http:', 'https:']);
}

/** A comma-separated list of http(s) origins (scheme, host and port only), each validated. */
function originList(env: Env, name: string, fallback: string[]): string[] {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const list = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => new URL(parseUrl(name, part, ['http:', 'https:'])).origin);
  if (list.length === 0) throw new ConfigError(`${name} must list at least one origin`);
  return list;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * APP_SECRET signs tokens and derives the key that encrypts secrets at rest. When unset, one is
 * generated on first start and kept in DATA_DIR/app-secret, so restarts keep sessions valid.
 */
function loadAppSecret(raw: string | undefined, dataDir: string): string {
  if (raw !== undefined) {
    if (raw.length < 32) throw new ConfigError('APP_SECRET must be at least 32 characters long');
    return raw;
  }
  const file = path.join(dataDir, 'app-secret');
  if (fs.existsSync(file)) {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

/**
 * TRUST_PROXY: unset or false trusts nobody (X-Forwarded-For is ignored, so nobody can spoof it);
 * a number trusts that many proxy hops; anything else is a comma-separated list of the proxies'
 * addresses or CIDR ranges. `true` (trust any sender) is refused: it would let clients pick their address.
 */
function parseTrustProxy(raw: string | undefined): boolean | number | string[] {
  if (raw === undefined || /^(0|false|no|off)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) {
    throw new ConfigError(
      'TRUST_PROXY must be a number of hops or the addresses of your proxies, not true (that would trust any client)',
    );
  }
  if (/^\d+$/.test(raw)) return integerIn('TRUST_PROXY', raw, 1, 1, 10);
  const list = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const entry of list) {
    const [address, bits] = entry.split('/');
    if (!address || net.isIP(address) === 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) {
      throw new ConfigError(`TRUST_PROXY must be a number of hops or a list of addresses/CIDR ranges (got "${entry}")`);
    }
  }
  return list;
}

/** RENDER_SCALE: a decimal fraction of the full frame, 0.1 to 1 (1: production's size). */
function renderScale(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const value = Number(raw);
  if (!/^(0|1)?(\.\d+)?$/.test(raw) || !Number.isFinite(value) || value < 0.1 || value > 1) {
    throw new ConfigError(`RENDER_SCALE must be a number between 0.1 and 1 (got "${raw}")`);
  }
  return value;
}

function imageProvider(raw: string | undefined): 'openai' | 'local' {
  const value = (raw ?? 'openai').toLowerCase();
  if (value !== 'openai' && value !== 'local') throw new ConfigError(`IMAGE_PROVIDER must be openai or local (got "${raw}")`);
  return value;
}

export function loadConfig(env: Env = process.env): Config {
  const port = parsePort(nonEmpty(env, 'PORT'));
  const host = nonEmpty(env, 'HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(nonEmpty(env, 'DATA_DIR') ?? 'data');

  const databaseRaw = nonEmpty(env, 'DATABASE_URL');
  const databaseUrl = databaseRaw === undefined ? undefined : parseUrl('DATABASE_URL', databaseRaw, ['postgres:', 'postgresql:']);

  const adminEmails = (nonEmpty(env, 'ADMIN_EMAIL') ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  for (const email of adminEmails) {
    if (!EMAIL.test(email))
      throw new ConfigError(`ADMIN_EMAIL must be an email address or a comma-separated list (got "${email}")`);
  }

  const logLevel = (nonEmpty(env, 'LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const publicRaw = nonEmpty(env, 'PUBLIC_URL');
  const publicUrl = (
    publicRaw === undefined
      ? `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host === '127.0.0.1' ? 'localhost' : host}:${port}`
      : parseUrl('PUBLIC_URL', publicRaw, ['http:', 'https:'])
  ).replace(/\/+$/, '');

  const smtpRaw = nonEmpty(env, 'SMTP_URL');
  const smtpUrl = smtpRaw === undefined ? undefined : parseUrl('SMTP_URL', smtpRaw, ['smtp:', 'smtps:']);

  return {
    port,
    host,
    dataDir,
    databaseUrl,
    adminEmails,
    appSecret: loadAppSecret(nonEmpty(env, 'APP_SECRET'), dataDir),
    publicUrl,
    logLevel,
    smtpUrl,
    webDir: path.resolve(nonEmpty(env, 'WEB_DIR') ?? path.join(__dirname, '..', '..', 'dist', 'web')),
    runJobs: parseBoolean('RUN_JOBS', nonEmpty(env, 'RUN_JOBS'), true),
    googleAuthUrl: urlOr(env, 'GOOGLE_AUTH_URL', 'https://accounts.google.com/o/oauth2/v2/auth'),
    googleTokenUrl: urlOr(env, 'GOOGLE_TOKEN_URL', 'https://oauth2.googleapis.com/token'),
    youtubeApiUrl: urlOr(env, 'YOUTUBE_API_URL', 'https://youtube.googleapis.com/').replace(/\/?$/, '/'),
    tiktokAuthUrl: urlOr(env, 'TIKTOK_AUTH_URL', 'https://www.tiktok.com/v2/auth/authorize/'),
    tiktokApiUrl: urlOr(env, 'TIKTOK_API_URL', 'https://open.tiktokapis.com/').replace(/\/?$/, '/'),
    tiktokUploadOrigins: originList(env, 'TIKTOK_UPLOAD_ORIGINS', ['https://open-upload.tiktokapis.com']),
    tiktokClientKey: nonEmpty(env, 'TIKTOK_CLIENT_KEY'),
    tiktokClientSecret: nonEmpty(env, 'TIKTOK_CLIENT_SECRET'),
    tiktokAppAudited: parseBoolean('TIKTOK_APP_AUDITED', nonEmpty(env, 'TIKTOK_APP_AUDITED'), false),
    metaAuthUrl: urlOr(env, 'META_AUTH_URL', 'https://www.facebook.com/v21.0/dialog/oauth'),
    metaGraphUrl: urlOr(env, 'META_GRAPH_URL', 'https://graph.facebook.com/').replace(/\/?$/, '/'),
    metaUploadUrl: urlOr(env, 'META_UPLOAD_URL', 'https://rupload.facebook.com/').replace(/\/?$/, '/'),
    metaAppId: nonEmpty(env, 'META_APP_ID'),
    metaAppSecret: nonEmpty(env, 'META_APP_SECRET'),
    metaConfigId: nonEmpty(env, 'META_CONFIG_ID'),
    youtubeDailyQuota: integerIn('YOUTUBE_DAILY_QUOTA', nonEmpty(env, 'YOUTUBE_DAILY_QUOTA'), 10_000, 2_500, 100_000_000),
    openaiBaseUrl: urlOr(env, 'OPENAI_BASE_URL', 'https://api.openai.com/v1').replace(/\/+$/, ''),
    proxyCheckUrl: urlOr(env, 'PROXY_CHECK_URL', 'https://www.google.com/generate_204'),
    mediaDir: path.resolve(nonEmpty(env, 'MEDIA_DIR') ?? path.join(dataDir, 'media')),
    ffmpegPath: nonEmpty(env, 'FFMPEG_PATH'),
    ffprobePath: nonEmpty(env, 'FFPROBE_PATH'),
    workerConcurrency: integerIn('WORKER_CONCURRENCY', nonEmpty(env, 'WORKER_CONCURRENCY'), 1, 1, 16),
    listCacheBytes: integerIn('LIST_CACHE_MB', nonEmpty(env, 'LIST_CACHE_MB'), 32, 0, 4096) * 1024 * 1024,
    imageProvider: imageProvider(nonEmpty(env, 'IMAGE_PROVIDER')),
    storyChapters: integerIn('STORY_CHAPTERS', nonEmpty(env, 'STORY_CHAPTERS'), 5, 2, 20),
    renderScale: renderScale(nonEmpty(env, 'RENDER_SCALE')),
    openaiSpeechModel: nonEmpty(env, 'OPENAI_SPEECH_MODEL') ?? 'gpt-4o-mini-tts',
    openaiImageModel: nonEmpty(env, 'OPENAI_IMAGE_MODEL') ?? 'gpt-image-1',
    elevenlabsApiKey: nonEmpty(env, 'ELEVENLABS_API_KEY'),
    elevenlabsBaseUrl: urlOr(env, 'ELEVENLABS_BASE_URL', 'https://api.elevenlabs.io').replace(/\/+$/, ''),
    outboundTimeoutMs: integerIn('OUTBOUND_TIMEOUT_MS', nonEmpty(env, 'OUTBOUND_TIMEOUT_MS'), 120_000, 1000, 3_600_000),
    requestTimeoutMs: integerIn('REQUEST_TIMEOUT_MS', nonEmpty(env, 'REQUEST_TIMEOUT_MS'), 120_000, 1000, 3_600_000),
    allowPrivateUrls: parseBoolean('ALLOW_PRIVATE_URLS', nonEmpty(env, 'ALLOW_PRIVATE_URLS'), false),
    trustProxy: parseTrustProxy(nonEmpty(env, 'TRUST_PROXY')),
    authRateLimitPerHour: integerIn('AUTH_RATE_LIMIT_PER_HOUR', nonEmpty(env, 'AUTH_RATE_LIMIT_PER_HOUR'), 20, 1, 100_000),
    testRateLimitPerHour: integerIn('TEST_RATE_LIMIT_PER_HOUR', nonEmpty(env, 'TEST_RATE_LIMIT_PER_HOUR'), 60, 1, 100_000),
    maxActiveRunsPerUser: integerIn('MAX_ACTIVE_RUNS_PER_USER', nonEmpty(env, 'MAX_ACTIVE_RUNS_PER_USER'), 10, 1, 100_000),
    maxManualRunsPerHour: integerIn('MAX_MANUAL_RUNS_PER_HOUR', nonEmpty(env, 'MAX_MANUAL_RUNS_PER_HOUR'), 30, 1, 100_000),
    apiRateLimitPerMinute: integerIn('API_RATE_LIMIT_PER_MINUTE', nonEmpty(env, 'API_RATE_LIMIT_PER_MINUTE'), 1200, 0, 1_000_000),
    passwordHashCost: integerIn('PASSWORD_HASH_COST', nonEmpty(env, 'PASSWORD_HASH_COST'), 17, 17, 20),
    passwordHashQueue: integerIn('PASSWORD_HASH_QUEUE', nonEmpty(env, 'PASSWORD_HASH_QUEUE'), 32, 1, 1000),
    sessionIdleHours: integerIn('SESSION_IDLE_HOURS', nonEmpty(env, 'SESSION_IDLE_HOURS'), 72, 1, 168),
    leaseStaleSeconds: integerIn('LEASE_STALE_SECONDS', nonEmpty(env, 'LEASE_STALE_SECONDS'), 90, 10, 3600),
    mediaRetentionDays: integerIn('MEDIA_RETENTION_DAYS', nonEmpty(env, 'MEDIA_RETENTION_DAYS'), 14, 1, 3650),
    workerHealthPort: integerIn('WORKER_HEALTH_PORT', nonEmpty(env, 'WORKER_HEALTH_PORT'), 0, 0, 65535),
    workerNice: integerIn('WORKER_NICE', nonEmpty(env, 'WORKER_NICE'), 10, 0, 19),
    metrics: parseBoolean('METRICS', nonEmpty(env, 'METRICS'), false),
    metricsToken: nonEmpty(env, 'METRICS_TOKEN'),
  };
}
