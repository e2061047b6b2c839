import type { Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PROCESS_FORMATS } from '../../lib/constants';
import { ChoiceField } from './ChoiceField';
import { PUBLISH_MODES, type ProcessFormValues } from './schema';

/**
 * How the process publishes its videos: automatically the day after the run, at the publication
 * time (the default), or only once the owner approves each one. Each choice says what it means.
 */
export function PublishModeField({ control }: { control: Control<ProcessFormValues> }) {
  const { t } = useTranslation('processes');
  return (
    <ChoiceField
      control={control}
      name="publish_mode"
      label={t('form.publishMode.label')}
      choices={PUBLISH_MODES.map((mode) => ({
        value: mode,
        label: t(`form.publishMode.${mode}`),
        hint: t(`form.publishMode.${mode}Hint`),
      }))}
    />
  );
}

/** What the process makes: a landscape video (the default) or a vertical YouTube Short. */
export function FormatField({ control }: { control: Control<ProcessFormValues> }) {
  const { t } = useTranslation('processes');
  return (
    <ChoiceField
      control={control}
      name="format"
      label={t('form.format.label')}
      choices={PROCESS_FORMATS.map((format) => ({
        value: format,
        label: t(`form.format.${format}`),
        hint: t(`form.format.${format}Hint`),
      }))}
    />
  );
}
