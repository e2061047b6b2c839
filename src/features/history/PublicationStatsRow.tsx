import Refresh from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { errorDetail, errorMessage, useGetPublicationStatsQuery, useRefreshPublicationStatsMutation } from '../../api';
import { LoadErrorAlert, useLocale } from '../../components';
import { formatDateTime } from '../../lib/dates';
import { formatCount, UNKNOWN_FIGURE } from '../../lib/numbers';

export interface PublicationStatsRowProps {
  /** Reports the outcome of a refresh. */
  onFeedback: (severity: 'success' | 'error' | 'info', message: string) => void;
}

/**
 * The user's counters (all publications, whatever the filters): totals per status (those awaiting
 * the owner's review included), total views and likes, when YouTube's figures were last read, and
 * a button that asks for fresh ones.
 */
export function PublicationStatsRow({ onFeedback }: PublicationStatsRowProps) {
  const { t } = useTranslation(['history', 'common']);
  const locale = useLocale();
  const { data, error, isLoading, isError, isFetching, refetch } = useGetPublicationStatsQuery();
  const [refreshStats, { isLoading: refreshing }] = useRefreshPublicationStatsMutation();

  const refresh = async () => {
    try {
      await refreshStats().unwrap();
      onFeedback('info', t('stats.queued'));
    } catch (failure) {
      console.error('Failed to refresh publication stats', failure);
      onFeedback('error', t('stats.refreshFailed', { message: errorMessage(failure, t('common:errors.network')) }));
    }
  };

  const figures: [string, number | undefined][] = [
    [t('stats.total'), data?.total],
    [t('stats.published'), data?.published],
    [t('stats.processing'), data?.processing],
    [t('stats.awaitingReview'), data?.awaiting_review],
    [t('stats.failed'), data?.failed],
    [t('stats.views'), data?.total_views],
    [t('stats.likes'), data?.total_likes],
  ];
  const stats = isError ? undefined : data;
  const updatedAt = stats?.stats_updated_at ? formatDateTime(stats.stats_updated_at, { locale }) : '';

  return (
    <Box component="section" aria-label={t('stats.label')} sx={{ mb: 3 }}>
      {isError && (
        <LoadErrorAlert
          message={t('stats.loadFailed')}
          reason={errorDetail(error)}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      )}
      <Box
        component="dl"
        aria-busy={isLoading || undefined}
        sx={{
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: 'repeat(2, minmax(0, 1fr))',
            sm: 'repeat(4, minmax(0, 1fr))',
            lg: 'repeat(7, minmax(0, 1fr))',
          },
        }}
      >
        {figures.map(([label, value]) => (
          <Paper key={label} variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column-reverse', minWidth: 0 }}>
            <Typography component="dt" variant="body2" color="textSecondary">
              {label}
            </Typography>
            <Typography component="dd" variant="h5" sx={{ m: 0, fontWeight: 700, overflowWrap: 'anywhere' }}>
              {isLoading ? <Skeleton width="50%" /> : isError ? UNKNOWN_FIGURE : formatCount(value, locale)}
            </Typography>
          </Paper>
        ))}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mt: 1 }}>
        <Typography variant="body2" color="textSecondary">
          {stats ? (updatedAt ? t('stats.updatedAt', { date: updatedAt }) : t('stats.neverUpdated')) : '\u00a0'}
        </Typography>
        <Button size="small" startIcon={<Refresh />} onClick={refresh} disabled={refreshing}>
          {refreshing ? t('stats.refreshing') : t('stats.refresh')}
        </Button>
      </Box>
    </Box>
  );
}
