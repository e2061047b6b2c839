import crypto from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { alertsSent, notificationSettings, processes, users } from '../db/schema';
import { unprocessable } from '../errors';
import { BlockedAddressError, isBlockedAddressError, userFetch } from '../lib/egress';
import { exchangeDeadline } from '../providers/httpBodies';
import { maskSecret, type SecretBox } from '../lib/secrets';
import { translate, type Language, type MessageKey } from '../messages';
import type { Mailer } from '../providers/mailer';
import type { AlertCause, AlertJob } from '../jobs';
import { describeError } from './errorText';
import type { NotificationSettingsDto, NotificationSettingsInput } from '../contracts/notifications';

/**
 * Alerts: telling the owner when something needs them (docs/engine.md, "Alerts"). A run that
 * failed, a YouTube authorization Google no longer accepts, an exhausted YouTube quota, a video
 * waiting for review. Each goes by email (the real mailer when SMTP_URL is set, else the log) and,
 * when the user set one, to a webhook (Slack/Discord-compatible JSON, signed with HMAC-SHA256), at
 * most once per cause, process and day, and only the causes the user wants. Sent from the job
 * queue, never inside a run's step.
 */

export interface AlertServiceDeps {
  db: Db;
  now: () => Date;
  secrets: SecretBox;
  mailer: Mailer;
  publicUrl: string;
  /** ALLOW_PRIVATE_URLS: a webhook may reach a private address. */
  allowPrivateUrls: boolean;
  /** Hands an alert to the job queue; absent: sent in the background of this process. */
  enqueue?: (job: AlertJob) => Promise<void>;
  log?: (error: unknown, message: string) => void;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const SIGNATURE_HEADER = 'x-storyflow-signature';
export const TIMESTAMP_HEADER = 'x-storyflow-timestamp';
const WEBHOOK_URL_MAX = 2000;
const SECRET_MAX = 200;

/** The HMAC-SHA256 a receiver recomputes: over `<timestamp>.<body>`, hex, as `sha256=<hex>`. */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const DEFAULTS = { runFailed: true, authorization: true, quota: true, review: true } as const;

export function createAlertService(deps: AlertServiceDeps) {
  const { db, now, secrets } = deps;
  const background = new Set<Promise<void>>();

  async function settingsRow(userId: string) {
    const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
    return row;
  }

  function toDto(row: Awaited<ReturnType<typeof settingsRow>>): NotificationSettingsDto {
    const secret = row ? secrets.tryOpen(row.webhookSecretEnc) : undefined;
    return {
      run_failed: row?.runFailed ?? DEFAULTS.runFailed,
      authorization: row?.authorization ?? DEFAULTS.authorization,
      quota: row?.quota ?? DEFAULTS.quota,
      review: row?.review ?? DEFAULTS.review,
      webhook_url: row?.webhookUrl ?? null,
      has_webhook_secret: secret !== undefined,
      webhook_secret_masked: secret === undefined ? '' : maskSecret(secret),
    };
  }

  async function get(userId: string): Promise<NotificationSettingsDto> {
    return toDto(await settingsRow(userId));
  }

  /** An http(s) URL or nothing; checked against private addresses when it is used (lib/egress). */
  function cleanUrl(value: string | null): string | null {
    const raw = value?.trim();
    if (!raw) return null;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw unprocessable('notifications.webhookInvalid');
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || raw.length > WEBHOOK_URL_MAX || url.username || url.password) {
      throw unprocessable('notifications.webhookInvalid');
    }
    return url.href;
  }

  async function update(userId: string, input: NotificationSettingsInput): Promise<NotificationSettingsDto> {
    const current = await settingsRow(userId);
    const values = {
      runFailed: input.run_failed ?? current?.runFailed ?? DEFAULTS.runFailed,
      authorization: input.authorization ?? current?.authorization ?? DEFAULTS.authorization,
      quota: input.quota ?? current?.quota ?? DEFAULTS.quota,
      review: input.review ?? current?.review ?? DEFAULTS.review,
      webhookUrl: input.webhook_url === undefined ? (current?.webhookUrl ?? null) : cleanUrl(input.webhook_url),
      webhookSecretEnc: current?.webhookSecretEnc ?? null,
      updatedAt: now(),
    };
    if (input.webhook_secret !== undefined) {
      const secret = input.webhook_secret?.trim();
      if (secret && (secret.length > SECRET_MAX || !/^[\x21-\x7e]+$/.test(secret)))
        throw unprocessable('notifications.secretInvalid');
      values.webhookSecretEnc = secret ? secrets.seal(secret) : null;
    }
    await db
      .insert(notificationSettings)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: notificationSettings.userId, set: values });
    return get(userId);
  }

  /**
   * Something needs the owner: queued (once per cause, process and UTC day, and only when the owner
   * wants that cause). Answers whether an alert went out now.
   */
  /**
   * The day's key of an alert, recorded only when the owner wants its cause (no settings row: the
   * defaults) and it was not sent today: one statement per cause, built once and prepared by name
   * (every failed run makes it; issue 20).
   */
  const recordStatements = new Map<AlertCause, ReturnType<typeof recordStatement>>();
  function recordStatement(cause: AlertCause) {
    const wantedColumn = {
      run_failed: notificationSettings.runFailed,
      authorization: notificationSettings.authorization,
      quota: notificationSettings.quota,
      review: notificationSettings.review,
    }[cause];
    const byDefault = {
      run_failed: DEFAULTS.runFailed,
      authorization: DEFAULTS.authorization,
      quota: DEFAULTS.quota,
      review: DEFAULTS.review,
    }[cause];
    const userId = sql.placeholder('userId');
    return db
      .insert(alertsSent)
      .select(
        sql`select ${userId}::uuid, ${sql.placeholder('processId')}::uuid, ${cause}, ${sql.placeholder('day')}, ${sql.placeholder('at')}::timestamptz
          where coalesce((select ${wantedColumn} from ${notificationSettings} where ${notificationSettings.userId} = ${userId}::uuid), ${byDefault})`,
      )
      .onConflictDoNothing()
      .returning({ cause: alertsSent.cause })
      .prepare(`alerts_record_${cause}`);
  }

  async function notify(job: AlertJob): Promise<boolean> {
    // One statement, called after every failed run. Nothing is read or decrypted beside it (the
    // webhook is the delivery's business).
    let statement = recordStatements.get(job.cause);
    if (!statement) {
      statement = recordStatement(job.cause);
      recordStatements.set(job.cause, statement);
    }
    const at = now().toISOString();
    const inserted = await statement.execute({ userId: job.userId, processId: job.processId, day: at.slice(0, 10), at });
    if (inserted.length === 0) return false;
    if (deps.enqueue) {
      await deps.enqueue(job);
    } else {
      const sending: Promise<void> = deliver(job)
        .catch((error: unknown) => deps.log?.(error, 'alert not sent'))
        .finally(() => background.delete(sending));
      background.add(sending);
    }
    return true;
  }

  /** The alert's words in the owner's language. */
  function compose(job: AlertJob, user: { name: string; language: string }, processName: string) {
    const language: Language = user.language === 'pt' ? 'pt' : 'en';
    const link = `${deps.publicUrl}/processes`;
    const reason = describeError(job.errorKey ?? null, job.errorParams, job.errorText ?? null, language) ?? '';
    const params = { name: user.name, process: processName, link, reason };
    const subject = translate(language, `alerts.${job.cause}.subject` as MessageKey, params);
    const text = translate(language, `alerts.${job.cause}.body` as MessageKey, params);
    return { language, subject, text };
  }

  /** POSTs `payload` to the user's webhook, signed; throws on a refused address or an answer that is not 2xx. */
  async function postWebhook(url: string, secret: string | undefined, payload: object): Promise<void> {
    const body = JSON.stringify(payload);
    const timestamp = String(Math.floor(now().getTime() / 1000));
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'StoryFlow-Alerts/1' };
    if (secret) {
      headers[TIMESTAMP_HEADER] = timestamp;
      headers[SIGNATURE_HEADER] = webhookSignature(secret, timestamp, body);
    }
    const send = userFetch({ allowPrivate: deps.allowPrivateUrls });
    // The whole exchange within WEBHOOK_TIMEOUT_MS (a timer that holds its signal: httpBodies); no
    // redirect is followed and the answer's body is never read, only its status.
    const deadline = exchangeDeadline(WEBHOOK_TIMEOUT_MS);
    let response: Awaited<ReturnType<typeof send>>;
    try {
      response = await send(url, { method: 'POST', headers, body, signal: deadline.signal, redirect: 'error' });
      await response.body?.cancel().catch(() => undefined);
    } finally {
      deadline.clear();
    }
    if (!response.ok) throw new Error(`the webhook answered HTTP ${response.status}`);
  }

  /** The job: the email and the webhook of one alert. */
  async function deliver(job: AlertJob): Promise<void> {
    // The owner, the process's name and the webhook in one statement (one alert per failed run).
    const [found] = await db
      .select({
        user: { name: users.name, email: users.email, language: users.language },
        processName: processes.name,
        webhookUrl: notificationSettings.webhookUrl,
        webhookSecretEnc: notificationSettings.webhookSecretEnc,
      })
      .from(users)
      .innerJoin(processes, eq(processes.id, job.processId))
      .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
      .where(eq(users.id, job.userId));
    if (!found) return;
    const { user, processName, webhookUrl, webhookSecretEnc } = found;
    const { subject, text } = compose(job, user, processName);
    await deps.mailer.send({ to: user.email, subject, text });
    if (webhookUrl) {
      await postWebhook(webhookUrl, secrets.tryOpen(webhookSecretEnc), {
        text: `${subject}\n${text}`,
        content: `${subject}\n${text}`.slice(0, 2000),
        event: job.cause,
        process: { id: job.processId, name: processName },
        execution_id: job.executionId ?? null,
        sent_at: now().toISOString(),
      }).catch((error: unknown) => deps.log?.(error, 'alert webhook failed'));
    }
  }

  /** "Send test": a message to the webhook now; says whether it arrived (no upstream text). */
  async function testWebhook(userId: string, language: Language): Promise<{ delivered: boolean; detail: string }> {
    const row = await settingsRow(userId);
    if (!row?.webhookUrl) throw unprocessable('notifications.webhookMissing');
    try {
      const text = translate(language, 'notifications.testMessage');
      await postWebhook(row.webhookUrl, secrets.tryOpen(row.webhookSecretEnc), {
        text,
        content: text,
        event: 'test',
        sent_at: now().toISOString(),
      });
      return { delivered: true, detail: translate(language, 'notifications.testDelivered') };
    } catch (error) {
      const reason =
        error instanceof BlockedAddressError || isBlockedAddressError(error)
          ? translate(language, 'common.addressNotAllowed')
          : (/HTTP \d{3}/.exec(error instanceof Error ? error.message : '')?.[0] ??
            translate(language, 'chatModel.reasonUnreachable'));
      return { delivered: false, detail: translate(language, 'notifications.testFailed', { reason }) };
    }
  }

  /** Drops the dedupe rows older than a week (the purge job). */
  async function purge(before: Date): Promise<number> {
    const removed = await db.delete(alertsSent).where(lt(alertsSent.createdAt, before)).returning({ cause: alertsSent.cause });
    return removed.length;
  }

  /** Waits for alerts sent in the background (no queue). */
  async function drain(): Promise<void> {
    while (background.size > 0) await Promise.all([...background]);
  }

  return { get, update, notify, deliver, testWebhook, purge, drain };
}

export type AlertService = ReturnType<typeof createAlertService>;
