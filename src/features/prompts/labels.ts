import type { TFunction } from 'i18next';
import { isPromptCategory } from '../../lib/constants';

/** A category's label ("Drama Psicológico" in pt); a category the app does not know shows as is. */
export function categoryLabel(t: TFunction<'prompts'>, category: string): string {
  return isPromptCategory(category) ? t(`categories.${category}`) : category;
}
