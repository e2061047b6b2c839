import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import SearchOff from '@mui/icons-material/SearchOff';
import VideoLibraryOutlined from '@mui/icons-material/VideoLibraryOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import {
  errorDetail,
  errorMessage,
  useApproveExecutionMutation,
  useDeletePublicationMutation,
  useGetPublicationsQuery,
  usePublishPublicationMutation,
  useRejectExecutionMutation,
  type Publication,
} from '../../api';
import { EmptyState, LoadErrorAlert, PageHeader, useLocale } from '../../components';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FeedbackSnackbar, useFeedback } from '../../components/Feedback';
import { ListSkeleton } from '../../components/Skeletons';
import { formatCount } from '../../lib/numbers';
import { hasFilters, ROWS_PER_PAGE_OPTIONS, toFilters } from './filters';
import { HistoryFilters } from './HistoryFilters';
import { PublicationCard } from './PublicationCard';
import type { PublicationAction } from './PublicationParts';
import { PublicationRow } from './PublicationRow';
import { PublicationStatsRow } from './PublicationStatsRow';
import { useReportDownload } from './report';
import { useHistoryQuery } from './useHistoryQuery';

/** The actions that ask first (approve does not: it only schedules what the owner asked for). */
type ConfirmedAction = Exclude<PublicationAction, 'approve'>;
type Pending = { action: ConfirmedAction; publication: Publication } | null;

/** What a failed confirmed action says. */
const FAILED = {
  publish: 'messages.publishFailed',
  publishNow: 'messages.publishFailed',
  delete: 'messages.removeFailed',
  reject: 'messages.rejectFailed',
} as const satisfies Record<ConfirmedAction, string>;

/**
 * /history: every publication of the user, with search, status and period filters kept in the
 * address, server-side paging, the statistics row, the CSV report, and per video "publish as
 * public" and "delete" (both confirmed, both acting on YouTube first). A video waiting for review
 * is approved (published at its process's next publication time), published now (confirmed) or
 * rejected (confirmed) through the run that made it.
 */
export default function HistoryPage() {
  const { t } = useTranslation(['history', 'common']);
  const locale = useLocale();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const { query, update } = useHistoryQuery();
  const filters = toFilters(query);
  const { data, error, isLoading, isError, isFetching, refetch } = useGetPublicationsQuery({
    skip: query.page * query.rowsPerPage,
    limit: query.rowsPerPage,
    ...filters,
  });
  const [publishPublication] = usePublishPublicationMutation();
  const [deletePublication] = useDeletePublicationMutation();
  const [approveExecution] = useApproveExecutionMutation();
  const [rejectExecution] = useRejectExecutionMutation();
  // The publication whose approval is on its way: its buttons wait.
  const [approvingId, setApprovingId] = useState<string | null>(null);
  const { download, downloading } = useReportDownload();
  // The publication being confirmed stays named while its dialog closes.
  const [pending, setPending] = useState<Pending>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  // Delete: the video on YouTube too (default), or the record only.
  const [keepVideo, setKeepVideo] = useState(false);
  const { feedback, show, clear } = useFeedback();

  // A list that failed to load is empty (spec §7); the alert says so and offers a retry.
  const publications = isError ? [] : (data?.publications ?? []);
  const total = isError ? 0 : (data?.total ?? 0);

  // A page past the end (the last row of the last page was deleted, an old link): go to the last one.
  const pastTheEnd = !isFetching && !isError && data !== undefined && publications.length === 0 && total > 0 && query.page > 0;
  useEffect(() => {
    if (pastTheEnd) update({ page: Math.max(0, Math.ceil(total / query.rowsPerPage) - 1) });
  }, [pastTheEnd, total, query.rowsPerPage, update]);

  const reason = (failure: unknown) => errorMessage(failure, t('common:errors.network'));

  const approve = async (publication: Publication) => {
    if (!publication.execution_id) return;
    const title = publication.video_title;
    setApprovingId(publication.id);
    try {
      await approveExecution({ id: publication.execution_id, when: 'scheduled' }).unwrap();
      show('success', t('messages.approved', { title }));
    } catch (failure) {
      console.error('Failed to approve publication', failure);
      show('error', t('messages.approveFailed', { title, message: reason(failure) }));
    } finally {
      setApprovingId(null);
    }
  };

  const onAction = (action: PublicationAction, publication: Publication) => {
    if (action === 'approve') {
      void approve(publication);
      return;
    }
    setPending({ action, publication });
    setKeepVideo(false);
    setConfirmOpen(true);
  };

  const confirm = async () => {
    if (!pending) return;
    const { action, publication } = pending;
    const title = publication.video_title;
    const executionId = publication.execution_id ?? '';
    try {
      if (action === 'publish') {
        await publishPublication(publication.id).unwrap();
        show('success', t('messages.published', { title }));
      } else if (action === 'publishNow') {
        await approveExecution({ id: executionId, when: 'now' }).unwrap();
        show('success', t('messages.published', { title }));
      } else if (action === 'reject') {
        await rejectExecution(executionId).unwrap();
        show('success', t('messages.rejected', { title }));
      } else {
        await deletePublication({ id: publication.id, keepVideo }).unwrap();
        show('success', t(keepVideo ? 'messages.removedKeep' : 'messages.removed', { title }));
      }
    } catch (failure) {
      console.error(`Failed to ${action} publication`, failure);
      show('error', t(FAILED[action], { title, message: reason(failure) }));
    } finally {
      setConfirmOpen(false);
    }
  };

  const downloadReport = async () => {
    try {
      const filename = await download(filters);
      show('success', t('report.downloaded', { filename }));
    } catch (failure) {
      console.error('Failed to download the publications report', failure);
      show('error', t('report.failed', { message: errorMessage(failure, t('common:errors.network')) }));
    }
  };

  const clearFilters = () => update({ search: '', status: '', period: null, page: 0 });

  let content;
  if (isLoading) {
    content = <ListSkeleton rows={5} />;
  } else if (isError) {
    content = (
      <LoadErrorAlert
        message={t('loadFailed')}
        reason={errorDetail(error)}
        onRetry={() => void refetch()}
        retrying={isFetching}
      />
    );
  } else if (total === 0 && hasFilters(query)) {
    content = (
      <EmptyState
        icon={<SearchOff />}
        message={t('noMatch')}
        action={
          <Button variant="outlined" onClick={clearFilters}>
            {t('filters.clear')}
          </Button>
        }
      />
    );
  } else if (total === 0) {
    content = (
      <EmptyState
        icon={<VideoLibraryOutlined />}
        message={t('empty')}
        action={
          <Button variant="contained" component={RouterLink} to="/processes">
            {t('goToProcesses')}
          </Button>
        }
      />
    );
  } else {
    const pagination = (
      <TablePagination
        component="div"
        count={total}
        page={Math.min(query.page, Math.max(0, Math.ceil(total / query.rowsPerPage) - 1))}
        rowsPerPage={query.rowsPerPage}
        rowsPerPageOptions={[...ROWS_PER_PAGE_OPTIONS]}
        onPageChange={(_event, page) => update({ page })}
        onRowsPerPageChange={(event) => update({ rowsPerPage: Number(event.target.value), page: 0 })}
        labelRowsPerPage={t('pagination.rowsPerPage')}
        labelDisplayedRows={({ from, to, count }) =>
          t('pagination.displayed', {
            from: formatCount(from, locale),
            to: formatCount(to, locale),
            count: formatCount(count, locale),
          })
        }
        getItemAriaLabel={(type) => t(`pagination.${type}`)}
        showFirstButton={!narrow}
        showLastButton={!narrow}
        sx={{
          borderTop: narrow ? 0 : 1,
          borderColor: 'divider',
          '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end', px: 1.5 },
        }}
      />
    );
    const progress = <Box sx={{ height: 4 }}>{isFetching && <LinearProgress aria-label={t('common:loading')} />}</Box>;
    content = narrow ? (
      // Phones: a card per publication; nothing to scroll sideways.
      <>
        {progress}
        <Box
          component="section"
          aria-label={t('table.label')}
          aria-busy={isFetching || undefined}
          sx={{ display: 'grid', gap: 1.5 }}
        >
          {publications.map((publication) => (
            <PublicationCard
              key={publication.id}
              publication={publication}
              onAction={onAction}
              busy={approvingId === publication.id}
            />
          ))}
        </Box>
        <Paper variant="outlined" sx={{ mt: 1.5 }}>
          {pagination}
        </Paper>
      </>
    ) : (
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        {progress}
        <TableContainer
          role="region"
          aria-label={t('table.region')}
          tabIndex={0}
          sx={{ '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 } }}
        >
          <Table
            size="small"
            aria-label={t('table.label')}
            aria-busy={isFetching || undefined}
            sx={{ minWidth: 860, '& .MuiTableCell-root': { px: 1.5 } }}
          >
            <TableHead>
              <TableRow>
                <TableCell>{t('table.video')}</TableCell>
                <TableCell>{t('table.videoId')}</TableCell>
                <TableCell>{t('table.status')}</TableCell>
                <TableCell>{t('table.publishedAt')}</TableCell>
                <TableCell align="right">{t('table.views')}</TableCell>
                <TableCell align="right">{t('table.likes')}</TableCell>
                <TableCell align="right">{t('table.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {publications.map((publication) => (
                <PublicationRow
                  key={publication.id}
                  publication={publication}
                  onAction={onAction}
                  busy={approvingId === publication.id}
                />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {pagination}
      </Paper>
    );
  }

  const publication = pending?.publication;
  const title = publication?.video_title ?? '';
  const publishing = pending?.action === 'publish' || pending?.action === 'publishNow';
  const rejecting = pending?.action === 'reject';

  let confirmTitle: string;
  let confirmMessage: ReactNode;
  let confirmLabel: string;
  let busyLabel: string;
  if (publishing) {
    confirmTitle = t('publish.title', { title });
    confirmMessage = t('publish.message');
    confirmLabel = t('publish.confirm');
    busyLabel = t('publish.publishing');
  } else if (rejecting) {
    confirmTitle = t('reject.title', { title });
    confirmMessage = t('reject.message');
    confirmLabel = t('reject.confirm');
    busyLabel = t('reject.rejecting');
  } else {
    confirmTitle = t('remove.title', { title });
    confirmMessage = publication?.video_id ? (
      <>
        {keepVideo ? t('remove.messageKeep') : t('remove.message')}
        <FormControlLabel
          sx={{ display: 'flex', mt: 1.5 }}
          control={<Checkbox checked={keepVideo} onChange={(event) => setKeepVideo(event.target.checked)} />}
          label={t('remove.keepVideo')}
        />
      </>
    ) : (
      t('remove.messageNoVideo')
    );
    confirmLabel = keepVideo ? t('remove.confirmKeep') : t('remove.confirm');
    busyLabel = t('remove.removing');
  }

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        action={
          <Button variant="contained" startIcon={<FileDownloadOutlined />} onClick={downloadReport} disabled={downloading}>
            {downloading ? t('report.downloading') : t('report.download')}
          </Button>
        }
      />
      <PublicationStatsRow onFeedback={show} />
      <HistoryFilters query={query} onChange={update} />
      {content}
      <ConfirmDialog
        open={confirmOpen}
        title={confirmTitle}
        message={confirmMessage}
        confirmLabel={confirmLabel}
        busyLabel={busyLabel}
        destructive={!publishing}
        onConfirm={confirm}
        onClose={() => setConfirmOpen(false)}
      />
      <FeedbackSnackbar feedback={feedback} onClose={clear} />
    </>
  );
}
