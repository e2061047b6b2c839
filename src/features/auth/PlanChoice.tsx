import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { memo, useId } from 'react';
import { useController, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ANNUAL_DISCOUNT, ANNUAL_PRICE_USD, MONTHLY_PRICE_USD, type BillingPeriod } from '../../lib/constants';
import { LOCALE_OF, isLanguage } from '../../lib/language';
import { formatUSD } from '../../lib/money';
import type { SignUpValues } from './schemas';

/** Monthly vs annual billing as two selectable cards (radio buttons underneath). Memoised, as TextInput is. */
export const PlanChoice = memo(function PlanChoice({
  control,
  disabled,
}: {
  control: Control<SignUpValues>;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation('auth');
  const labelId = useId();
  const { field } = useController({ name: 'plan', control });
  const locale = LOCALE_OF[isLanguage(i18n.language) ? i18n.language : 'en'];

  const options: { value: BillingPeriod; title: string; price: string; note: string; badge?: string }[] = [
    {
      value: 'monthly',
      title: t('signup.monthly'),
      price: t('signup.perMonth', { price: formatUSD(MONTHLY_PRICE_USD, locale) }),
      note: t('signup.monthlyNote'),
    },
    {
      value: 'annual',
      title: t('signup.annual'),
      price: t('signup.perYear', { price: formatUSD(ANNUAL_PRICE_USD, locale) }),
      note: t('signup.annualNote'),
      badge: t('signup.discount', { percent: Math.round(ANNUAL_DISCOUNT * 100) }),
    },
  ];

  return (
    <Box>
      <FormLabel id={labelId} sx={{ display: 'block', mb: 1 }}>
        {t('signup.plan')}
      </FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        name={field.name}
        value={field.value}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}
      >
        {options.map((option) => {
          return (
            <Paper
              key={option.value}
              component="label"
              variant="outlined"
              sx={{
                display: 'flex',
                alignItems: 'flex-start',
                gap: 0.5,
                p: 1.5,
                cursor: disabled ? 'default' : 'pointer',
                borderWidth: 2,
                borderColor: 'divider',
                bgcolor: 'background.paper',
                // The checked card by its input, not by React's state: so it is on the page served
                // already rendered too, before the app runs (app/prerender.tsx).
                '&:has(input:checked)': { borderColor: 'primary.main', bgcolor: 'action.selected' },
                '&:focus-within': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
              }}
            >
              <Radio value={option.value} disabled={disabled} size="small" sx={{ p: 0.5 }} />
              <Box sx={{ minWidth: 0 }}>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                  <Typography component="span" sx={{ fontWeight: 600 }}>
                    {option.title}
                  </Typography>
                  {option.badge && <Chip label={option.badge} size="small" color="success" variant="outlined" />}
                </Box>
                <Typography component="span" sx={{ display: 'block', fontSize: '1.125rem', fontWeight: 700, mt: 0.5 }}>
                  {option.price}
                </Typography>
                <Typography component="span" variant="body2" color="textSecondary" sx={{ display: 'block' }}>
                  {option.note}
                </Typography>
              </Box>
            </Paper>
          );
        })}
      </RadioGroup>
    </Box>
  );
});
