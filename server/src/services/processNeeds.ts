import { translate, type Language, type MessageKey } from '../messages';
import { PROCESS_NEEDS, type ProcessNeed } from '../contracts/processes';

/**
 * What a process may lack to run (PROCESS_NEEDS, the API's `needs`), in the reader's language.
 * A leaf: the process service (a refusal to switch a process on) and the stored run errors
 * (errorText.ts, `pipeline.needs`) both describe needs through this one table.
 */

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
