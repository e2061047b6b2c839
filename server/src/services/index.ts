import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Mailer } from '../providers/mailer';
import { QUEUES, type AlertJob, type AuthEmailJob } from '../jobs';
import { enqueueAlert, enqueueAuthEmail, enqueueExecution, enqueueStatsRefresh, type Queue } from '../queue';
import { createMetrics } from '../lib/metrics';
import { createYoutubePublisher } from '../providers/youtubeUpload';
import { createPublicationService } from './publications';
import { createYoutubeQuota } from './youtubeQuota';
import { localMediaStorage, type MediaStorage } from '../providers/mediaStorage';
import { createExecutionService } from './executions';
import { createExecutionRunService } from './executionRuns';
import { createRunControl } from './runControl';
import { createAlertService } from './alerts';
import { createRetention } from './retention';
import { SecretBox } from '../lib/secrets';
import { createAccountService } from './account';
import { createAuthService } from './auth';
import { createRateLimiter } from './rateLimits';
import { createReauthentication } from './reauthentication';
import { createSubscriptionService } from './subscription';
import { createChannelService } from './channels';
import { createChatModelService } from './chatModel';
import { createProcessService } from './processes';
import { createProxyService } from './proxies';
import { createPromptService } from './prompts';
import { createVoiceService } from './voices';
import { createMusicService } from './music';
import { createYoutubeApiService } from './youtubeApis';
import { createOauthStates } from './oauthStates';
import { createPlatformAccountService } from './platformAccounts';
import { createTiktokPublisher } from '../providers/publishers/tiktok';
import { createInstagramPublisher } from '../providers/publishers/instagram';
import { createYoutubeProvider } from '../providers/youtube';
import { LOCAL_VOICE_VERSION, localVoiceAvailable } from '../providers/localVoice';
import { mediaToolsEnv, resolveMediaTools, type MediaTool } from '../media/ffmpeg';

export interface ServiceDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  queue?: Queue;
  now?: () => Date;
  /** Where execution files live; MEDIA_DIR on the local disk by default. */
  storage?: MediaStorage;
  /** Replaces the queue's enqueue (tests run the engine by hand). */
  enqueue?: (executionId: string) => Promise<string | null>;
  /** The password hash's cost instead of PASSWORD_HASH_COST (tests make it cheap; the setting cannot go below 17). */
  passwordHashCost?: number;
}

/** Composes every service; routes and jobs reach the rules only through these. */
export function createServices(deps: ServiceDeps) {
  // Emails go through the job queue; without one (tests, scripts) they are sent in the background
  // of this process, and drain() waits for them.
  const background = new Set<Promise<void>>();
  const enqueueEmail = async (job: AuthEmailJob): Promise<void> => {
    if (deps.queue) {
      await enqueueAuthEmail(deps.queue, job);
      return;
    }
    const sending: Promise<void> = Promise.resolve()
      .then(() => auth.deliverEmail(job))
      .catch((error: unknown) => console.error('email could not be sent', error))
      .finally(() => background.delete(sending));
    background.add(sending);
  };
  // Checks of a signed-in user's password: counted, one at a time per account (services/reauthentication.ts).
  const reauthentication = createReauthentication({
    db: deps.db,
    now: deps.now ?? (() => new Date()),
    hashQueue: deps.config.passwordHashQueue,
  });
  const auth = createAuthService({
    db: deps.db,
    appSecret: deps.config.appSecret,
    adminEmails: deps.config.adminEmails,
    publicUrl: deps.config.publicUrl,
    mailer: deps.mailer,
    enqueueEmail,
    reauthentication,
    hashQueue: deps.config.passwordHashQueue,
    passwordHashCost: deps.passwordHashCost ?? deps.config.passwordHashCost,
    sessionIdleHours: deps.config.sessionIdleHours,
    now: deps.now,
  });
  const rateLimits = createRateLimiter({ db: deps.db, now: deps.now ?? (() => new Date()) });
  /** Waits for the emails sent in the background (no queue). */
  const drainEmails = async () => {
    while (background.size > 0) await Promise.all([...background]);
  };

  const now = deps.now ?? (() => new Date());
  /** Encrypts and decrypts secrets at rest (API keys, client secrets, refresh tokens, passwords). */
  const secrets = new SecretBox(deps.config.appSecret);
  const channels = createChannelService({ db: deps.db, now });
  const chatModel = createChatModelService({
    db: deps.db,
    now,
    secrets,
    defaultBaseUrl: deps.config.openaiBaseUrl,
    allowPrivateUrls: deps.config.allowPrivateUrls,
  });
  const googleEndpoints = {
    authUrl: deps.config.googleAuthUrl,
    tokenUrl: deps.config.googleTokenUrl,
    apiUrl: deps.config.youtubeApiUrl,
  };
  const youtube = createYoutubeProvider(googleEndpoints);
  /** OAuth states bound to the browser that asked (YouTube, TikTok, Instagram). */
  const oauthStates = createOauthStates({
    db: deps.db,
    now,
    secrets,
    secureCookies: deps.config.publicUrl.startsWith('https:'),
  });
  const youtubeApis = createYoutubeApiService({
    db: deps.db,
    now,
    secrets,
    youtube,
    channels,
    oauthStates,
    publicUrl: deps.config.publicUrl,
  });
  const { config } = deps;
  const platformAccounts = createPlatformAccountService({
    db: deps.db,
    now,
    secrets,
    oauthStates,
    publicUrl: config.publicUrl,
    tiktok: createTiktokPublisher(
      { authUrl: config.tiktokAuthUrl, apiUrl: config.tiktokApiUrl },
      { uploadOrigins: config.tiktokUploadOrigins, now },
    ),
    instagram: createInstagramPublisher(
      { authUrl: config.metaAuthUrl, apiUrl: config.metaGraphUrl, uploadUrl: config.metaUploadUrl },
      config.metaConfigId === undefined ? {} : { configId: config.metaConfigId },
    ),
    operatorApps: {
      ...(config.tiktokClientKey && config.tiktokClientSecret
        ? { tiktok: { clientId: config.tiktokClientKey, clientSecret: config.tiktokClientSecret } }
        : {}),
      ...(config.metaAppId && config.metaAppSecret
        ? { instagram: { clientId: config.metaAppId, clientSecret: config.metaAppSecret } }
        : {}),
    },
    tiktokAudited: config.tiktokAppAudited,
  });

  const proxies = createProxyService({
    db: deps.db,
    now,
    secrets,
    proxyCheckUrl: deps.config.proxyCheckUrl,
    allowPrivate: deps.config.allowPrivateUrls,
  });
  const prompts = createPromptService({ db: deps.db, now });
  const voices = createVoiceService({ db: deps.db, now, dataDir: deps.config.dataDir });
  const music = createMusicService({
    db: deps.db,
    now,
    appSecret: deps.config.appSecret,
    mediaDir: deps.config.mediaDir,
    tools: () => resolveMediaTools(mediaToolsEnv(deps.config)),
  });
  const storage = deps.storage ?? localMediaStorage(deps.config.mediaDir);
  const queue = deps.queue;
  const executions = createExecutionService({
    db: deps.db,
    now,
    appSecret: deps.config.appSecret,
    storage,
    enqueue: deps.enqueue ?? (queue ? (executionId) => enqueueExecution(queue, executionId) : undefined),
    limits: { maxActivePerUser: deps.config.maxActiveRunsPerUser, maxManualPerHour: deps.config.maxManualRunsPerHour },
  });
  const processes = createProcessService({ db: deps.db, now, hooks: executions });
  const runs = createExecutionRunService({ db: deps.db, now, staleMs: deps.config.leaseStaleSeconds * 1000 });
  const publisher = createYoutubePublisher(googleEndpoints);
  const metrics = createMetrics({
    ...(queue
      ? {
          queueDepth: async () => {
            const depths: Record<string, number> = {};
            for (const name of [QUEUES.execution, QUEUES.email, QUEUES.alert]) depths[name] = await queue.boss.getQueueSize(name);
            return depths;
          },
        }
      : {}),
  });
  const youtubeQuota = createYoutubeQuota({
    db: deps.db,
    now,
    dailyUnits: deps.config.youtubeDailyQuota,
    onUnits: (operation, units) => metrics.youtubeQuotaUnits.inc({ operation }, units),
  });
  const publications = createPublicationService({
    db: deps.db,
    now,
    youtubeApis,
    publisher,
    quota: youtubeQuota,
    ...(queue ? { enqueueRefresh: (userId: string) => enqueueStatsRefresh(queue, userId) } : {}),
  });

  const runControl = createRunControl({
    db: deps.db,
    now,
    executions,
    runs,
    publications,
    log: (error, message) => console.warn(message, error instanceof Error ? error.message : error),
  });

  const alerts = createAlertService({
    db: deps.db,
    now,
    secrets,
    mailer: deps.mailer,
    publicUrl: deps.config.publicUrl,
    allowPrivateUrls: deps.config.allowPrivateUrls,
    ...(queue ? { enqueue: (job: AlertJob) => enqueueAlert(queue, job) } : {}),
    log: (error, message) => console.warn(message, error instanceof Error ? error.message : error),
  });

  const retention = createRetention({ db: deps.db, now, storage, mediaRetentionDays: deps.config.mediaRetentionDays });

  const account = createAccountService({ db: deps.db, removeMedia: executions.removeMedia, reauthentication });
  const subscription = createSubscriptionService({ db: deps.db, now });

  /** The media tools this server runs (never their paths: the answer is public). */
  async function mediaHealth() {
    const tools = await resolveMediaTools(mediaToolsEnv(deps.config)).catch(() => null);
    const describe = (tool: MediaTool | undefined) =>
      tool ? { status: 'ok', source: tool.source, version: tool.version } : { status: 'missing' };
    const voice = await localVoiceAvailable();
    return {
      ffmpeg: describe(tools?.ffmpeg),
      ffprobe: describe(tools?.ffprobe),
      local_voice: voice ? { status: 'ok', source: 'bundled', version: LOCAL_VOICE_VERSION } : { status: 'missing' },
    };
  }

  /**
   * Whether this process can do its work: the database answers (within 3 s), the queue runs, the
   * media tools are there. `ready` is false otherwise (/health/ready answers 503).
   */
  async function health() {
    let database = 'ok';
    try {
      await Promise.race([
        deps.db.execute(sql`select 1`),
        new Promise((_, reject) => setTimeout(() => reject(new Error('database check timed out')), 3000).unref()),
      ]);
    } catch {
      database = 'unavailable';
    }
    const queue = deps.queue ? (deps.queue.isRunning() ? 'ok' : 'stopped') : 'disabled';
    const media = await mediaHealth();
    const mediaOk = Object.values(media).every((tool) => tool.status === 'ok');
    const ready = database === 'ok' && queue !== 'stopped' && mediaOk;
    return { status: ready ? 'ok' : 'degraded', ready, database, queue, media };
  }

  return {
    auth,
    rateLimits,
    drainEmails,
    account,
    subscription,
    channels,
    youtubeApis,
    platformAccounts,
    chatModel,
    proxies,
    prompts,
    voices,
    music,
    processes,
    executions,
    runs,
    runControl,
    alerts,
    retention,
    metrics,
    publications,
    publisher,
    health,
    secrets,
  };
}

export type Services = ReturnType<typeof createServices>;
