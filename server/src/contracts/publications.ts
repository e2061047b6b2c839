import { dateTime, nullableDateTime, nullableString, pagingQuery, type Shape } from './common';

/** Publications and the history (routes/publications, services/publications.ts). */

export const PUBLICATION_STATUSES = ['published', 'processing', 'awaiting_review', 'failed'] as const;
export const PUBLICATION_VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export const DATE_RANGES = [7, 30, 90] as const;
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number];
export type PublicationVisibility = (typeof PUBLICATION_VISIBILITIES)[number];

/** A publication's answer (docs/api-publications.md). */
export const publicationSchema = {
  type: 'object',
  required: [
    'id',
    'process_id',
    'execution_id',
    'process_name',
    'channel_id',
    'channel_name',
    'video_title',
    'video_id',
    'published_at',
    'views',
    'likes',
    'status',
    'visibility',
    'failure_reason',
    'below_min_views',
    'thumbnail_url',
    'watch_url',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    process_id: nullableString,
    /** The run that made it (null for a recorded video, or once the process was deleted): approve/reject go there. */
    execution_id: nullableString,
    process_name: nullableString,
    channel_id: nullableString,
    channel_name: nullableString,
    video_title: { type: 'string' },
    video_id: nullableString,
    published_at: nullableDateTime,
    views: { type: 'integer' },
    likes: { type: 'integer' },
    status: { type: 'string' },
    visibility: { type: 'string' },
    failure_reason: nullableString,
    below_min_views: { type: 'boolean' },
    thumbnail_url: nullableString,
    watch_url: nullableString,
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;
export type PublicationDto = Shape<typeof publicationSchema>;

const filterProperties = {
  status: { type: 'string', enum: PUBLICATION_STATUSES },
  search: { type: 'string', maxLength: 200 },
  date_range: { type: 'integer', enum: DATE_RANGES },
} as const;

/** GET /publications/: a page of the history, filtered. */
export const publicationListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { ...pagingQuery, ...filterProperties },
} as const;
export type PublicationFilters = Shape<typeof publicationListQuery>;

/** GET /publications/report.csv: the same filters, every row. */
export const publicationReportQuery = { type: 'object', additionalProperties: false, properties: filterProperties } as const;

/** GET /publications/stats: the history's numbers. */
export const publicationStatsSchema = {
  type: 'object',
  required: ['total', 'published', 'processing', 'awaiting_review', 'failed', 'total_views', 'total_likes', 'stats_updated_at'],
  properties: {
    total: { type: 'integer' },
    published: { type: 'integer' },
    processing: { type: 'integer' },
    awaiting_review: { type: 'integer' },
    failed: { type: 'integer' },
    total_views: { type: 'integer' },
    total_likes: { type: 'integer' },
    stats_updated_at: nullableDateTime,
  },
} as const;
export type PublicationStats = Shape<typeof publicationStatsSchema>;

const bodyProperties = {
  video_title: { type: 'string', maxLength: 500 },
  video_id: { type: ['string', 'null'], maxLength: 64, pattern: '^[A-Za-z0-9_-]*$' },
  process_id: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] },
  channel_id: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] },
  // A recorded video is published, waiting or failed; only a run's video waits for review.
  status: { type: 'string', enum: PUBLICATION_STATUSES.filter((status) => status !== 'awaiting_review') },
  visibility: { type: 'string', enum: PUBLICATION_VISIBILITIES },
  published_at: { type: ['string', 'null'], format: 'date-time' },
} as const;

/** POST /publications/: a record of a video made elsewhere. */
export const createPublicationBody = {
  type: 'object',
  required: ['video_title'],
  additionalProperties: false,
  properties: bodyProperties,
} as const;
export type PublicationInput = Shape<typeof createPublicationBody>;

/** PUT /publications/{id}: only the fields sent change. */
export const updatePublicationBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    video_title: bodyProperties.video_title,
    status: bodyProperties.status,
    visibility: bodyProperties.visibility,
    published_at: bodyProperties.published_at,
  },
} as const;
export type PublicationUpdate = Shape<typeof updatePublicationBody>;
