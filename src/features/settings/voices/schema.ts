/**
 * The voice form (spec §5, docs/api-catalogue.md): name, type and sample URL required; the sample
 * URL is an absolute http(s) URL or a path on this server starting with "/" (`{id}` may stand for
 * the voice's id). Language, gender, provider and the provider's voice id are optional.
 */
import { object, string, type ObjectSchema } from 'yup';
import type { Voice, VoiceInput } from '../../../api';
import type { ValidationKey } from '../../../components';
import {
  DEFAULT_VOICE_PROVIDER,
  VOICE_GENDERS,
  VOICE_PROVIDERS,
  type VoiceGender,
  type VoiceProvider,
} from '../../../lib/constants';
import { isLanguageCode, LANGUAGE_CODES, type LanguageCode } from '../../../lib/languages';

const required: ValidationKey = 'validation.fillAllFields';
const invalidUrl: ValidationKey = 'validation.sampleUrl';

/** The same rule as the server's: http(s) with a host, or one leading "/" (not "//"). */
export function isSampleUrl(value: string): boolean {
  const url = value.trim().split('{id}').join('id');
  if (!url || /[\s\\]/.test(url) || [...url].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return false;
  if (url.startsWith('/')) return !url.startsWith('//');
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

export interface VoiceFormValues {
  name: string;
  type: string;
  sample_url: string;
  description: string;
  /** "" for none. */
  language: LanguageCode | '';
  gender: VoiceGender | '';
  provider: VoiceProvider;
  provider_voice_id: string;
}

export const voiceSchema: ObjectSchema<VoiceFormValues> = object({
  name: string().trim().required(required),
  type: string().trim().required(required),
  sample_url: string()
    .trim()
    .required(required)
    .test('sample-url', invalidUrl, (value) => !value || isSampleUrl(value)),
  description: string().trim().default(''),
  language: string<LanguageCode | ''>()
    .oneOf(['', ...LANGUAGE_CODES])
    .default(''),
  gender: string<VoiceGender | ''>()
    .oneOf(['', ...VOICE_GENDERS])
    .default(''),
  provider: string<VoiceProvider>()
    .oneOf([...VOICE_PROVIDERS])
    .required(required),
  provider_voice_id: string().trim().default(''),
});

export function formValuesOf(voice?: Voice): VoiceFormValues {
  if (!voice) {
    return {
      name: '',
      type: '',
      sample_url: '',
      description: '',
      language: '',
      gender: '',
      provider: DEFAULT_VOICE_PROVIDER,
      provider_voice_id: '',
    };
  }
  return {
    name: voice.name,
    type: voice.type,
    sample_url: voice.sample_url,
    description: voice.description ?? '',
    language: isLanguageCode(voice.language) ? voice.language : '',
    gender: (VOICE_GENDERS as readonly string[]).includes(voice.gender ?? '') ? (voice.gender as VoiceGender) : '',
    provider: (VOICE_PROVIDERS as readonly string[]).includes(voice.provider)
      ? (voice.provider as VoiceProvider)
      : DEFAULT_VOICE_PROVIDER,
    provider_voice_id: voice.provider_voice_id ?? '',
  };
}

/** The body of POST /voices/ and PUT /voices/{id}: every field, "none" as null. */
export function voiceBody(values: VoiceFormValues): VoiceInput {
  return {
    name: values.name.trim(),
    type: values.type.trim(),
    sample_url: values.sample_url.trim(),
    description: values.description.trim(),
    language: values.language || null,
    gender: values.gender || null,
    provider: values.provider,
    provider_voice_id: values.provider_voice_id.trim(),
  };
}
