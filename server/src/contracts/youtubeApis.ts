import { dateTime, nullableDateTime, nullableInteger, nullableString, type Shape } from './common';

/** YouTube API configurations (routes/youtubeApis, services/youtubeApis.ts). */

/** A YouTube API configuration, its secrets masked (docs/api-connections.md). */
export const youtubeApiSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'channel_id',
    'client_id',
    'has_client_secret',
    'secret_unreadable',
    'client_secret_masked',
    'has_api_key',
    'api_key_masked',
    'has_refresh_token',
    'is_active',
    'is_enabled',
    'is_connected',
    'last_tested',
    'active_process_count',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    channel_id: { type: 'string' },
    client_id: { type: 'string' },
    has_client_secret: { type: 'boolean' },
    /** A stored secret cannot be read (APP_SECRET changed): it must be entered again. */
    secret_unreadable: { type: 'boolean' },
    client_secret_masked: { type: 'string' },
    has_api_key: { type: 'boolean' },
    api_key_masked: nullableString,
    has_refresh_token: { type: 'boolean' },
    is_active: { type: 'boolean' },
    is_enabled: { type: 'boolean' },
    is_connected: { type: 'boolean' },
    last_tested: nullableDateTime,
    /** Active processes using it: they stop when it is switched off. */
    active_process_count: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;
export type YoutubeApiDto = Shape<typeof youtubeApiSchema>;

/** GET /youtube-apis/: the page, and the redirect address to register with Google. */
export const youtubeApiListSchema = {
  type: 'object',
  required: ['youtube_apis', 'total', 'oauth_redirect_uri'],
  properties: {
    youtube_apis: { type: 'array', items: youtubeApiSchema },
    total: { type: 'integer' },
    oauth_redirect_uri: { type: 'string' },
  },
} as const;

/** POST /youtube-apis/{id}/test: the outcome, in the caller's language, and the channel found. */
export const youtubeApiTestSchema = {
  type: 'object',
  required: ['is_connected', 'last_tested', 'needs_authorization', 'detail', 'channel'],
  properties: {
    is_connected: { type: 'boolean' },
    last_tested: dateTime,
    needs_authorization: { type: 'boolean' },
    detail: { type: 'string' },
    channel: {
      type: ['object', 'null'],
      properties: {
        id: { type: 'string' },
        title: { type: 'string' },
        subscriber_count: nullableInteger,
        video_count: nullableInteger,
        view_count: nullableInteger,
      },
    },
  },
} as const;

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const optionalText = (maxLength: number) => ({ type: ['string', 'null'], maxLength }) as const;

const bodyProperties = {
  name: text(200),
  channel_id: text(200),
  client_id: text(500),
  client_secret: optionalText(500),
  api_key: optionalText(500),
  refresh_token: optionalText(2000),
} as const;

/** `client_secret`: null or blank on an update keeps the stored one; required on create. */
export const createYoutubeApiBody = {
  type: 'object',
  required: ['name', 'channel_id', 'client_id', 'client_secret'],
  additionalProperties: false,
  properties: bodyProperties,
} as const;
export type CreateYoutubeApiInput = Shape<typeof createYoutubeApiBody>;

/** PUT /youtube-apis/{id}: only the fields sent change; `clear_api_key` removes the API key. */
export const updateYoutubeApiBody = {
  type: 'object',
  additionalProperties: false,
  properties: { ...bodyProperties, clear_api_key: { type: 'boolean' } },
} as const;
export type UpdateYoutubeApiInput = Shape<typeof updateYoutubeApiBody>;
