/**
 * The create/edit process form (spec §5): name, channel, API configuration, prompt, language,
 * voice and publication time are all required; "enable immediately" is a switch; the publish mode
 * (automatic, or after the owner's review) and the format (video or Short) are choices; the
 * background music is optional (none by default). An update sends only the fields that changed
 * (and are set; the music may change to none).
 */
import { boolean, mixed, object, string } from 'yup';
import type { Process, ProcessCreate, ProcessLanguage, ProcessUpdate, PublishMode } from '../../api';
import type { ValidationKey } from '../../components';
import { DEFAULT_PROCESS_LANGUAGE, DEFAULT_PUBLICATION_TIME, PROCESS_FORMATS, type ProcessFormat } from '../../lib/constants';
import { isLanguage } from '../../lib/language';

const required: ValidationKey = 'validation.fillAllFields';

/** "HH:MM", 00:00 to 23:59. */
export const PUBLICATION_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** `auto` (the default) publishes each video the next day at the publication time; `review` waits for the owner. */
export const PUBLISH_MODES = ['auto', 'review'] as const satisfies readonly PublishMode[];

function publishModeOf(value: string): PublishMode {
  return value === 'review' ? 'review' : 'auto';
}

export interface ProcessFormValues {
  name: string;
  channel_id: string;
  youtube_api_id: string;
  prompt_id: string;
  language: string;
  voice_id: string;
  publication_time: string;
  publish_mode: PublishMode;
  format: ProcessFormat;
  /** A track's id, or '' for no music. */
  music_id: string;
  is_active: boolean;
}

/** `timeInvalid` is the translated message of a malformed time. */
export function processSchema(timeInvalid: string) {
  return object({
    name: string().trim().required(required),
    channel_id: string().required(required),
    youtube_api_id: string().required(required),
    prompt_id: string().required(required),
    language: string().required(required),
    voice_id: string().required(required),
    publication_time: string().trim().required(required).matches(PUBLICATION_TIME, timeInvalid),
    publish_mode: mixed<PublishMode>().oneOf(PUBLISH_MODES).required(required),
    format: mixed<ProcessFormat>().oneOf(PROCESS_FORMATS).required(required),
    music_id: string().default(''),
    is_active: boolean().default(true),
  });
}

/** A new process: language pt, published automatically at 09:00, enabled at once. */
export function formValuesOf(process?: Process): ProcessFormValues {
  if (!process) {
    return {
      name: '',
      channel_id: '',
      youtube_api_id: '',
      prompt_id: '',
      language: DEFAULT_PROCESS_LANGUAGE,
      voice_id: '',
      publication_time: DEFAULT_PUBLICATION_TIME,
      publish_mode: 'auto',
      format: 'video',
      music_id: '',
      is_active: true,
    };
  }
  return {
    name: process.name,
    channel_id: process.channel_id ?? '',
    youtube_api_id: process.youtube_api_id ?? '',
    prompt_id: process.prompt_id ?? '',
    language: isLanguage(process.language) ? process.language : '',
    voice_id: process.voice_id ?? '',
    publication_time: process.publication_time,
    publish_mode: publishModeOf(process.publish_mode),
    format: process.format === 'short' ? 'short' : 'video',
    music_id: process.music_id ?? '',
    is_active: process.is_active,
  };
}

export function createBody(values: ProcessFormValues): ProcessCreate {
  return {
    name: values.name.trim(),
    channel_id: values.channel_id,
    youtube_api_id: values.youtube_api_id,
    prompt_id: values.prompt_id,
    language: values.language as ProcessLanguage,
    voice_id: values.voice_id,
    is_active: values.is_active,
    publication_time: values.publication_time.trim(),
    publish_mode: values.publish_mode,
    format: values.format,
    music_id: values.music_id || null,
  };
}

/** Only what differs from `initial` (and is set): an untouched field is not sent. */
export function updateBody(values: ProcessFormValues, initial: ProcessFormValues): ProcessUpdate {
  const body: ProcessUpdate = {};
  const name = values.name.trim();
  if (name && name !== initial.name) body.name = name;
  for (const key of ['channel_id', 'youtube_api_id', 'prompt_id', 'voice_id'] as const) {
    if (values[key] && values[key] !== initial[key]) body[key] = values[key];
  }
  if (values.language && values.language !== initial.language) body.language = values.language as ProcessLanguage;
  const time = values.publication_time.trim();
  if (time && time !== initial.publication_time) body.publication_time = time;
  if (values.publish_mode !== initial.publish_mode) body.publish_mode = values.publish_mode;
  if (values.format !== initial.format) body.format = values.format;
  if (values.music_id !== initial.music_id) body.music_id = values.music_id || null;
  if (values.is_active !== initial.is_active) body.is_active = values.is_active;
  return body;
}
