import type { Shape } from './common';

/** Alerts: what the owner is told and where (routes/notifications, services/alerts.ts). */

/** What the user is told, and the webhook (its secret masked). */
export const settingsSchema = {
  type: 'object',
  required: ['run_failed', 'authorization', 'quota', 'review', 'webhook_url', 'has_webhook_secret', 'webhook_secret_masked'],
  properties: {
    run_failed: { type: 'boolean' },
    authorization: { type: 'boolean' },
    quota: { type: 'boolean' },
    review: { type: 'boolean' },
    webhook_url: { type: ['string', 'null'] },
    has_webhook_secret: { type: 'boolean' },
    webhook_secret_masked: { type: 'string' },
  },
} as const;
export type NotificationSettingsDto = Shape<typeof settingsSchema>;

/** PUT /notifications: only the fields sent change; `null` removes the webhook or its secret. */
export const settingsBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    run_failed: { type: 'boolean' },
    authorization: { type: 'boolean' },
    quota: { type: 'boolean' },
    review: { type: 'boolean' },
    webhook_url: { type: ['string', 'null'], maxLength: 4000 },
    webhook_secret: { type: ['string', 'null'], maxLength: 1000 },
  },
} as const;
export type NotificationSettingsInput = Shape<typeof settingsBody>;
