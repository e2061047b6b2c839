import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useController, type Control } from 'react-hook-form';
import type { ProcessFormValues } from './schema';

export interface Choice {
  value: string;
  label: string;
  /** What the choice means, under its label. */
  hint: string;
}

/**
 * A radio group of the process form where each choice says what it means: the publish mode
 * (automatic or after review) and the format (video or Short).
 */
export function ChoiceField({
  control,
  name,
  label,
  choices,
}: {
  control: Control<ProcessFormValues>;
  name: 'publish_mode' | 'format';
  label: string;
  choices: readonly Choice[];
}) {
  const id = useId();
  const { field } = useController({ control, name });
  const labelId = `${id}-label`;
  return (
    <FormControl component="fieldset">
      <FormLabel id={labelId} component="legend" sx={{ mb: 0.5 }}>
        {label}
      </FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        name={field.name}
        value={field.value}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
      >
        {choices.map((choice) => {
          const nameId = `${id}-${choice.value}`;
          const hintId = `${nameId}-hint`;
          return (
            <FormControlLabel
              key={choice.value}
              value={choice.value}
              control={<Radio slotProps={{ input: { 'aria-labelledby': nameId, 'aria-describedby': hintId } }} />}
              label={
                <>
                  <Typography id={nameId} component="span" sx={{ display: 'block' }}>
                    {choice.label}
                  </Typography>
                  <Typography id={hintId} component="span" variant="body2" color="textSecondary" sx={{ display: 'block' }}>
                    {choice.hint}
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
