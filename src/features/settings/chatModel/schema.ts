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
}

export const chatModelSchema = object({
  api_key: string()
    .trim()
    .default('')
    .when('$configured', { is: true, then: (schema) => schema, otherwise: (schema) => schema.required(keyRequired) }),
  base_url: string().trim().default(''),
  model: string().trim().default(''),
});

/** The key field always starts blank: the stored key is only ever shown masked. */
export function formValuesOf(config: ChatModelConfig | null): ChatModelFormValues {
  return { api_key: '', base_url: config?.base_url ?? '', model: config?.model ?? '' };
}

export function createBody(values: ChatModelFormValues): ChatModelConfigCreate {
  return {
    api_key: values.api_key.trim(),
    ...(values.base_url.trim() ? { base_url: values.base_url.trim() } : {}),
    ...(values.model.trim() ? { model: values.model.trim() } : {}),
  };
}

/**
 * Only what changed: a blank key keeps the stored one; a cleared base URL goes back to the
 * default (null); a blank model is left as it is.
 */
export function updateBody(values: ChatModelFormValues, changed: { base_url?: boolean; model?: boolean }): ChatModelConfigUpdate {
  const key = values.api_key.trim();
  const baseUrl = values.base_url.trim();
  const model = values.model.trim();
  return {
    ...(key ? { api_key: key } : {}),
    ...(changed.base_url ? { base_url: baseUrl || null } : {}),
    ...(changed.model && model ? { model } : {}),
  };
}
