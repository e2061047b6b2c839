import { dateTime, nullableDateTime, nullableString, type Shape } from './common';

/** The chat-model configuration (routes/chatModel, services/chatModel.ts). */

/** The caller's configuration, its key masked. */
export const configSchema = {
  type: 'object',
  required: [
    'has_api_key',
    'secret_unreadable',
    'api_key_masked',
    'base_url',
    'model',
    'speech_base_url',
    'speech_model',
    'image_base_url',
    'image_model',
    'is_connected',
    'last_tested',
    'created_at',
    'updated_at',
  ],
  properties: {
    has_api_key: { type: 'boolean' },
    /** The stored key cannot be read (APP_SECRET changed): it must be entered again. */
    secret_unreadable: { type: 'boolean' },
    api_key_masked: { type: 'string' },
    /** null: the server default (OPENAI_BASE_URL). */
    base_url: nullableString,
    model: { type: 'string' },
    /** Narration from another OpenAI-compatible server; null: the chat API's root. */
    speech_base_url: nullableString,
    /** null: the server's default speech model. */
    speech_model: nullableString,
    /** Images from another OpenAI-compatible server; null: the chat API's root. */
    image_base_url: nullableString,
    /** null: the server's default image model. */
    image_model: nullableString,
    is_connected: { type: 'boolean' },
    last_tested: nullableDateTime,
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;
export type ChatModelConfigDto = Shape<typeof configSchema>;

export const testResultSchema = {
  type: 'object',
  required: ['is_connected', 'last_tested', 'detail'],
  properties: {
    is_connected: { type: 'boolean' },
    last_tested: dateTime,
    detail: { type: 'string' },
  },
} as const;
export type ChatModelTestResult = Shape<typeof testResultSchema>;

// Generous bounds here (400 beyond them); the service applies the real limits with a 422.
const apiKey = { type: ['string', 'null'], maxLength: 2000 } as const;
const baseUrl = { type: ['string', 'null'], maxLength: 2000 } as const;
const model = { type: ['string', 'null'], maxLength: 1000 } as const;
/** The configuration's fields; speech and images may use other OpenAI-compatible servers and models. */
const configBodyProperties = {
  api_key: apiKey,
  base_url: baseUrl,
  model,
  speech_base_url: baseUrl,
  speech_model: model,
  image_base_url: baseUrl,
  image_model: model,
} as const;

/** POST and PUT /chatgpt/config: only the fields sent change (a create without a key is the service's 422). */
export const chatModelBody = { type: 'object', additionalProperties: false, properties: configBodyProperties } as const;
export type ChatModelInput = Shape<typeof chatModelBody>;

/** POST /chatgpt/test: a key (and root) to try, or nothing for the stored ones. */
export const chatModelTestBody = {
  type: 'object',
  additionalProperties: false,
  properties: { api_key: apiKey, base_url: baseUrl },
} as const;
export type ChatModelTestInput = Shape<typeof chatModelTestBody>;
