import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '../../api';
import { useLocale } from '../../components';
import { formatDate } from '../../lib/dates';

/**
 * "Manage billing": what there is to manage today. StoryFlow has no payment provider, so there is
 * no card on file and no invoice; the dialog says so instead of pretending.
 */
export function BillingDialog({
  open,
  subscription,
  timeZone,
  onClose,
}: {
  open: boolean;
  subscription: Subscription | undefined;
  timeZone: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation(['subscription', 'common']);
  const locale = useLocale();
  const rows: [string, string][] = subscription
    ? [
        [t('billingDialog.period'), t(`billing.${subscription.billing_period}`)],
        [t('billingDialog.next'), formatDate(subscription.next_billing_date, { locale, timeZone })],
        [t('billingDialog.method'), t('billingDialog.noMethod')],
        [t('billingDialog.invoices'), t('billingDialog.noInvoices')],
      ]
    : [];
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('billingDialog.title')}</DialogTitle>
      <DialogContent>
        <Stack component="dl" spacing={1.5} sx={{ m: 0 }}>
          {rows.map(([label, value]) => (
            <div key={label}>
              <Typography component="dt" variant="body2" color="textSecondary">
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0 }}>
                {value}
              </Typography>
            </div>
          ))}
        </Stack>
        <Typography variant="body2" color="textSecondary" sx={{ mt: 2 }}>
          {t('billingDialog.note')}
        </Typography>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} variant="contained">
          {t('common:actions.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
