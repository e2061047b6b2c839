import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { planPrice, type BillingPeriod, type Plan } from '../../lib/constants';
import { formatBRL } from '../../lib/money';

export interface PlanCardProps {
  plan: Plan;
  billing: BillingPeriod;
  /** The plan and period the user is on now. */
  current: { plan: string; billing: BillingPeriod };
  onChoose: (plan: Plan) => void;
}

/** One plan of the catalogue: price for the chosen period, channels, what it includes, the choice. */
export function PlanCard({ plan, billing, current, onChoose }: PlanCardProps) {
  const { t } = useTranslation('subscription');
  const isCurrentPlan = current.plan === plan.id;
  const isCurrent = isCurrentPlan && current.billing === billing;
  const headingId = `plan-${plan.id}`;
  const lines = [
    t('plan.channels', { count: plan.channels }),
    t('plan.unlimitedProcesses'),
    ...plan.features.map((feature) => t(`features.${feature}`)),
  ];
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{
        p: 2.5,
        display: 'flex',
        flexDirection: 'column',
        gap: 1.5,
        borderColor: isCurrentPlan ? 'primary.main' : plan.popular ? 'secondary.main' : undefined,
        borderWidth: isCurrentPlan || plan.popular ? 2 : 1,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
        <Typography id={headingId} component="h3" variant="h6" sx={{ fontWeight: 700 }}>
          {plan.name}
        </Typography>
        {plan.popular && <Chip size="small" color="secondary" label={t('plan.popular')} />}
      </Box>
      <Box>
        <Typography component="p" variant="h4" sx={{ fontWeight: 700 }}>
          {formatBRL(planPrice(plan, billing))}
          <Typography component="span" variant="body2" color="textSecondary">
            {billing === 'annual' ? t('plan.perYear') : t('plan.perMonth')}
          </Typography>
        </Typography>
        <Typography variant="body2" color="textSecondary">
          {billing === 'annual'
            ? t('plan.annualEquivalent', { price: formatBRL(planPrice(plan, 'annual') / 12) })
            : t('plan.billedMonthly')}
        </Typography>
      </Box>
      <List dense disablePadding sx={{ flex: 1 }}>
        {lines.map((line) => (
          <ListItem key={line} disableGutters>
            <ListItemIcon sx={{ minWidth: 30, color: 'success.main' }} aria-hidden>
              <CheckCircleOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={line} />
          </ListItem>
        ))}
      </List>
      <Button
        variant={isCurrent ? 'outlined' : 'contained'}
        disabled={isCurrent}
        onClick={() => onChoose(plan)}
        aria-label={isCurrentPlan ? undefined : t('plan.chooseLabel', { plan: plan.name, period: t(`billing.name.${billing}`) })}
      >
        {isCurrent
          ? t('plan.current')
          : isCurrentPlan
            ? t('plan.switchPeriod', { period: t(`billing.name.${billing}`) })
            : t('plan.choose')}
      </Button>
    </Paper>
  );
}
