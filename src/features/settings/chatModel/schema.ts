/**
 * The chat-model form. The key is required until a configuration exists (spec §5, "Please enter
 * your ChatGPT API Key"); afterwards a blank key keeps the stored one. The context value
 * `configured` says which case applies: a stored key that can no longer be read (the server's
 * secret changed) counts as none.
 */
import { object, string } from 'yup';
import type { ChatModelConfig, ChatModelConfigCreate, ChatModelConfigUpdate } from '../../../api';
import type { ValidationKey } from '../../../components';

const keyRequired: ValidationKey = 'validation.chatModelKeyRequired';

export interface ChatModelFormValues {
  api_key: string;
  base_url: string;
  model: string;
  speech_base_url: string;
  speech_model: string;
  image_base_url: string;
  image_model: string;
}

/** The media servers' fields: blank means the chat API (URL) or the server's default (model). */
export const MEDIA_FIELDS = ['speech_base_url', 'speech_model', 'image_base_url', 'image_model'] as const;
type MediaField = (typeof MEDIA_FIELDS)[number];

const urlInvalid: ValidationKey = 'validation.urlInvalid';
/** Blank, or an http(s) address. */
const optionalUrl = () =>
  string()
    .trim()
    .default('')
    .test('http-url', urlInvalid, (value) => {
      if (!value) return true;
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    });

export const chatModelSchema = object({
  api_key: string()
    .trim()
    .default('')
    .when('$configured', { is: true, then: (schema) => schema, otherwise: (schema) => schema.required(keyRequired) }),
  base_url: string().trim().default(''),
  model: string().trim().default(''),
  speech_base_url: optionalUrl(),
  speech_model: string().trim().default(''),
  image_base_url: optionalUrl(),
  image_model: string().trim().default(''),
});

/** The key field always starts blank: the stored key is only ever shown masked. */
export function formValuesOf(config: ChatModelConfig | null): ChatModelFormValues {
  return {
    api_key: '',
    base_url: config?.base_url ?? '',
    model: config?.model ?? '',
    speech_base_url: config?.speech_base_url ?? '',
    speech_model: config?.speech_model ?? '',
    image_base_url: config?.image_base_url ?? '',
    image_model: config?.image_model ?? '',
  };
}

/** The media fields that are filled in, for a new configuration. */
function mediaValues(values: ChatModelFormValues): Partial<Record<MediaField, string>> {
  return Object.fromEntries(MEDIA_FIELDS.map((field) => [field, values[field].trim()]).filter(([, value]) => value));
}

export function createBody(values: ChatModelFormValues): ChatModelConfigCreate {
  return {
    api_key: values.api_key.trim(),
    ...(values.base_url.trim() ? { base_url: values.base_url.trim() } : {}),
    ...(values.model.trim() ? { model: values.model.trim() } : {}),
    ...mediaValues(values),
  };
}

/**
 * Only what changed: a blank key keeps the stored one; a cleared base URL goes back to the
 * default (null); a blank model is left as it is; a cleared media field goes back to the chat API
 * or the default model (null).
 */
export function updateBody(
  values: ChatModelFormValues,
  changed: Partial<Record<keyof ChatModelFormValues, boolean | undefined>>,
): ChatModelConfigUpdate {
  const key = values.api_key.trim();
  const baseUrl = values.base_url.trim();
  const model = values.model.trim();
  return {
    ...(key ? { api_key: key } : {}),
    ...(changed.base_url ? { base_url: baseUrl || null } : {}),
    ...(changed.model && model ? { model } : {}),
    ...Object.fromEntries(MEDIA_FIELDS.filter((field) => changed[field]).map((field) => [field, values[field].trim() || null])),
  };
}
