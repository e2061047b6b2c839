/**
 * The prompt editor's form (spec §4, §5): name, category, description and base content required;
 * per-language texts optional; at least one language. Messages are keys of common's `validation`
 * group, translated by the fields.
 */
import { array, mixed, object, string, type ObjectSchema } from 'yup';
import type { Prompt, PromptFullInput, PromptTexts } from '../../api';
import type { ValidationKey } from '../../components';
import {
  DEFAULT_PROMPT_CATEGORY,
  DEFAULT_PROMPT_LANGUAGES,
  isPromptCategory,
  MIN_PROMPT_LANGUAGES,
  PROMPT_CATEGORIES,
  type PromptCategory,
} from '../../lib/constants';
import { isLanguageCode, type LanguageCode } from '../../lib/languages';

const required: ValidationKey = 'validation.fillAllFields';

export interface LanguageEntry {
  code: LanguageCode;
  texts: PromptTexts;
}

export interface PromptFormValues {
  name: string;
  category: PromptCategory | '';
  description: string;
  content: string;
  /** In tab order. */
  languages: LanguageEntry[];
}

export function emptyTexts(): PromptTexts {
  return { title: '', premise: '', narrative_prompt: '', chapter_1: '', next_chapters: '', final_chapter: '' };
}

function defaultLanguages(): LanguageEntry[] {
  return DEFAULT_PROMPT_LANGUAGES.map((code) => ({ code, texts: emptyTexts() }));
}

/** A new prompt: pt and en with empty texts, the default category. */
export function newPromptValues(): PromptFormValues {
  return { name: '', category: DEFAULT_PROMPT_CATEGORY, description: '', content: '', languages: defaultLanguages() };
}

/**
 * The form for a loaded prompt. One saved with basic data only (no languages) gets pt and en,
 * empty, and the default category (spec §4); `basicOnly` tells the editor to say so.
 */
export function formValuesOf(prompt: Prompt): { values: PromptFormValues; basicOnly: boolean } {
  const languages: LanguageEntry[] = Object.entries(prompt.languages)
    .filter((entry): entry is [LanguageCode, PromptTexts] => isLanguageCode(entry[0]) && entry[1] !== undefined)
    .map(([code, texts]) => ({ code, texts: { ...emptyTexts(), ...texts } }));
  const basicOnly = languages.length === 0;
  return {
    basicOnly,
    values: {
      name: prompt.name,
      category: !basicOnly && isPromptCategory(prompt.category) ? prompt.category : DEFAULT_PROMPT_CATEGORY,
      description: prompt.description,
      content: prompt.content,
      languages: basicOnly ? defaultLanguages() : languages,
    },
  };
}

export const promptSchema: ObjectSchema<PromptFormValues> = object({
  name: string().trim().required(required),
  category: string<PromptCategory | ''>()
    .required(required)
    .oneOf(['', ...PROMPT_CATEGORIES], required),
  description: string().trim().required(required),
  content: string().trim().required(required),
  languages: array()
    .of(object({ code: string<LanguageCode>().required(), texts: mixed<PromptTexts>().required() }))
    .min(MIN_PROMPT_LANGUAGES)
    .required(),
});

/** The body of POST /prompts/full and PUT /prompts/{id}/full: the languages as a map, in tab order. */
export function fullBody(values: PromptFormValues): PromptFullInput {
  return {
    name: values.name.trim(),
    category: values.category || DEFAULT_PROMPT_CATEGORY,
    description: values.description.trim(),
    content: values.content.trim(),
    languages: Object.fromEntries(values.languages.map(({ code, texts }) => [code, { ...texts }])),
  };
}

export const descriptionSchema = object({ description: string().trim().required(required) });
export interface DescriptionFormValues {
  description: string;
}
