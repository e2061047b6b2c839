/**
 * The notifications form (docs/engine.md, "Alerts"): the four causes, the webhook's address and its
 * signing secret. The rules are the server's (services/alerts.ts): an http(s) address without a
 * user name or password, at most 2000 characters, or nothing (no webhook); a secret of printable
 * characters without spaces, at most 200. The secret field always starts blank: the stored one is
 * only ever shown masked, and blank keeps it.
 */
import { boolean, object, string } from 'yup';
import type { NotificationSettings, NotificationSettingsUpdate } from '../../../api';
import type { ValidationKey } from '../../../components';

export const ALERT_CAUSES = ['run_failed', 'authorization', 'quota', 'review'] as const;
export type AlertCause = (typeof ALERT_CAUSES)[number];

const WEBHOOK_URL_MAX = 2000;
const SECRET_MAX = 200;

export interface NotificationFormValues {
  run_failed: boolean;
  authorization: boolean;
  quota: boolean;
  review: boolean;
  webhook_url: string;
  webhook_secret: string;
  clear_webhook_secret: boolean;
}

/** An http(s) URL without user info, or blank. */
export function isWebhookUrl(value: string | undefined): boolean {
  const raw = value?.trim() ?? '';
  if (!raw) return true;
  if (raw.length > WEBHOOK_URL_MAX) return false;
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Printable ASCII without spaces, at most 200 characters, or blank. */
export function isWebhookSecret(value: string | undefined): boolean {
  const secret = value?.trim() ?? '';
  return !secret || (secret.length <= SECRET_MAX && /^[\x21-\x7e]+$/.test(secret));
}

export const notificationSchema = object({
  run_failed: boolean().default(true).required(),
  authorization: boolean().default(true).required(),
  quota: boolean().default(true).required(),
  review: boolean().default(true).required(),
  webhook_url: string()
    .trim()
    .default('')
    .test('webhook-url', 'validation.webhookUrl' satisfies ValidationKey, isWebhookUrl),
  webhook_secret: string()
    .trim()
    .default('')
    .test('webhook-secret', 'validation.webhookSecret' satisfies ValidationKey, isWebhookSecret),
  clear_webhook_secret: boolean().default(false).required(),
});

export function formValuesOf(settings: NotificationSettings): NotificationFormValues {
  return {
    run_failed: settings.run_failed,
    authorization: settings.authorization,
    quota: settings.quota,
    review: settings.review,
    webhook_url: settings.webhook_url ?? '',
    webhook_secret: '',
    clear_webhook_secret: false,
  };
}

type Changed = Partial<Record<keyof NotificationFormValues, boolean | undefined>>;

/**
 * Only what changed: the causes switched, the address (blank removes the webhook: null), and the
 * secret (a new one replaces it; "remove" sends null; blank keeps it).
 */
export function updateBody(values: NotificationFormValues, changed: Changed): NotificationSettingsUpdate {
  const body: NotificationSettingsUpdate = {};
  for (const cause of ALERT_CAUSES) if (changed[cause]) body[cause] = values[cause];
  if (changed.webhook_url) body.webhook_url = values.webhook_url.trim() || null;
  const secret = values.webhook_secret.trim();
  if (values.clear_webhook_secret) body.webhook_secret = null;
  else if (secret) body.webhook_secret = secret;
  return body;
}
