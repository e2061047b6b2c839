import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutlined';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Replay from '@mui/icons-material/Replay';
import { skipToken } from '@reduxjs/toolkit/query';
import Alert from '@mui/material/Alert';
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
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  errorDetail,
  useGetExecutionQuery,
  useRetryExecutionMutation,
  type Execution,
  type ExecutionStepStatus,
  type Process,
} from '../../api';
import { useLocale } from '../../components';
import { StatusChip, type StatusTone } from '../../components/StatusChip';
import { formatDateTime } from '../../lib/dates';
import { fallbackSecondsLeft, formatDuration, formatSeconds, runningStep, stepLabel } from './labels';

/** How often a running execution is fetched again. */
export const EXECUTION_POLL_MS = 2000;

export interface ExecutionDialogProps {
  process: Process;
  onClose: () => void;
  /** Reports a retry's outcome to the page's snackbar. */
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
  const steps = process.execution_steps.map((key, index) => ({
    key,
    status: index < step.index ? 'done' : index === step.index ? 'running' : 'pending',
    durationMs: null,
  }));
  return { status: 'running', steps, current: step.index, secondsLeft: fallbackSecondsLeft(step.total - step.index) };
}

function viewOfExecution(execution: Execution): RunView {
  const steps = execution.steps.map((step) => ({ key: step.key, status: step.status, durationMs: step.duration_ms }));
  const remaining = steps.filter((step) => step.status !== 'done').length;
  const running = execution.status === 'running';
  return {
    status: execution.status,
    steps,
    current: Math.min(Math.max(execution.current_step, 0), Math.max(steps.length - 1, 0)),
    secondsLeft: running ? (execution.estimated_seconds_left ?? fallbackSecondsLeft(remaining)) : null,
  };
}

const RUN_STATUSES = ['running', 'completed', 'error', 'cancelled'] as const;
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

const RUN_TONE: Record<string, StatusTone> = { running: 'running', completed: 'success', error: 'error' };

function StepIcon({ status }: { status: string }) {
  if (status === 'done') return <CheckCircle color="success" />;
  if (status === 'running') return <CircularProgress size={20} aria-hidden />;
  if (status === 'error') return <ErrorOutline color="error" />;
  return <RadioButtonUnchecked color="disabled" />;
}

/**
 * The execution-status dialog: the step list with each step's state and duration, "step N of M",
 * a progress bar and the estimated time left, fetched again every 2 s while the run goes on. A
 * failed run shows its error and a retry; a run with a video shows it.
 */
export function ExecutionDialog({ process, onClose, onFeedback }: ExecutionDialogProps) {
  const { t } = useTranslation(['processes', 'common']);
  const locale = useLocale();
  const executionId = process.latest_execution_id;
  const [polling, setPolling] = useState(process.status === 'running');
  const {
    currentData: execution,
    error,
    isError,
  } = useGetExecutionQuery(executionId ?? skipToken, { pollingInterval: polling ? EXECUTION_POLL_MS : 0 });
  // The execution of this dialog is the process's latest one; an older answer does not count.
  const current = execution && execution.id === executionId ? execution : undefined;
  const running = current ? current.status === 'running' : process.status === 'running';
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

  const view = current ? viewOfExecution(current) : viewOfProcess(process);
  const total = view?.steps.length ?? 0;
  const done = view?.steps.filter((step) => step.status === 'done').length ?? 0;
  const completed = view?.status === 'completed';
  const failed = view?.status === 'error';
  const progress = total === 0 ? 0 : completed ? 100 : Math.round((done / total) * 100);
  const stepNumber = completed ? total : (view?.current ?? 0) + 1;
  const runStatus = view?.status;
  const runStatusLabel = runStatus && isOneOf(RUN_STATUSES, runStatus) ? t(`execution.status.${runStatus}`) : runStatus;

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
              color={failed ? 'error' : completed ? 'success' : 'primary'}
              aria-label={t('execution.progress')}
              sx={{ my: 1.5, height: 8, borderRadius: 4 }}
            />
            {view.secondsLeft !== null && (
              <Typography variant="body2" color="textSecondary">
                {t('execution.timeLeft', { time: formatSeconds(view.secondsLeft, locale) })}
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
                {t('execution.cancelled')}
              </Alert>
            )}
            <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
              {t('execution.steps')}
            </Typography>
            <List dense aria-label={t('execution.steps')}>
              {view.steps.map((step, index) => {
                const status = isOneOf(STEP_STATUSES, step.status) ? t(`execution.stepStatus.${step.status}`) : step.status;
                const detail = step.durationMs !== null ? `${status} · ${formatDuration(step.durationMs, locale)}` : status;
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
            {current?.video_url && (
              <Video
                controls
                preload="metadata"
                src={current.video_url}
                poster={current.thumbnail_url ?? undefined}
                aria-label={t('execution.video', { title: current.story_title ?? process.name })}
              />
            )}
          </>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} color="inherit">
          {t('common:actions.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
