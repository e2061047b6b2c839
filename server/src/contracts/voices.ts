import { NO_NUL, dateTime, nullableString, type Shape } from './common';
import { LANGUAGE_CODES } from './prompts';

/** Narration voices (routes/voices, services/voices.ts). */

/** A voice's answer (docs/api-catalogue.md). */
export const voiceSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'type',
    'sample_url',
    'description',
    'language',
    'gender',
    'provider',
    'provider_voice_id',
    'is_active',
    'process_count',
    'active_process_count',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string' },
    sample_url: { type: 'string' },
    description: { type: 'string' },
    /** One of the 20 story languages, or none. */
    language: { type: ['string', 'null'], enum: [...LANGUAGE_CODES, null] },
    gender: nullableString,
    provider: { type: 'string' },
    provider_voice_id: { type: 'string' },
    is_active: { type: 'boolean' },
    process_count: { type: 'integer' },
    /** Active processes (of every user) using it: they stop when the voice is switched off. */
    active_process_count: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;
export type VoiceDto = Shape<typeof voiceSchema>;

/** Enumerations (provider, language, gender) are checked by the service, which answers 422 with the choices. */
const voiceProperties = {
  name: { type: 'string', maxLength: 500, pattern: NO_NUL },
  type: { type: 'string', maxLength: 500, pattern: NO_NUL },
  sample_url: { type: 'string', maxLength: 4096 },
  description: { type: ['string', 'null'], maxLength: 5_000, pattern: NO_NUL },
  language: { type: ['string', 'null'], maxLength: 100 },
  gender: { type: ['string', 'null'], maxLength: 100 },
  provider: { type: ['string', 'null'], maxLength: 100 },
  provider_voice_id: { type: ['string', 'null'], maxLength: 500 },
} as const;

export const createVoiceBody = {
  type: 'object',
  required: ['name', 'type', 'sample_url'],
  additionalProperties: false,
  properties: voiceProperties,
} as const;
export type VoiceInput = Shape<typeof createVoiceBody>;

/** PUT /voices/{id}: only the fields sent change. */
export const updateVoiceBody = { type: 'object', additionalProperties: false, properties: voiceProperties } as const;
export type VoiceUpdate = Shape<typeof updateVoiceBody>;
