import { PROCESS_STEPS, type ProcessStep } from '../runLayout';
import { dateTime, nullableDateTime, nullableInteger, nullableString, type Shape } from './common';

/**
 * Processes and their executions (docs/api-processes.md): the values their fields take, the
 * answers, and the bodies of create and update. routes/processes and routes/executions validate
 * and serialize with these; services/processes.ts and services/executions.ts take and build the
 * types derived from them.
 */

// The seven steps of an execution, in order, are the run's own (runLayout.ts, a leaf): the answers
// below take their keys from there.
export { PROCESS_STEPS, type ProcessStep };

/** The languages a process can make videos in; the first is the spec's default. */
export const PROCESS_LANGUAGES = ['pt', 'en'] as const;
export type ProcessLanguage = (typeof PROCESS_LANGUAGES)[number];

export const PROCESS_STATUSES = ['idle', 'queued', 'running', 'awaiting_review', 'completed', 'error', 'cancelled'] as const;
export type ProcessStatus = (typeof PROCESS_STATUSES)[number];

/**
 * What a process makes: a `video` (1920x1080, STORY_CHAPTERS chapters) or a `short` (a vertical
 * 1080x1920 YouTube Short of at most 3 minutes: one chapter). docs/pipeline-media.md has the rest.
 */
export const PROCESS_FORMATS = ['video', 'short'] as const;
export type ProcessFormat = (typeof PROCESS_FORMATS)[number];

export const PUBLISH_MODES = ['auto', 'review'] as const;
export type PublishMode = (typeof PUBLISH_MODES)[number];

/**
 * What a process may lack to run, as keys the client translates: a deleted record (the column is
 * null), a disabled or inactive one, a YouTube API configuration of another YouTube channel than
 * the process's (the video would land there), or a prompt without texts in the process's
 * language. In this order in `needs`.
 * services/processNeeds.ts describes them in the reader's language.
 */
export const PROCESS_NEEDS = [
  'channel',
  'channel_disabled',
  'youtube_api',
  'youtube_api_disabled',
  'channel_mismatch',
  'prompt',
  'prompt_inactive',
  'language',
  'voice',
  'voice_inactive',
] as const;
export type ProcessNeed = (typeof PROCESS_NEEDS)[number];

/** An execution's status; a process's is PROCESS_STATUSES. */
export const EXECUTION_STATUSES = [
  'queued',
  'running',
  'awaiting_review',
  'completed',
  'error',
  'cancelled',
  'rejected',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const EXECUTION_TRIGGERS = ['manual', 'schedule', 'retry'] as const;
export type ExecutionTrigger = (typeof EXECUTION_TRIGGERS)[number];
export const STEP_STATUSES = ['pending', 'running', 'done', 'error'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/**
 * A publication time, HH:MM from 00:00 to 23:59 (a one-digit hour is taken and padded), checked in
 * one place: the service's parse, which answers a translated 422 that names the format. The body's
 * schema only bounds the length (and says the format), so that no time gets ajv's English instead.
 */
export const PUBLICATION_TIME = /^([01]?[0-9]|2[0-3]):([0-5][0-9])$/;

/** A process's answer (docs/api-processes.md). */
export const processSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'channel_id',
    'channel_name',
    'youtube_api_id',
    'youtube_api_name',
    'prompt_id',
    'prompt_name',
    'language',
    'voice_id',
    'voice_name',
    'is_active',
    'status',
    'execution_step',
    'execution_steps',
    'last_execution',
    'next_execution',
    'publication_time',
    'publish_mode',
    'format',
    'music_id',
    'music_name',
    'music_active',
    'last_error',
    'latest_execution_id',
    'needs',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    channel_id: nullableString,
    channel_name: nullableString,
    youtube_api_id: nullableString,
    youtube_api_name: nullableString,
    prompt_id: nullableString,
    prompt_name: nullableString,
    language: { type: 'string' },
    voice_id: nullableString,
    voice_name: nullableString,
    is_active: { type: 'boolean' },
    status: { type: 'string', enum: PROCESS_STATUSES },
    execution_step: nullableInteger,
    execution_steps: { type: ['array', 'null'], items: { type: 'string', enum: PROCESS_STEPS } },
    last_execution: nullableDateTime,
    next_execution: dateTime,
    publication_time: { type: 'string' },
    /** auto: published at its time; review: the video waits private until the owner approves it. */
    publish_mode: { type: 'string', enum: PUBLISH_MODES },
    format: { type: 'string', enum: PROCESS_FORMATS },
    /** Background music under the narration, or none. */
    music_id: nullableString,
    music_name: nullableString,
    /** False when the chosen track was switched off: the runs go without music meanwhile. */
    music_active: { type: ['boolean', 'null'] },
    last_error: nullableString,
    /** The newest execution, for the status dialog. */
    latest_execution_id: nullableString,
    needs: { type: 'array', items: { type: 'string', enum: PROCESS_NEEDS } },
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;
export type ProcessDto = Shape<typeof processSchema>;

/** An execution's answer (docs/api-processes.md, "Executions"). */
export const executionSchema = {
  type: 'object',
  required: [
    'id',
    'process_id',
    'status',
    'trigger',
    'current_step',
    'steps',
    'story_title',
    'error',
    'queued_at',
    'started_at',
    'finished_at',
    'queue_position',
    'estimated_seconds_left',
    'video_url',
    'thumbnail_url',
    'video_duration_seconds',
    'warnings',
    'progress',
    'created_at',
  ],
  properties: {
    id: { type: 'string' },
    process_id: { type: 'string' },
    status: { type: 'string', enum: EXECUTION_STATUSES },
    trigger: { type: 'string', enum: EXECUTION_TRIGGERS },
    current_step: { type: 'integer' },
    steps: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'status', 'started_at', 'finished_at', 'duration_ms'],
        properties: {
          key: { type: 'string', enum: PROCESS_STEPS },
          status: { type: 'string', enum: STEP_STATUSES },
          started_at: nullableDateTime,
          finished_at: nullableDateTime,
          duration_ms: { type: ['integer', 'null'] },
        },
      },
    },
    story_title: nullableString,
    error: nullableString,
    /** When the run last entered the queue; the wait is started_at (or now) less this. */
    queued_at: dateTime,
    /** When a worker first took it; null while it waits. */
    started_at: nullableDateTime,
    finished_at: nullableDateTime,
    /** While queued: 1 for the next run a worker takes. */
    queue_position: { type: ['integer', 'null'] },
    estimated_seconds_left: { type: ['integer', 'null'] },
    video_url: nullableString,
    thumbnail_url: nullableString,
    video_duration_seconds: { type: ['number', 'null'] },
    /** What the reader should know that did not stop the run, in their language. */
    warnings: { type: 'array', items: { type: 'string' } },
    /** How far the current step is while running (chapters narrated, images made, render or upload percent). */
    progress: {
      type: ['object', 'null'],
      required: ['unit', 'done', 'total'],
      properties: {
        unit: { type: 'string', enum: ['chapters', 'images', 'percent'] },
        done: { type: 'integer' },
        total: { type: 'integer' },
      },
    },
    created_at: dateTime,
  },
} as const;
export type ExecutionDto = Shape<typeof executionSchema>;
export type ExecutionStepDto = ExecutionDto['steps'][number];

/** The answer of execute and retry: 202 with the execution's id and the process, now running. */
export const startedSchema = {
  type: 'object',
  required: ['execution_id', 'process'],
  properties: { execution_id: { type: 'string' }, process: processSchema },
} as const;

/** GET /processes/stats: the dashboard's numbers. */
export const statsSchema = {
  type: 'object',
  required: ['total', 'active', 'inactive', 'queued', 'running', 'connected_channels'],
  properties: {
    total: { type: 'integer' },
    active: { type: 'integer' },
    inactive: { type: 'integer' },
    /** Runs under way, counted apart: waiting for a worker, and held by one. */
    queued: { type: 'integer' },
    running: { type: 'integer' },
    connected_channels: { type: 'integer' },
  },
} as const;
export type ProcessStats = Shape<typeof statsSchema>;

/**
 * A reference chosen in the form: a uuid, or blank ('' or null), which the service answers with
 * a 422 asking to choose one.
 */
const reference = {
  anyOf: [{ type: 'string', format: 'uuid' }, { type: 'string', maxLength: 0 }, { type: 'null' }],
} as const;

const processBodyProperties = {
  name: { type: 'string', maxLength: 500 },
  channel_id: reference,
  youtube_api_id: reference,
  prompt_id: reference,
  language: { type: 'string', enum: PROCESS_LANGUAGES },
  voice_id: reference,
  is_active: { type: 'boolean' },
  publication_time: { type: 'string', maxLength: 16, description: 'HH:MM, from 00:00 to 23:59' },
  publish_mode: { type: 'string', enum: PUBLISH_MODES },
  format: { type: 'string', enum: PROCESS_FORMATS },
  music_id: reference,
} as const;

/**
 * The create body. The references may arrive blank ('' or null) from a form: that is a 422
 * asking to choose one, not a schema error.
 */
export const createProcessBody = {
  type: 'object',
  required: ['name', 'channel_id', 'youtube_api_id', 'prompt_id', 'language', 'voice_id'],
  additionalProperties: false,
  properties: processBodyProperties,
} as const;
export type CreateProcessInput = Shape<typeof createProcessBody>;

/** An update: any of the create fields; only those sent change. */
export const updateProcessBody = { type: 'object', additionalProperties: false, properties: processBodyProperties } as const;
export type UpdateProcessInput = Shape<typeof updateProcessBody>;
