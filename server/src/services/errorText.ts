import { translate, type Language, type MessageKey, type MessageParams } from '../messages';
import { describeNeeds } from './processNeeds';

/**
 * The reader-facing text of a stored run error (executions and the process's last error).
 *
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
    values.needs = describeNeeds(values.needs.split(','), into, language);
  }
  return translate(into, key as MessageKey, values);
}
