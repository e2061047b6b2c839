import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useController, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { PublishMode } from '../../api';
import { PUBLISH_MODES, type ProcessFormValues } from './schema';

/**
 * How the process publishes its videos: automatically the day after the run, at the publication
 * time (the default), or only once the owner approves each one. Each choice says what it means.
 */
export function PublishModeField({ control }: { control: Control<ProcessFormValues> }) {
  const { t } = useTranslation('processes');
  const id = useId();
  const { field } = useController({ control, name: 'publish_mode' });
  const labelId = `${id}-label`;
  const text: Record<PublishMode, { label: string; hint: string }> = {
    auto: { label: t('form.publishMode.auto'), hint: t('form.publishMode.autoHint') },
    review: { label: t('form.publishMode.review'), hint: t('form.publishMode.reviewHint') },
  };
  return (
    <FormControl component="fieldset">
      <FormLabel id={labelId} component="legend" sx={{ mb: 0.5 }}>
        {t('form.publishMode.label')}
      </FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        name={field.name}
        value={field.value}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
      >
        {PUBLISH_MODES.map((mode) => {
          const nameId = `${id}-${mode}`;
          const hintId = `${nameId}-hint`;
          return (
            <FormControlLabel
              key={mode}
              value={mode}
              control={<Radio slotProps={{ input: { 'aria-labelledby': nameId, 'aria-describedby': hintId } }} />}
              label={
                <>
                  <Typography id={nameId} component="span" sx={{ display: 'block' }}>
                    {text[mode].label}
                  </Typography>
                  <Typography id={hintId} component="span" variant="body2" color="textSecondary" sx={{ display: 'block' }}>
                    {text[mode].hint}
                  </Typography>
                </>
              }
              sx={{ alignItems: 'flex-start', mb: 1, '& .MuiRadio-root': { mt: -0.75 } }}
            />
          );
        })}
      </RadioGroup>
    </FormControl>
  );
}
