import { dateTime, nullableDateTime, nullableInteger, nullableString, type Shape } from './common';

/** YouTube channels (routes/channels, services/channels.ts). */

/** A channel's answer (docs/api-connections.md). */
export const channelSchema = {
  type: 'object',
  required: [
    'id',
    'channel_id',
    'name',
    'min_views',
    'is_active',
    'process_count',
    'active_process_count',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    channel_id: { type: 'string' },
    name: nullableString,
    min_views: { type: 'integer' },
    is_active: { type: 'boolean' },
    subscriber_count: nullableInteger,
    video_count: nullableInteger,
    view_count: nullableInteger,
    stats_updated_at: nullableDateTime,
    process_count: { type: 'integer' },
    /** Active processes using it: they stop when the channel is switched off. */
    active_process_count: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;
export type ChannelDto = Shape<typeof channelSchema>;

/** A non-negative integer, as a number or a string; blank (null, '') means 0 (the service's 422 otherwise). */
const minViews = { type: ['integer', 'string', 'null'], maxLength: 20 } as const;

const channelBodyProperties = {
  channel_id: { type: 'string', maxLength: 200 },
  name: { type: ['string', 'null'], maxLength: 500 },
  min_views: minViews,
  is_active: { type: 'boolean' },
} as const;

export const createChannelBody = {
  type: 'object',
  required: ['channel_id'],
  additionalProperties: false,
  properties: channelBodyProperties,
} as const;
export type CreateChannelInput = Shape<typeof createChannelBody>;

export const updateChannelBody = { type: 'object', additionalProperties: false, properties: channelBodyProperties } as const;
export type UpdateChannelInput = Shape<typeof updateChannelBody>;
