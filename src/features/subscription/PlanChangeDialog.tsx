import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useLocale } from '../../components';
import { planPrice, type BillingPeriod, type Plan } from '../../lib/constants';
import { formatDate } from '../../lib/dates';
import { formatBRL } from '../../lib/money';

export interface PlanChangeDialogProps {
  /** The plan being chosen, with the billing period; null when closed. */
  choice: { plan: Plan; billing: BillingPeriod } | null;
  /** Enabled channels now, to warn when the new plan includes fewer. */
  channelsInUse: number | undefined;
  nextBillingDate: string | undefined;
  timeZone: string | undefined;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** Confirms a plan change, saying plainly that nothing is charged (there is no payment provider). */
export function PlanChangeDialog({
  choice,
  channelsInUse,
  nextBillingDate,
  timeZone,
  onConfirm,
  onClose,
}: PlanChangeDialogProps) {
  const { t } = useTranslation('subscription');
  const locale = useLocale();
  const plan = choice?.plan;
  const billing = choice?.billing ?? 'monthly';
  const period = t(`billing.name.${billing}`);
  const over = plan !== undefined && channelsInUse !== undefined && channelsInUse > plan.channels;
  return (
    <ConfirmDialog
      open={choice !== null}
      destructive={false}
      title={plan ? t('change.title', { plan: plan.name, period }) : ''}
      confirmLabel={t('change.confirm')}
      busyLabel={t('change.changing')}
      message={
        plan && (
          <Stack spacing={1.5}>
            <Typography variant="body2">
              {t(billing === 'annual' ? 'change.priceAnnual' : 'change.priceMonthly', {
                price: formatBRL(planPrice(plan, billing)),
              })}{' '}
              {t('change.channels', { count: plan.channels })}
            </Typography>
            <Alert severity="info">
              {nextBillingDate
                ? t('change.noCharge', { date: formatDate(nextBillingDate, { locale, timeZone }) })
                : t('change.noChargeNoDate')}
            </Alert>
            {over && (
              <Alert severity="warning">
                {t('change.overLimit', { count: channelsInUse, limit: plan.channels, plan: plan.name })}
              </Alert>
            )}
          </Stack>
        )
      }
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
