import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  errorDetail,
  errorMessage,
  useChangePlanMutation,
  useGetSubscriptionQuery,
  useMeQuery,
  type Subscription,
} from '../../api';
import { LoadErrorAlert, PageHeader, useLocale } from '../../components';
import { FeedbackSnackbar, useFeedback } from '../../components/Feedback';
import { BILLING_PERIODS, PLANS, planById, planPrice, type BillingPeriod, type Plan } from '../../lib/constants';
import { formatDate } from '../../lib/dates';
import { formatBRL } from '../../lib/money';
import { formatCount } from '../../lib/numbers';
import { BillingDialog } from './BillingDialog';
import { PlanCard } from './PlanCard';
import { PlanChangeDialog } from './PlanChangeDialog';

const INCLUDED = ['stories', 'narration', 'images', 'videos', 'publishing', 'history', 'processes'] as const;

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Paper component="section" variant="outlined" aria-labelledby={id} sx={{ p: 2.5, minWidth: 0 }}>
      <Typography id={id} component="h2" variant="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Figure({ label, value, wide = false }: { label: string; value: ReactNode; wide?: boolean }) {
  return (
    <Box sx={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Typography component="dt" variant="body2" color="textSecondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
        {value}
      </Typography>
    </Box>
  );
}

/** The plan the user is on: name, price for its period, channels, the next billing date. */
function CurrentPlan({
  plan,
  billing,
  subscription,
  loading,
  timeZone,
}: {
  plan: Plan;
  billing: BillingPeriod;
  subscription?: Subscription;
  loading: boolean;
  timeZone?: string;
}) {
  const { t } = useTranslation('subscription');
  const locale = useLocale();
  return (
    <Section title={t('current.title')} id="current-plan">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
        <Typography component="p" variant="h4" sx={{ fontWeight: 700 }}>
          {plan.name}
        </Typography>
        <Chip size="small" label={t(`billing.${billing}`)} />
      </Box>
      <Box
        component="dl"
        sx={{ m: 0, display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' } }}
      >
        <Figure
          label={t('current.price')}
          value={`${formatBRL(planPrice(plan, billing))}${billing === 'annual' ? t('plan.perYear') : t('plan.perMonth')}`}
        />
        <Figure label={t('current.channels')} value={t('plan.channels', { count: plan.channels })} />
        <Figure
          label={t('current.nextBilling')}
          value={
            loading ? (
              <Skeleton width={96} />
            ) : subscription ? (
              formatDate(subscription.next_billing_date, { locale, timeZone })
            ) : (
              '—'
            )
          }
        />
      </Box>
    </Section>
  );
}

/** This month's real figures: channels against the plan, videos generated, external API calls. */
function Usage({
  subscription,
  limit,
  loading,
  timeZone,
}: {
  subscription?: Subscription;
  limit: number;
  loading: boolean;
  timeZone?: string;
}) {
  const { t } = useTranslation('subscription');
  const locale = useLocale();
  const usage = subscription?.usage;
  const channels = usage?.channels ?? 0;
  const over = channels > limit;
  const figure = (value: number | undefined) => (loading ? <Skeleton width={48} /> : formatCount(value, locale));
  return (
    <Section title={t('usage.title')} id="usage">
      <Box component="dl" sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' }}>
        <Figure
          wide
          label={t('usage.channels')}
          value={
            <>
              {loading ? <Skeleton width={80} /> : t('usage.channelsOf', { count: channels, limit })}
              <LinearProgress
                variant="determinate"
                value={Math.min(100, (channels / Math.max(1, limit)) * 100)}
                color={over ? 'warning' : 'primary'}
                aria-label={t('usage.channelsBar')}
                sx={{ mt: 1, height: 8, borderRadius: 4 }}
              />
              {over && (
                <Typography
                  component="span"
                  variant="body2"
                  color="warning.main"
                  sx={{ display: 'block', mt: 0.5, fontWeight: 400 }}
                >
                  {t('usage.overLimit')}
                </Typography>
              )}
            </>
          }
        />
        <Figure label={t('usage.videos')} value={figure(usage?.videos_this_month)} />
        <Figure label={t('usage.apiCalls')} value={figure(usage?.api_calls_this_month)} />
      </Box>
      {usage && (
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1.5 }}>
          {t('usage.since', { date: formatDate(usage.month_start, { locale, timeZone }) })}
        </Typography>
      )}
    </Section>
  );
}

/**
 * /subscription: the current plan, real usage, the five plans with a monthly/annual switch, what
 * every plan includes, billing details and the plan change (recorded, never charged).
 */
export default function SubscriptionPage() {
  const { t } = useTranslation(['subscription', 'common']);
  const { data: user } = useMeQuery();
  const {
    data: subscription,
    error,
    isLoading,
    isError,
    isFetching,
    refetch,
  } = useGetSubscriptionQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  const [changePlan] = useChangePlanMutation();
  const currentPlan = planById(subscription?.plan ?? user?.plan);
  const currentBilling: BillingPeriod = subscription?.billing_period ?? user?.billing_period ?? 'monthly';
  const [billing, setBilling] = useState<BillingPeriod | null>(null);
  const shownBilling = billing ?? currentBilling;
  const [choice, setChoice] = useState<{ plan: Plan; billing: BillingPeriod } | null>(null);
  const [billingOpen, setBillingOpen] = useState(false);
  const { feedback, show, clear } = useFeedback();
  const timeZone = user?.time_zone;

  const confirm = async () => {
    if (!choice) return;
    try {
      await changePlan({ plan: choice.plan.id, billing_period: choice.billing }).unwrap();
      show('success', t('change.done', { plan: choice.plan.name, period: t(`billing.name.${choice.billing}`) }));
    } catch (failure) {
      console.error('Failed to change the plan', failure);
      show('error', t('change.failed', { message: errorMessage(failure, t('common:errors.network')) }));
    } finally {
      setChoice(null);
    }
  };

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        action={
          <Button variant="outlined" startIcon={<ReceiptLongOutlined />} onClick={() => setBillingOpen(true)}>
            {t('manageBilling')}
          </Button>
        }
      />
      {isError && (
        <LoadErrorAlert
          message={t('loadFailed')}
          reason={errorDetail(error)}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      )}
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }, mb: 3 }}>
        <CurrentPlan
          plan={currentPlan}
          billing={currentBilling}
          subscription={subscription}
          loading={isLoading}
          timeZone={timeZone}
        />
        <Usage subscription={subscription} limit={currentPlan.channels} loading={isLoading} timeZone={timeZone} />
      </Box>

      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <Typography component="h2" variant="h2">
          {t('plans.title')}
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          color="primary"
          value={shownBilling}
          onChange={(_event, value: BillingPeriod | null) => value && setBilling(value)}
          aria-label={t('billing.label')}
        >
          {BILLING_PERIODS.map((period) => (
            <ToggleButton key={period} value={period}>
              {period === 'annual' ? t('billing.annualSave') : t('billing.monthly')}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: '1fr',
            sm: 'repeat(2, minmax(0, 1fr))',
            lg: 'repeat(3, minmax(0, 1fr))',
            xl: 'repeat(5, minmax(0, 1fr))',
          },
          mb: 3,
        }}
      >
        {PLANS.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            billing={shownBilling}
            current={{ plan: currentPlan.id, billing: currentBilling }}
            onChoose={(chosen) => setChoice({ plan: chosen, billing: shownBilling })}
          />
        ))}
      </Box>

      <Section title={t('included.title')} id="included">
        <List dense disablePadding sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' } }}>
          {INCLUDED.map((item) => (
            <ListItem key={item} disableGutters>
              <ListItemIcon sx={{ minWidth: 32, color: 'success.main' }} aria-hidden>
                <CheckCircleOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={t(`included.${item}`)} />
            </ListItem>
          ))}
        </List>
      </Section>

      <PlanChangeDialog
        choice={choice}
        channelsInUse={subscription?.usage.channels}
        nextBillingDate={subscription?.next_billing_date}
        timeZone={timeZone}
        onConfirm={confirm}
        onClose={() => setChoice(null)}
      />
      <BillingDialog open={billingOpen} subscription={subscription} timeZone={timeZone} onClose={() => setBillingOpen(false)} />
      <FeedbackSnackbar feedback={feedback} onClose={clear} />
    </>
  );
}
