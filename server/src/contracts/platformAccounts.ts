import { dateTime, nullableDateTime, nullableInteger, nullableString, type Shape } from './common';

/** TikTok and Instagram accounts runs publish to (routes/platformAccounts, services/platformAccounts.ts; issue 31). */

export const PLATFORMS = ['tiktok', 'instagram'] as const;

/** An Instagram account the owner may pick, of the Facebook Pages the authorization reached. */
export const platformAccountChoiceSchema = {
  type: 'object',
  required: ['external_id', 'username', 'page_name', 'picture_url'],
  properties: {
    external_id: { type: 'string' },
    username: nullableString,
    page_name: { type: 'string' },
    picture_url: nullableString,
  },
} as const;

/** A platform account; its secrets never leave the server (only whether they are set). */
export const platformAccountSchema = {
  type: 'object',
  required: [
    'id',
    'platform',
    'name',
    'username',
    'display_name',
    'avatar_url',
    'external_id',
    'is_active',
    'is_connected',
    'private_only',
    'needs_authorization',
    'choices',
    'uses_operator_app',
    'client_id',
    'has_client_secret',
    'max_duration_sec',
    'disconnect_reason',
    'last_tested',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    platform: { type: 'string', enum: PLATFORMS },
    name: { type: 'string' },
    username: nullableString,
    display_name: nullableString,
    avatar_url: nullableString,
    external_id: nullableString,
    /** Switched on by its owner. */
    is_active: { type: 'boolean' },
    is_connected: { type: 'boolean' },
    /** Posts stay private (TikTok SELF_ONLY: the server's TikTok app is not audited). */
    private_only: { type: 'boolean' },
    /** No working authorization: the owner authorizes (again). */
    needs_authorization: { type: 'boolean' },
    /** Instagram: the accounts waiting for the owner's pick (`PUT /{id}` `{external_id}`); null otherwise. */
    choices: { type: ['array', 'null'], items: platformAccountChoiceSchema },
    /** Authorizes with the operator's app (TIKTOK_CLIENT_KEY, META_APP_ID), not its own. */
    uses_operator_app: { type: 'boolean' },
    client_id: nullableString,
    has_client_secret: { type: 'boolean' },
    /** The longest video the account may post, in seconds, as the platform said at the last check. */
    max_duration_sec: nullableInteger,
    /** Why it is no longer connected, in the caller's language. */
    disconnect_reason: nullableString,
    last_tested: nullableDateTime,
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;
export type PlatformAccountDto = Shape<typeof platformAccountSchema>;

const perPlatform = (type: 'string' | 'boolean') =>
  ({
    type: 'object',
    required: ['tiktok', 'instagram'],
    properties: { tiktok: { type }, instagram: { type } },
  }) as const;

/** GET /platform-accounts/: the accounts, the redirect URIs to register, and which platforms the operator's app covers. */
export const platformAccountListSchema = {
  type: 'object',
  required: ['platform_accounts', 'total', 'redirect_uris', 'operator_apps'],
  properties: {
    platform_accounts: { type: 'array', items: platformAccountSchema },
    total: { type: 'integer' },
    redirect_uris: perPlatform('string'),
    operator_apps: perPlatform('boolean'),
  },
} as const;

/** POST /platform-accounts/{id}/test: the outcome, in the caller's language. */
export const platformAccountTestSchema = {
  type: 'object',
  required: ['is_connected', 'last_tested', 'needs_authorization', 'detail'],
  properties: {
    is_connected: { type: 'boolean' },
    last_tested: dateTime,
    needs_authorization: { type: 'boolean' },
    detail: { type: 'string' },
  },
} as const;

/** `client_id` and `client_secret` both, or neither (the operator's app). */
export const createPlatformAccountBody = {
  type: 'object',
  required: ['platform', 'name'],
  additionalProperties: false,
  properties: {
    platform: { type: 'string', enum: PLATFORMS },
    name: { type: 'string', maxLength: 200 },
    client_id: { type: ['string', 'null'], maxLength: 500 },
    client_secret: { type: ['string', 'null'], maxLength: 500 },
  },
} as const;
export type CreatePlatformAccountInput = Shape<typeof createPlatformAccountBody>;

/** PUT /platform-accounts/{id}: a new name, and/or the Instagram account picked from `choices`. */
export const updatePlatformAccountBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: 200 },
    external_id: { type: 'string', maxLength: 200 },
  },
} as const;
export type UpdatePlatformAccountInput = Shape<typeof updatePlatformAccountBody>;
