/**
 * The YouTube API configuration form (spec §5): name, channel id, client id and client secret are
 * required (the secret only when creating, or when the stored one can no longer be read: otherwise
 * blank keeps the stored one); API key and refresh token are optional.
 */
import { boolean, object, string } from 'yup';
import type { YoutubeApi, YoutubeApiCreate, YoutubeApiUpdate } from '../../../api';
import type { ValidationKey } from '../../../components';

const required: ValidationKey = 'validation.fillAllFields';

export interface YoutubeApiFormValues {
  name: string;
  channel_id: string;
  api_key: string;
  client_id: string;
  client_secret: string;
  refresh_token: string;
  clear_api_key: boolean;
}

export function youtubeApiSchema(secretRequired: boolean) {
  return object({
    name: string().trim().required(required),
    channel_id: string().trim().required(required),
    api_key: string().trim().default(''),
    client_id: string().trim().required(required),
    client_secret: secretRequired ? string().trim().required(required) : string().trim().default(''),
    refresh_token: string().trim().default(''),
    clear_api_key: boolean().default(false).required(),
  });
}

/** Secrets always start blank: the stored ones are never sent back (only their masked form). */
export function formValuesOf(config?: YoutubeApi): YoutubeApiFormValues {
  return {
    name: config?.name ?? '',
    channel_id: config?.channel_id ?? '',
    api_key: '',
    client_id: config?.client_id ?? '',
    client_secret: '',
    refresh_token: '',
    clear_api_key: false,
  };
}

export function createBody(values: YoutubeApiFormValues): YoutubeApiCreate {
  return {
    name: values.name,
    channel_id: values.channel_id,
    client_id: values.client_id,
    client_secret: values.client_secret,
    ...(values.api_key ? { api_key: values.api_key } : {}),
    ...(values.refresh_token ? { refresh_token: values.refresh_token } : {}),
  };
}

/** Blank secrets are left out (the server keeps the stored ones). */
export function updateBody(values: YoutubeApiFormValues): YoutubeApiUpdate {
  return {
    name: values.name,
    channel_id: values.channel_id,
    client_id: values.client_id,
    ...(values.client_secret ? { client_secret: values.client_secret } : {}),
    ...(values.api_key ? { api_key: values.api_key } : values.clear_api_key ? { clear_api_key: true } : {}),
    ...(values.refresh_token ? { refresh_token: values.refresh_token } : {}),
  };
}
