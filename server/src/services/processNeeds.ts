import { translate, type Language, type MessageKey } from '../messages';

/**
 * What a process may lack to run, as keys the client translates: a deleted record (the column is
 * null), a disabled or inactive one, a YouTube API configuration of another YouTube channel than
 * the process's (the video would land there), or a prompt without texts in the process's
 * language. In this order in `needs`.
 *
 * A leaf: the process service (a refusal to switch a process on) and the stored run errors
 * (errorText.ts, `pipeline.needs`) both describe needs through this one table.
 */
export const PROCESS_NEEDS = [
  'channel',
  'channel_disabled',
  'youtube_api',
  'youtube_api_disabled',
  'channel_mismatch',
  'prompt',
  'prompt_inactive',
  'language',
  'voice',
  'voice_inactive',
] as const;
export type ProcessNeed = (typeof PROCESS_NEEDS)[number];

/** Each need's text in the catalogue; `{{language}}` is the process language's name. */
const NEED_KEYS: Record<ProcessNeed, MessageKey> = {
  channel: 'processes.need.channel',
  youtube_api: 'processes.need.youtube_api',
  youtube_api_disabled: 'processes.need.youtube_api_disabled',
  channel_disabled: 'processes.need.channel_disabled',
  channel_mismatch: 'processes.need.channel_mismatch',
  prompt: 'processes.need.prompt',
  prompt_inactive: 'processes.need.prompt_inactive',
  language: 'processes.need.language',
  voice: 'processes.need.voice',
  voice_inactive: 'processes.need.voice_inactive',
};

export function isProcessNeed(value: string): value is ProcessNeed {
  return (PROCESS_NEEDS as readonly string[]).includes(value);
}

/**
 * The needs in the reader's language, joined with "; ". `language` is the process language's name,
 * already in the reader's language; a value that is not a need is kept as it is.
 */
export function describeNeeds(needs: readonly string[], into: Language, language: string): string {
  return needs.map((need) => (isProcessNeed(need) ? translate(into, NEED_KEYS[need], { language }) : need)).join('; ');
}
