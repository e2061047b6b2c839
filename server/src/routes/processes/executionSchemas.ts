import { dateTime, nullableDateTime, nullableString } from '../schemas';

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
    'created_at',
  ],
  properties: {
    id: { type: 'string' },
    process_id: { type: 'string' },
    status: { type: 'string' },
    trigger: { type: 'string' },
    current_step: { type: 'integer' },
    steps: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'status', 'started_at', 'finished_at', 'duration_ms'],
        properties: {
          key: { type: 'string' },
          status: { type: 'string' },
          started_at: nullableDateTime,
          finished_at: nullableDateTime,
          duration_ms: { type: ['integer', 'null'] },
        },
      },
    },
    story_title: nullableString,
    error: nullableString,
    queued_at: dateTime,
    started_at: nullableDateTime,
    finished_at: nullableDateTime,
    queue_position: { type: ['integer', 'null'] },
    estimated_seconds_left: { type: ['integer', 'null'] },
    video_url: nullableString,
    thumbnail_url: nullableString,
    video_duration_seconds: { type: ['number', 'null'] },
    warnings: { type: 'array', items: { type: 'string' } },
    created_at: dateTime,
  },
} as const;

/** The answer of execute and retry: 202 with the execution's id and the process, now running. */
export const startedSchema = {
  type: 'object',
  required: ['execution_id', 'process'],
  properties: { execution_id: { type: 'string' }, process: { type: 'object', additionalProperties: true } },
} as const;
