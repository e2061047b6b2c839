import { NO_NUL, dateTime, type Shape } from './common';

/** Background music (routes/music, services/music.ts). */

export const MUSIC_MOODS = ['calm', 'dramatic', 'mysterious', 'uplifting', 'dark', 'epic', 'romantic', 'playful'] as const;
export type MusicMood = (typeof MUSIC_MOODS)[number];
export const MUSIC_FORMATS = ['mp3', 'wav', 'ogg'] as const;
export type MusicFormat = (typeof MUSIC_FORMATS)[number];

/** A track's answer (docs/api-catalogue.md). */
export const musicSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'mood',
    'format',
    'size_bytes',
    'duration_seconds',
    'is_active',
    'audio_url',
    'process_count',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    mood: { type: 'string', enum: MUSIC_MOODS },
    format: { type: 'string', enum: MUSIC_FORMATS },
    size_bytes: { type: 'integer' },
    duration_seconds: { type: 'number' },
    is_active: { type: 'boolean' },
    audio_url: { type: 'string', description: 'A signed link to the file for a player; valid for an hour' },
    /** Processes (of every user) that put it under their narration. */
    process_count: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;
export type MusicDto = Shape<typeof musicSchema>;

/** The mood is the service's 422 with the choices; the name's length too (cut at 200). */
const musicProperties = {
  name: { type: 'string', maxLength: 500, pattern: NO_NUL },
  mood: { type: 'string', maxLength: 100 },
} as const;

/** POST /music/: the upload's name and mood, in the query (the body is the file). */
export const musicUploadQuery = {
  type: 'object',
  required: ['name', 'mood'],
  additionalProperties: false,
  properties: musicProperties,
} as const;

/** PUT /music/{id}: only the fields sent change. */
export const musicBody = { type: 'object', additionalProperties: false, properties: musicProperties } as const;
export type MusicInput = Shape<typeof musicBody>;
