import { NO_NUL, dateTime, nullableString, type Shape } from './common';

/**
 * Story prompts (docs/api-catalogue.md): the categories, the 20 story languages, a prompt's
 * answers and the bodies that write one. routes/prompts validates and serializes with these;
 * services/prompts.ts takes and builds the types derived from them.
 */

/** The prompt categories (spec section 3), in display order; the first is the default. */
export const PROMPT_CATEGORIES = [
  'drama_psicologico',
  'suspense',
  'romance',
  'acao',
  'comedia',
  'terror',
  'ficcao_cientifica',
  'fantasia',
] as const;
export type PromptCategory = (typeof PROMPT_CATEGORIES)[number];
export const DEFAULT_CATEGORY: PromptCategory = 'drama_psicologico';

export function isPromptCategory(value: string): value is PromptCategory {
  return (PROMPT_CATEGORIES as readonly string[]).includes(value);
}

/** The 20 supported language codes (spec section 3), in display order. */
export const LANGUAGE_CODES = [
  'pt',
  'en',
  'es',
  'fr',
  'de',
  'it',
  'ja',
  'ko',
  'zh',
  'ru',
  'ar',
  'hi',
  'tr',
  'nl',
  'sv',
  'no',
  'da',
  'fi',
  'pl',
  'cs',
] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export function isLanguageCode(code: string): code is LanguageCode {
  return (LANGUAGE_CODES as readonly string[]).includes(code);
}

/** The six texts of a language, as answered and accepted. */
export const TEXT_FIELDS = ['title', 'premise', 'narrative_prompt', 'chapter_1', 'next_chapters', 'final_chapter'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/** The six texts of one language. */
export const languageTextsSchema = {
  type: 'object',
  required: ['title', 'premise', 'narrative_prompt', 'chapter_1', 'next_chapters', 'final_chapter'],
  properties: {
    title: { type: 'string' },
    premise: { type: 'string' },
    narrative_prompt: { type: 'string' },
    chapter_1: { type: 'string' },
    next_chapters: { type: 'string' },
    final_chapter: { type: 'string' },
  },
} as const;
export type LanguageTexts = Shape<typeof languageTextsSchema>;

const summaryProperties = {
  id: { type: 'string' },
  user_id: nullableString,
  name: { type: 'string' },
  description: { type: 'string' },
  category: { type: 'string', enum: PROMPT_CATEGORIES },
  is_active: { type: 'boolean' },
  language_codes: { type: 'array', items: { type: 'string', enum: LANGUAGE_CODES } },
  /** The languages with at least one text that is not blank: those a process can use. */
  text_language_codes: { type: 'array', items: { type: 'string', enum: LANGUAGE_CODES } },
  process_count: { type: 'integer' },
  /** Active processes (of every user) using it: they stop when it is switched off. */
  active_process_count: { type: 'integer' },
  created_at: dateTime,
  updated_at: dateTime,
} as const;

const summaryRequired = [
  'id',
  'user_id',
  'name',
  'description',
  'category',
  'is_active',
  'language_codes',
  'text_language_codes',
  'process_count',
  'active_process_count',
  'created_at',
  'updated_at',
] as const;

export const promptSummarySchema = { type: 'object', required: summaryRequired, properties: summaryProperties } as const;
export type PromptSummaryDto = Shape<typeof promptSummarySchema>;

export const promptSchema = {
  type: 'object',
  required: [...summaryRequired, 'content', 'languages'],
  properties: {
    ...summaryProperties,
    content: { type: 'string' },
    /** Keyed by language code. */
    languages: { type: 'object', additionalProperties: languageTextsSchema },
  },
} as const;
export type PromptDto = Shape<typeof promptSchema>;

const TEXT_MAX = 20_000;
const text = { type: ['string', 'null'], maxLength: TEXT_MAX, pattern: NO_NUL } as const;

/** A language's texts in a request: each optional (missing or null means empty). */
const languageTextsBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    title: text,
    premise: text,
    narrative_prompt: text,
    chapter_1: text,
    next_chapters: text,
    final_chapter: text,
  },
} as const;

const basicProperties = {
  name: { type: 'string', maxLength: 500, pattern: NO_NUL },
  description: { type: 'string', maxLength: 5_000, pattern: NO_NUL },
  content: { type: 'string', maxLength: 50_000, pattern: NO_NUL },
  category: { type: ['string', 'null'], maxLength: 100 },
} as const;

export const basicBody = {
  type: 'object',
  required: ['name', 'description', 'content'],
  additionalProperties: false,
  properties: basicProperties,
} as const;
export type BasicPromptInput = Shape<typeof basicBody>;

/** Codes are checked by the service, so an unknown one answers 422 with the list of the 20. */
export const fullBody = {
  type: 'object',
  required: ['name', 'description', 'content', 'languages'],
  additionalProperties: false,
  properties: {
    ...basicProperties,
    languages: { type: 'object', maxProperties: 40, additionalProperties: languageTextsBody },
  },
} as const;
export type FullPromptInput = Shape<typeof fullBody>;

/** PUT /prompts/{id}: the description only. */
export const updateDescriptionBody = {
  type: 'object',
  required: ['description'],
  additionalProperties: false,
  properties: { description: basicProperties.description },
} as const;
export type UpdateDescriptionInput = Shape<typeof updateDescriptionBody>;
