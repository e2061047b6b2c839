import { translate, type Language, type MessageKey, type MessageParams } from '../messages';
import type { ProcessNeed } from './processes';

/** The reader-facing text of a stored run error (executions and the process's last error). */

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

/**
 * An error in the reader's language. `pipeline.needs` carries need keys (comma-separated) that are
 * translated one by one; everything else is the catalogue's template with its params (a
 * `reason_key` among them fills `{{reason}}`: see translate).
 */
export function describeError(
  key: string | null,
  params: Record<string, string | number> | null | undefined,
  fallback: string | null,
  into: Language,
): string | null {
  if (!key) return fallback;
  const values: MessageParams = { ...(params ?? {}) };
  if (key === 'pipeline.needs' && typeof values.needs === 'string') {
    const language = translate(into, values.language === 'en' ? 'processes.languageName.en' : 'processes.languageName.pt');
    values.needs = values.needs
      .split(',')
      .map((need) => (need in NEED_KEYS ? translate(into, NEED_KEYS[need as ProcessNeed], { language }) : need))
      .join('; ');
  }
  return translate(into, key as MessageKey, values);
}
