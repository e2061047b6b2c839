import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import PlayArrow from '@mui/icons-material/PlayArrow';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import ToggleOff from '@mui/icons-material/ToggleOff';
import ToggleOn from '@mui/icons-material/ToggleOn';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Process } from '../../api';
import { useLocale } from '../../components';
import { LanguageLabel } from '../../components/LanguageFlag';
import { StatusChip } from '../../components/StatusChip';
import { formatDate, formatDaysAgo } from '../../lib/dates';
import { UNKNOWN_FIGURE } from '../../lib/numbers';
import { needLabel, runningStep, statusLabel, statusTone, stepLabel } from './labels';
import { DIMMED_OPACITY } from '../../components/dimmed';
import { FactList } from '../../components/FactList';

export type ProcessAction = 'execute' | 'toggle' | 'edit' | 'channel' | 'details' | 'delete';

export interface ProcessCardProps {
  process: Process;
  /** The toggle of this process is on its way. */
  toggling?: boolean;
  onAction: (action: ProcessAction, process: Process) => void;
}

function IconAction({
  label,
  tooltip = label,
  onClick,
  disabled,
  color,
  children,
}: {
  label: string;
  tooltip?: string;
  onClick: () => void;
  disabled?: boolean;
  color?: 'default' | 'primary' | 'success' | 'error';
  children: ReactNode;
}) {
  return (
    <Tooltip title={tooltip} describeChild>
      <span>
        <IconButton aria-label={label} onClick={onClick} disabled={disabled} color={color}>
          {children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

/**
 * One process: status (a running one opens the execution status, one awaiting review opens the
 * video to review), channel, language, voice, prompt, publication time (and whether it waits for
 * the owner's review), last and next execution, what it lacks to run, and its actions.
 */
export function ProcessCard({ process, toggling = false, onAction }: ProcessCardProps) {
  const { t } = useTranslation(['processes', 'common']);
  const locale = useLocale();
  const { name, is_active: active } = process;
  const queued = process.status === 'queued';
  const running = process.status === 'running' || queued;
  const awaitingReview = process.status === 'awaiting_review';
  const step = runningStep(process);
  // The status chip opens the execution dialog while the run goes on or waits for its owner.
  const chipAction = queued
    ? t('card.openQueued', { name })
    : running
      ? t('card.openStatus', { name })
      : awaitingReview && process.latest_execution_id
        ? t('card.openReview', { name })
        : null;

  let lastExecution: string;
  if (process.last_execution) {
    lastExecution = t('card.lastExecutionValue', {
      date: formatDate(process.last_execution, { locale }),
      ago: formatDaysAgo(process.last_execution, { locale }),
    });
  } else {
    lastExecution = active ? t('card.waitingFirst') : t('card.neverExecuted');
  }

  const facts: [string, ReactNode][] = [
    [t('card.channel'), process.channel_name ?? UNKNOWN_FIGURE],
    [t('card.language'), <LanguageLabel code={process.language} />],
    [t('card.format'), process.format === 'short' ? t('card.formatShort') : t('card.formatVideo')],
    [t('card.voice'), process.voice_name ?? UNKNOWN_FIGURE],
    [t('card.prompt'), process.prompt_name ?? UNKNOWN_FIGURE],
    [
      t('card.music'),
      !process.music_id
        ? t('card.noMusic')
        : process.music_active === false
          ? t('card.musicOff', { name: process.music_name ?? '' })
          : (process.music_name ?? UNKNOWN_FIGURE),
    ],
    [
      t('card.publicationTime'),
      process.publish_mode === 'review'
        ? t('card.publicationTimeReview', { time: process.publication_time })
        : process.publication_time,
    ],
    [t('card.lastExecution'), lastExecution],
    [t('card.nextExecution'), formatDate(process.next_execution, { locale }) || UNKNOWN_FIGURE],
  ];

  const chip = <StatusChip tone={statusTone(process.status)} label={statusLabel(t, process.status)} />;
  const toggleLabel = active ? t('card.disable', { name }) : t('card.enable', { name });

  return (
    <Paper
      component="article"
      variant="outlined"
      aria-label={name}
      sx={{ p: 2.5, display: 'flex', flexDirection: 'column', gap: 2, height: '100%', minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, flex: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 1 }}>
          <Typography
            variant="h6"
            component="h2"
            title={name}
            sx={{
              fontSize: '1.05rem',
              fontWeight: 600,
              minWidth: 0,
              overflowWrap: 'anywhere',
              opacity: active ? 1 : DIMMED_OPACITY,
            }}
          >
            {name}
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 0.5, flexShrink: 0 }}>
            {!active && <StatusChip tone="disabled" label={t('common:status.disabled')} />}
            {chipAction ? (
              <Tooltip title={chipAction}>
                <ButtonBase
                  focusRipple
                  aria-label={chipAction}
                  onClick={() => onAction('details', process)}
                  sx={{ borderRadius: 4 }}
                >
                  {chip}
                </ButtonBase>
              </Tooltip>
            ) : (
              chip
            )}
          </Box>
        </Box>
        <Box sx={{ opacity: active ? 1 : DIMMED_OPACITY, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          {step && (
            <Typography variant="body2" sx={{ color: 'info.main', fontWeight: 600 }}>
              {queued
                ? t('card.queued')
                : t('card.runningStep', { step: step.number, total: step.total, label: stepLabel(t, step.key) })}
            </Typography>
          )}
          {awaitingReview && (
            <Typography variant="body2" sx={{ color: 'warning.main', fontWeight: 600 }}>
              {t('card.reviewPending')}
            </Typography>
          )}
          <FactList facts={facts} />
        </Box>
        {process.needs.length > 0 && (
          <Alert severity="warning" variant="outlined" role="note" sx={{ py: 0 }}>
            {t('needs.title', { list: process.needs.map((need) => needLabel(t, need)).join('; ') })}
          </Alert>
        )}
        {process.status === 'error' && process.last_error && (
          <Typography variant="body2" sx={{ color: 'error.main', overflowWrap: 'anywhere' }}>
            {t('card.lastError', { message: process.last_error })}
          </Typography>
        )}
      </Box>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          justifyContent: 'flex-end',
          gap: 0.5,
          borderTop: 1,
          borderColor: 'divider',
          pt: 1,
        }}
      >
        <IconAction
          label={t('card.execute', { name })}
          tooltip={running ? t('card.alreadyRunning', { name }) : undefined}
          onClick={() => onAction('execute', process)}
          disabled={running}
          color="primary"
        >
          <PlayArrow />
        </IconAction>
        <IconAction
          label={toggleLabel}
          onClick={() => onAction('toggle', process)}
          disabled={toggling}
          color={active ? 'success' : 'default'}
        >
          {active ? <ToggleOn /> : <ToggleOff />}
        </IconAction>
        <IconAction label={t('card.edit', { name })} onClick={() => onAction('edit', process)}>
          <EditOutlined />
        </IconAction>
        <IconAction label={t('card.changeChannel', { name })} onClick={() => onAction('channel', process)}>
          <SwapHoriz />
        </IconAction>
        {!running && process.latest_execution_id && (
          <IconAction label={t('card.details', { name })} onClick={() => onAction('details', process)}>
            <InfoOutlined />
          </IconAction>
        )}
        <IconAction label={t('card.delete', { name })} onClick={() => onAction('delete', process)} color="error">
          <DeleteOutline />
        </IconAction>
      </Box>
    </Paper>
  );
}
