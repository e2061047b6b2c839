import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutlined';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Replay from '@mui/icons-material/Replay';
import { skipToken } from '@reduxjs/toolkit/query';
import type { TFunction } from 'i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { styled } from '@mui/material/styles';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  isRunUnderWay,
  errorDetail,
  useApproveExecutionMutation,
  useCancelExecutionMutation,
  useGetExecutionQuery,
  useRejectExecutionMutation,
  useRetryExecutionMutation,
  type ApprovalTime,
  type Execution,
  type ExecutionStepStatus,
  type Process,
} from '../../api';
import { useLocale } from '../../components';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { StatusChip, type StatusTone } from '../../components/StatusChip';
import { formatDateTime } from '../../lib/dates';
import { fallbackSecondsLeft, formatDuration, formatSeconds, runningStep, stepLabel } from './labels';

/** How often a running execution is fetched again. */
export const EXECUTION_POLL_MS = 2000;

export interface ExecutionDialogProps {
  process: Process;
  onClose: () => void;
  /** Reports the outcome of a retry, a cancel, an approval or a rejection to the page's snackbar. */
  onFeedback: (severity: 'success' | 'error', message: string) => void;
}

interface StepView {
  key: string;
  status: ExecutionStepStatus | (string & {});
  durationMs: number | null;
}

interface RunView {
  status: Execution['status'];
  steps: StepView[];
  current: number;
  secondsLeft: number | null;
}

/** The run as the process itself tells it (before its execution has loaded). */
function viewOfProcess(process: Process): RunView | null {
  const step = runningStep(process);
  if (!step || !process.execution_steps) return null;
  const queued = process.status === 'queued';
  const steps = process.execution_steps.map((key, index) => ({
    key,
    status: index < step.index ? 'done' : index === step.index && !queued ? 'running' : 'pending',
    durationMs: null,
  }));
  return {
    status: queued ? 'queued' : 'running',
    steps,
    current: step.index,
    secondsLeft: fallbackSecondsLeft(step.total - step.index),
  };
}

function viewOfExecution(execution: Execution): RunView {
  const steps = execution.steps.map((step) => ({ key: step.key, status: step.status, durationMs: step.duration_ms }));
  const remaining = steps.filter((step) => step.status !== 'done').length;
  const running = isRunUnderWay(execution.status);
  return {
    status: execution.status,
    steps,
    current: Math.min(Math.max(execution.current_step, 0), Math.max(steps.length - 1, 0)),
    secondsLeft: running ? (execution.estimated_seconds_left ?? fallbackSecondsLeft(remaining)) : null,
  };
}

const RUN_STATUSES = ['queued', 'running', 'awaiting_review', 'completed', 'error', 'cancelled', 'rejected'] as const;
const STEP_STATUSES = ['done', 'running', 'pending', 'error'] as const;

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

const Video = styled('video')(({ theme }) => ({
  display: 'block',
  width: '100%',
  marginTop: theme.spacing(1),
  borderRadius: theme.shape.borderRadius,
  border: `1px solid ${theme.palette.divider}`,
}));

const RUN_TONE: Record<string, StatusTone> = {
  queued: 'waiting',
  running: 'running',
  awaiting_review: 'warning',
  completed: 'success',
  error: 'error',
};

/**
 * The time a run spent waiting for a worker, apart from the time it ran: "number 3 in the queue,
 * waiting for 12 sec" while queued, "waited 12 sec in the queue, running for 1 min" once taken.
 */
function timingText(t: TFunction<['processes', 'common']>, execution: Execution, locale: string, nowMs: number) {
  const queuedAt = Date.parse(execution.queued_at);
  if (execution.status === 'queued') {
    const waiting = formatSeconds(Math.max(0, nowMs - queuedAt) / 1000, locale);
    return execution.queue_position !== null
      ? t('execution.queue.waiting', { position: execution.queue_position, time: waiting })
      : t('execution.queue.waitingNoPosition', { time: waiting });
  }
  if (!execution.started_at) return null;
  const startedAt = Date.parse(execution.started_at);
  const waited = formatSeconds(Math.max(0, startedAt - queuedAt) / 1000, locale);
  const endMs = execution.finished_at ? Date.parse(execution.finished_at) : nowMs;
  const ran = formatSeconds(Math.max(0, endMs - startedAt) / 1000, locale);
  return execution.finished_at
    ? t('execution.queue.waitedRan', { waited, ran })
    : t('execution.queue.waitedRunning', { waited, ran });
}

/** What the owner is asked to confirm: stopping the run, or throwing its video away. */
type Confirming = 'cancel' | 'reject';

/**
 * Why a cancelled run says what it says. The server does not record who cancelled it (the owner,
 * or switching the process off before a scheduled run started), so the text names neither unless
 * the run never started, and otherwise says where it stopped.
 */
function cancelledText(t: TFunction<['processes', 'common']>, execution: Execution | undefined) {
  const started = execution?.steps.some((step) => step.started_at !== null || step.status === 'done') ?? false;
  if (!execution || !started) return t('execution.cancelledBeforeStart');
  const index = Math.min(Math.max(execution.current_step, 0), Math.max(execution.steps.length - 1, 0));
  return t('execution.cancelled', {
    step: index + 1,
    total: execution.steps.length,
    label: stepLabel(t, execution.steps[index]?.key ?? ''),
  });
}

/** How far the running step is, in words: "3 of 5 chapters narrated", "42% rendered"; null when unknown. */
function stepProgressText(t: TFunction<['processes', 'common']>, key: string, progress: Execution['progress'] | undefined) {
  if (!progress || progress.total <= 0) return null;
  const values = { done: progress.done, total: progress.total };
  if (progress.unit === 'chapters') return t('execution.stepProgress.chapters', values);
  if (progress.unit === 'images') return t('execution.stepProgress.images', values);
  if (key === 'generating_video') return t('execution.stepProgress.generating_video', values);
  if (key === 'publishing_video') return t('execution.stepProgress.publishing_video', values);
  return t('execution.stepProgress.percent', values);
}

function StepIcon({ status }: { status: string }) {
  if (status === 'done') return <CheckCircle color="success" />;
  if (status === 'running') return <CircularProgress size={20} aria-hidden />;
  if (status === 'error') return <ErrorOutline color="error" />;
  return <RadioButtonUnchecked color="disabled" />;
}

/**
 * The execution-status dialog: the step list with each step's state and duration, "step N of M",
 * a progress bar and the estimated time left, fetched again every 2 s while the run goes on, and a
 * confirmed "cancel execution". A failed run shows its error and a retry; a run with a video shows
 * it; a run whose video waits for the owner's review offers approve (at the process's next
 * publication time), publish now and a confirmed reject.
 */
export function ExecutionDialog({ process, onClose, onFeedback }: ExecutionDialogProps) {
  const { t } = useTranslation(['processes', 'common']);
  const locale = useLocale();
  const approveHintId = useId();
  const executionId = process.latest_execution_id;
  const [polling, setPolling] = useState(isRunUnderWay(process.status));
  const {
    currentData: execution,
    error,
    isError,
  } = useGetExecutionQuery(executionId ?? skipToken, { pollingInterval: polling ? EXECUTION_POLL_MS : 0 });
  // The execution of this dialog is the process's latest one; an older answer does not count.
  const current = execution && execution.id === executionId ? execution : undefined;
  // Under way: waiting in the queue or held by a worker (both can be cancelled, both are polled).
  const running = isRunUnderWay(current ? current.status : process.status);
  useEffect(() => setPolling(running), [running]);

  const [retryExecution, { isLoading: retrying }] = useRetryExecutionMutation();
  const [retryError, setRetryError] = useState<string | null>(null);
  const retry = async () => {
    if (!current) return;
    setRetryError(null);
    try {
      await retryExecution(current.id).unwrap();
      onFeedback('success', t('execution.retried', { name: process.name }));
    } catch (failure) {
      console.error('Failed to retry the execution', failure);
      setRetryError(errorDetail(failure) ?? t('execution.retryFailed'));
    }
  };

  const [cancelExecution, { isLoading: cancelling }] = useCancelExecutionMutation();
  const [approveExecution, { isLoading: approving, originalArgs: approval }] = useApproveExecutionMutation();
  const [rejectExecution, { isLoading: rejecting }] = useRejectExecutionMutation();
  // The confirmation keeps its text while it closes.
  const [confirming, setConfirming] = useState<Confirming>('cancel');
  const [confirmOpen, setConfirmOpen] = useState(false);
  const ask = (what: Confirming) => {
    setConfirming(what);
    setConfirmOpen(true);
  };
  const [actionError, setActionError] = useState<string | null>(null);
  const reviewing = approving || rejecting;

  const cancel = async () => {
    if (!executionId) return;
    setActionError(null);
    try {
      await cancelExecution(executionId).unwrap();
      onFeedback('success', t('execution.cancel.done', { name: process.name }));
    } catch (failure) {
      console.error('Failed to cancel the execution', failure);
      setActionError(errorDetail(failure) ?? t('execution.cancel.failed'));
    } finally {
      setConfirmOpen(false);
    }
  };

  const approve = async (when: ApprovalTime) => {
    if (!current) return;
    setActionError(null);
    try {
      await approveExecution({ id: current.id, when }).unwrap();
      onFeedback(
        'success',
        when === 'now'
          ? t('execution.review.published', { name: process.name })
          : t('execution.review.approved', { name: process.name, time: process.publication_time }),
      );
    } catch (failure) {
      console.error('Failed to approve the execution', failure);
      setActionError(errorDetail(failure) ?? t('execution.review.approveFailed'));
    }
  };

  const reject = async () => {
    if (!current) return;
    setActionError(null);
    try {
      await rejectExecution(current.id).unwrap();
      onFeedback('success', t('execution.review.rejected', { name: process.name }));
    } catch (failure) {
      console.error('Failed to reject the execution', failure);
      setActionError(errorDetail(failure) ?? t('execution.review.rejectFailed'));
    } finally {
      setConfirmOpen(false);
    }
  };

  const view = current ? viewOfExecution(current) : viewOfProcess(process);
  const total = view?.steps.length ?? 0;
  const done = view?.steps.filter((step) => step.status === 'done').length ?? 0;
  const completed = view?.status === 'completed';
  const failed = view?.status === 'error';
  const progress = total === 0 ? 0 : completed ? 100 : Math.round((done / total) * 100);
  const stepNumber = completed ? total : (view?.current ?? 0) + 1;
  const runStatus = view?.status;
  const runStatusLabel = runStatus && isOneOf(RUN_STATUSES, runStatus) ? t(`execution.status.${runStatus}`) : runStatus;
  const awaitingReview = current?.status === 'awaiting_review';
  const timing = current ? timingText(t, current, locale, Date.now()) : null;
  const canCancel = running && executionId !== null;
  const video = current?.video_url ? (
    <Video
      controls
      preload="metadata"
      src={current.video_url}
      poster={current.thumbnail_url ?? undefined}
      aria-label={t('execution.video', { title: current.story_title ?? process.name })}
    />
  ) : null;

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t('execution.title', { name: process.name })}</DialogTitle>
      <DialogContent>
        {isError && !current && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {[t('execution.loadFailed'), errorDetail(error)].filter(Boolean).join(' ')}
          </Alert>
        )}
        {!view && !isError && (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress aria-label={t('common:loading')} />
          </Box>
        )}
        {view && (
          <>
            <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
                {t('execution.stepOf', { step: stepNumber, total })}
              </Typography>
              {runStatusLabel && <StatusChip tone={RUN_TONE[runStatus ?? ''] ?? 'neutral'} label={runStatusLabel} />}
            </Box>
            <LinearProgress
              variant="determinate"
              value={progress}
              color={failed ? 'error' : completed ? 'success' : awaitingReview ? 'warning' : 'primary'}
              aria-label={t('execution.progress')}
              sx={{ my: 1.5, height: 8, borderRadius: 4 }}
            />
            {view.secondsLeft !== null && (
              <Typography variant="body2" color="textSecondary">
                {/* The current step overran its measured mean: never promise "0 sec" while work remains. */}
                {Math.round(view.secondsLeft) < 1 && view.steps.some((step) => step.status !== 'done')
                  ? t('execution.overrun')
                  : t('execution.timeLeft', { time: formatSeconds(view.secondsLeft, locale) })}
              </Typography>
            )}
            {timing && (
              <Typography variant="body2" color="textSecondary">
                {timing}
              </Typography>
            )}
            {current?.story_title && (
              <Typography variant="body2" sx={{ mt: 1 }}>
                {t('execution.story', { title: current.story_title })}
              </Typography>
            )}
            {current?.finished_at && !running && (
              <Typography variant="body2" color="textSecondary">
                {t('execution.finishedAt', { date: formatDateTime(current.finished_at, { locale }) })}
              </Typography>
            )}
            {failed && (
              <Alert
                severity="error"
                sx={{ mt: 2 }}
                action={
                  current ? (
                    <Button color="inherit" size="small" startIcon={<Replay />} onClick={retry} disabled={retrying}>
                      {retrying ? t('execution.retrying') : t('execution.retry')}
                    </Button>
                  ) : undefined
                }
              >
                {current?.error ?? process.last_error ?? t('execution.failed')}
              </Alert>
            )}
            {retryError && (
              <Alert severity="error" role="alert" sx={{ mt: 2 }}>
                {retryError}
              </Alert>
            )}
            {current?.warnings.map((warning) => (
              <Alert key={warning} severity="warning" sx={{ mt: 2 }}>
                {warning}
              </Alert>
            ))}
            {runStatus === 'cancelled' && (
              <Alert severity="info" sx={{ mt: 2 }}>
                {cancelledText(t, current)}
              </Alert>
            )}
            {runStatus === 'rejected' && (
              <Alert severity="info" sx={{ mt: 2 }}>
                {t('execution.rejected')}
              </Alert>
            )}
            {awaitingReview && (
              <Box component="section" aria-label={t('execution.review.title')} sx={{ mt: 2 }}>
                <Alert severity="warning" role="note">
                  <AlertTitle>{t('execution.review.title')}</AlertTitle>
                  {t('execution.review.message')} {video && t('execution.review.watch')}
                </Alert>
                {video}
                <Box
                  role="group"
                  aria-label={t('execution.review.actions')}
                  sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1.5 }}
                >
                  <Button
                    variant="contained"
                    onClick={() => void approve('scheduled')}
                    disabled={reviewing}
                    aria-describedby={approveHintId}
                  >
                    {approving && approval?.when === 'scheduled'
                      ? t('execution.review.approving')
                      : t('execution.review.approve')}
                  </Button>
                  <Button variant="outlined" onClick={() => void approve('now')} disabled={reviewing}>
                    {approving && approval?.when === 'now' ? t('execution.review.publishing') : t('execution.review.publishNow')}
                  </Button>
                  <Button variant="outlined" color="error" onClick={() => ask('reject')} disabled={reviewing}>
                    {rejecting ? t('execution.review.rejecting') : t('execution.review.reject')}
                  </Button>
                </Box>
                <Typography id={approveHintId} variant="body2" color="textSecondary" sx={{ mt: 1 }}>
                  {t('execution.review.approveHint', { time: process.publication_time })}
                </Typography>
              </Box>
            )}
            {actionError && (
              <Alert severity="error" role="alert" sx={{ mt: 2 }}>
                {actionError}
              </Alert>
            )}
            <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
              {t('execution.steps')}
            </Typography>
            <List dense aria-label={t('execution.steps')}>
              {view.steps.map((step, index) => {
                const status = isOneOf(STEP_STATUSES, step.status) ? t(`execution.stepStatus.${step.status}`) : step.status;
                const within = step.status === 'running' && running ? stepProgressText(t, step.key, current?.progress) : null;
                const detail =
                  step.durationMs !== null
                    ? `${status} · ${formatDuration(step.durationMs, locale)}`
                    : within
                      ? `${status} · ${within}`
                      : status;
                return (
                  <ListItem
                    key={`${index}-${step.key}`}
                    disableGutters
                    aria-current={step.status === 'running' ? 'step' : undefined}
                  >
                    <ListItemIcon sx={{ minWidth: 36 }} aria-hidden>
                      <StepIcon status={step.status} />
                    </ListItemIcon>
                    <ListItemText
                      primary={stepLabel(t, step.key)}
                      secondary={detail}
                      slotProps={{
                        primary: { sx: { fontWeight: step.status === 'running' ? 600 : undefined } },
                      }}
                    />
                  </ListItem>
                );
              })}
            </List>
            {!awaitingReview && video}
          </>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        {canCancel && (
          <Button color="error" onClick={() => ask('cancel')} disabled={cancelling} sx={{ mr: 'auto' }}>
            {cancelling ? t('execution.cancel.cancelling') : t('execution.cancel.action')}
          </Button>
        )}
        <Button onClick={onClose} color="inherit">
          {t('common:actions.close')}
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={confirmOpen}
        title={
          confirming === 'reject'
            ? t('execution.review.rejectTitle', { name: process.name })
            : t('execution.cancel.title', { name: process.name })
        }
        message={confirming === 'reject' ? t('execution.review.rejectMessage') : t('execution.cancel.message')}
        confirmLabel={confirming === 'reject' ? t('execution.review.rejectConfirm') : t('execution.cancel.confirm')}
        busyLabel={confirming === 'reject' ? t('execution.review.rejecting') : t('execution.cancel.cancelling')}
        onConfirm={confirming === 'reject' ? reject : cancel}
        onClose={() => setConfirmOpen(false)}
      />
    </Dialog>
  );
}
