import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import ArrowForward from '@mui/icons-material/ArrowForward';
import RateReviewOutlined from '@mui/icons-material/RateReviewOutlined';
import VideoLibraryOutlined from '@mui/icons-material/VideoLibraryOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import {
  api,
  isRunUnderWay,
  errorDetail,
  useGetProcessesQuery,
  useGetProcessStatsQuery,
  useGetPublicationStatsQuery,
  useGetPublicationsQuery,
  type Process,
  type ProcessStatus,
  type Publication,
} from '../../api';
import { EmptyState, LoadErrorAlert, PageHeader, useLocale } from '../../components';
import { LanguageLabel } from '../../components/LanguageFlag';
import { StatusChip, type StatusTone } from '../../components/StatusChip';
import { DASHBOARD_RECENT_PROCESSES, DASHBOARD_RECENT_PUBLICATIONS, RUNS_POLL_MS } from '../../lib/constants';
import { formatDate } from '../../lib/dates';
import { formatCount, UNKNOWN_FIGURE } from '../../lib/numbers';

/** The lists' arguments: the same for the hooks below and for `prefetch`, so they share the calls. */
const RECENT_PROCESSES = { limit: DASHBOARD_RECENT_PROCESSES };
const RECENT_PUBLICATIONS = { limit: DASHBOARD_RECENT_PUBLICATIONS };

const STATUS_TONE: Record<ProcessStatus, StatusTone> = {
  idle: 'neutral',
  queued: 'waiting',
  running: 'running',
  awaiting_review: 'warning',
  completed: 'success',
  error: 'error',
  cancelled: 'neutral',
};

function isProcessStatus(status: string): status is ProcessStatus {
  return Object.hasOwn(STATUS_TONE, status);
}

/** The four counters: total, active, inactive processes and connected channels. */
function StatCards() {
  const { t } = useTranslation('dashboard');
  const locale = useLocale();
  const [polling, setPolling] = useState(false);
  const { data, error, isLoading, isError, isFetching, refetch } = useGetProcessStatsQuery(undefined, {
    pollingInterval: polling ? RUNS_POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  // Runs under way move between queued and running: the counters follow them meanwhile.
  const underWay = !isError && ((data?.queued ?? 0) > 0 || (data?.running ?? 0) > 0);
  useEffect(() => setPolling(underWay), [underWay]);
  const cards: [string, number | undefined][] = [
    [t('stats.total'), data?.total],
    [t('stats.active'), data?.active],
    [t('stats.inactive'), data?.inactive],
    [t('stats.channels'), data?.connected_channels],
  ];
  return (
    <>
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
        aria-label={t('stats.label')}
        aria-busy={isLoading || undefined}
        sx={{
          m: 0,
          mb: 3,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
        }}
      >
        {cards.map(([label, value]) => (
          <Paper key={label} variant="outlined" sx={{ p: 2, display: 'flex', flexDirection: 'column-reverse' }}>
            <Typography component="dt" variant="body2" color="textSecondary">
              {label}
            </Typography>
            <Typography component="dd" variant="h4" sx={{ m: 0, fontWeight: 700 }}>
              {isLoading ? <Skeleton width="40%" /> : isError ? UNKNOWN_FIGURE : formatCount(value, locale)}
            </Typography>
          </Paper>
        ))}
      </Box>
      <RunsUnderWay queued={isError ? 0 : (data?.queued ?? 0)} running={isError ? 0 : (data?.running ?? 0)} />
    </>
  );
}

/** Runs under way, counted apart: held by a worker, and waiting in the queue for one. Nothing while none. */
function RunsUnderWay({ queued, running }: { queued: number; running: number }) {
  const { t } = useTranslation('dashboard');
  const locale = useLocale();
  if (queued === 0 && running === 0) return null;
  return (
    <Box
      role="status"
      aria-label={t('runs.label')}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: -1.5, mb: 3 }}
    >
      <Typography variant="body2" color="textSecondary">
        {t('runs.label')}:
      </Typography>
      {running > 0 && <StatusChip tone="running" label={t('runs.running', { value: formatCount(running, locale) })} />}
      {queued > 0 && <StatusChip tone="waiting" label={t('runs.queued', { value: formatCount(queued, locale) })} />}
    </Box>
  );
}

/**
 * Videos of processes in review mode wait for their owner: how many, and a way to the history
 * filtered on them. Nothing while none waits (or the count cannot be read: the history says so).
 */
function ReviewNotice() {
  const { t } = useTranslation('dashboard');
  const locale = useLocale();
  const { data, isError } = useGetPublicationStatsQuery();
  const waiting = isError ? 0 : (data?.awaiting_review ?? 0);
  if (waiting === 0) return null;
  return (
    <Alert
      severity="warning"
      role="status"
      icon={<RateReviewOutlined />}
      sx={{ mb: 3, alignItems: 'center' }}
      action={
        <Button component={RouterLink} to="/history?status=awaiting_review" color="inherit" size="small">
          {t('review.action')}
        </Button>
      }
    >
      {t('review.message', { count: waiting, value: formatCount(waiting, locale) })}
    </Alert>
  );
}

/** A titled panel with a link to the full page. */
function Panel({ title, link, children }: { title: string; link: { to: string; label: string }; children: ReactNode }) {
  return (
    <Paper component="section" variant="outlined" aria-label={title} sx={{ p: 2.5, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="h2" component="h2">
          {title}
        </Typography>
        <Button component={RouterLink} to={link.to} size="small" endIcon={<ArrowForward />}>
          {link.label}
        </Button>
      </Box>
      {children}
    </Paper>
  );
}

function RowsSkeleton({ rows }: { rows: number }) {
  const { t } = useTranslation();
  return (
    <Box role="status" aria-label={t('loading')} aria-busy sx={{ display: 'grid', gap: 1, py: 1 }}>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} variant="rounded" height={52} />
      ))}
    </Box>
  );
}

function ProcessRow({ process }: { process: Process }) {
  const { t } = useTranslation('dashboard');
  const locale = useLocale();
  const status = process.status;
  const known = isProcessStatus(status);
  return (
    <ListItem disableGutters divider sx={{ gap: 1.5 }}>
      <ListItemText
        primary={process.name}
        secondary={
          <>
            <LanguageLabel code={process.language} />
            {' · '}
            {t('processes.nextExecution', { date: formatDate(process.next_execution, { locale }) || UNKNOWN_FIGURE })}
          </>
        }
        slotProps={{ primary: { noWrap: true, title: process.name, sx: { fontWeight: 600 } } }}
        sx={{ minWidth: 0 }}
      />
      <Box sx={{ flexShrink: 0 }}>
        <StatusChip tone={known ? STATUS_TONE[status] : 'neutral'} label={known ? t(`status.${status}`) : status} />
      </Box>
    </ListItem>
  );
}

function RecentProcesses() {
  const { t } = useTranslation('dashboard');
  // Followed while one of them has a run under way (and the tab is visible): a finished run then
  // refreshes the counters and the publications too (the api slice sees it end).
  const [polling, setPolling] = useState(false);
  const { data, error, isLoading, isError, isFetching, refetch } = useGetProcessesQuery(RECENT_PROCESSES, {
    pollingInterval: polling ? RUNS_POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  const processes = isError ? [] : (data?.processes ?? []).slice(0, DASHBOARD_RECENT_PROCESSES);
  const anyUnderWay = processes.some((process) => isRunUnderWay(process.status));
  useEffect(() => setPolling(anyUnderWay), [anyUnderWay]);
  let content;
  if (isLoading) content = <RowsSkeleton rows={DASHBOARD_RECENT_PROCESSES} />;
  else if (isError)
    content = (
      <LoadErrorAlert
        message={t('processes.loadFailed')}
        reason={errorDetail(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  else if (processes.length === 0)
    content = (
      <EmptyState
        icon={<AccountTreeOutlined />}
        message={t('processes.empty')}
        action={
          <Button variant="contained" component={RouterLink} to="/processes">
            {t('processes.create')}
          </Button>
        }
      />
    );
  else
    content = (
      <List disablePadding aria-label={t('processes.title')}>
        {processes.map((process) => (
          <ProcessRow key={process.id} process={process} />
        ))}
      </List>
    );
  return (
    <Panel title={t('processes.title')} link={{ to: '/processes', label: t('processes.seeAll') }}>
      {content}
    </Panel>
  );
}

function PublicationRow({ publication }: { publication: Publication }) {
  const { t } = useTranslation('dashboard');
  const locale = useLocale();
  // A private video waits for its publication time: a date ahead is "scheduled", not "published".
  const at = publication.published_at;
  let published: string;
  if (publication.status === 'awaiting_review') published = t('publications.awaitingReview');
  else if (at)
    published = t(new Date(at).getTime() > Date.now() ? 'publications.scheduledFor' : 'publications.publishedOn', {
      date: formatDate(at, { locale }),
    });
  else published = t('publications.notPublished');
  return (
    <ListItem disableGutters divider>
      <ListItemText
        primary={publication.video_title}
        secondary={[
          published,
          t('publications.views', { count: publication.views, value: formatCount(publication.views, locale) }),
          t('publications.likes', { count: publication.likes, value: formatCount(publication.likes, locale) }),
        ].join(' · ')}
        slotProps={{ primary: { noWrap: true, title: publication.video_title, sx: { fontWeight: 600 } } }}
      />
    </ListItem>
  );
}

function RecentPublications() {
  const { t } = useTranslation('dashboard');
  const { data, error, isLoading, isError, isFetching, refetch } = useGetPublicationsQuery(RECENT_PUBLICATIONS);
  const publications = isError ? [] : (data?.publications ?? []).slice(0, DASHBOARD_RECENT_PUBLICATIONS);
  let content;
  if (isLoading) content = <RowsSkeleton rows={DASHBOARD_RECENT_PUBLICATIONS} />;
  else if (isError)
    content = (
      <LoadErrorAlert
        message={t('publications.loadFailed')}
        reason={errorDetail(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  else if (publications.length === 0)
    content = (
      <EmptyState
        icon={<VideoLibraryOutlined />}
        message={t('publications.empty')}
        action={
          <Button variant="outlined" component={RouterLink} to="/processes">
            {t('publications.goToProcesses')}
          </Button>
        }
      />
    );
  else
    content = (
      <List disablePadding aria-label={t('publications.title')}>
        {publications.map((publication) => (
          <PublicationRow key={publication.id} publication={publication} />
        ))}
      </List>
    );
  return (
    <Panel title={t('publications.title')} link={{ to: '/history', label: t('publications.seeAll') }}>
      {content}
    </Panel>
  );
}

/**
 * The dashboard's four calls, started as soon as a sign-in succeeds (index.tsx, app/pages.ts): they
 * run while the dashboard is rendered, and its hooks find them under way.
 */
export function prefetch(dispatch: (action: ReturnType<typeof api.util.prefetch>) => unknown): void {
  dispatch(api.util.prefetch('getProcessStats', undefined, {}));
  dispatch(api.util.prefetch('getPublicationStats', undefined, {}));
  dispatch(api.util.prefetch('getProcesses', RECENT_PROCESSES, {}));
  dispatch(api.util.prefetch('getPublications', RECENT_PUBLICATIONS, {}));
}

/**
 * /dashboard: the four counters, how many videos wait for review (when any), the 3 most recent
 * processes and the 5 most recent publications.
 */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <ReviewNotice />
      <StatCards />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: 'repeat(2, minmax(0, 1fr))' } }}>
        <RecentProcesses />
        <RecentPublications />
      </Box>
    </>
  );
}
