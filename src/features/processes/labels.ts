/** How processes and executions are named and coloured on screen. */
import type { TFunction } from 'i18next';
import { EXECUTION_STEP_KEYS, type ExecutionStepKey, type Process, type ProcessNeed, type ProcessStatus } from '../../api';
import type { StatusTone } from '../../components/StatusChip';
import { SECONDS_PER_REMAINING_STEP } from '../../lib/constants';

type T = TFunction<['processes', 'common']>;

const STATUS_TONE: Record<ProcessStatus, StatusTone> = {
  idle: 'neutral',
  queued: 'waiting',
  running: 'running',
  awaiting_review: 'warning',
  completed: 'success',
  error: 'error',
  cancelled: 'neutral',
};

const NEEDS: readonly ProcessNeed[] = [
  'channel',
  'channel_disabled',
  'youtube_api',
  'channel_mismatch',
  'prompt',
  'voice',
  'youtube_api_disabled',
  'prompt_inactive',
  'voice_inactive',
  'language',
];

function isProcessStatus(status: string): status is ProcessStatus {
  return Object.hasOwn(STATUS_TONE, status);
}

/** idle grey, running blue, awaiting review amber, completed green, error red; any other value the generic colour. */
export function statusTone(status: string): StatusTone {
  return isProcessStatus(status) ? STATUS_TONE[status] : 'neutral';
}

/** The translated status; an unknown one is shown as the server sent it. */
export function statusLabel(t: T, status: string): string {
  return isProcessStatus(status) ? t(`processes:status.${status}`) : status;
}

/** The translated step ("Generating audios"); an unknown key as sent. */
export function stepLabel(t: T, key: string): string {
  return (EXECUTION_STEP_KEYS as readonly string[]).includes(key) ? t(`processes:steps.${key as ExecutionStepKey}`) : key;
}

/** "its channel was removed", …; an unknown need as sent. */
export function needLabel(t: T, need: string): string {
  return (NEEDS as readonly string[]).includes(need) ? t(`processes:needs.${need as ProcessNeed}`) : need;
}

/** The step a process's run is at (queued or running), from its own fields (1-based), or null. */
export function runningStep(process: Pick<Process, 'status' | 'execution_step' | 'execution_steps'>) {
  if (
    (process.status !== 'running' && process.status !== 'queued') ||
    !process.execution_steps ||
    process.execution_steps.length === 0
  )
    return null;
  const index = Math.min(Math.max(process.execution_step ?? 0, 0), process.execution_steps.length - 1);
  return { index, number: index + 1, total: process.execution_steps.length, key: process.execution_steps[index] };
}

/** Spec §9: 2 seconds per remaining step (the running one included) when the server gives no estimate. */
export function fallbackSecondsLeft(remainingSteps: number): number {
  return Math.max(remainingSteps, 0) * SECONDS_PER_REMAINING_STEP;
}

function unit(value: number, name: 'second' | 'minute' | 'hour', locale: string, fractionDigits = 0): string {
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: name,
    unitDisplay: 'short',
    maximumFractionDigits: fractionDigits,
  }).format(value);
}

/** "14 sec", "2 min 5 sec", "1 hr 3 min" (in the locale's words). */
export function formatSeconds(totalSeconds: number, locale: string): string {
  const seconds = Math.max(Math.round(totalSeconds), 0);
  if (seconds < 60) return unit(seconds, 'second', locale);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours > 0)
    return minutes > 0 ? `${unit(hours, 'hour', locale)} ${unit(minutes, 'minute', locale)}` : unit(hours, 'hour', locale);
  return rest > 0 ? `${unit(minutes, 'minute', locale)} ${unit(rest, 'second', locale)}` : unit(minutes, 'minute', locale);
}

/** A step's duration: "1.2 sec" under a minute, else as formatSeconds. */
export function formatDuration(milliseconds: number, locale: string): string {
  const seconds = milliseconds / 1000;
  return seconds < 60 ? unit(seconds, 'second', locale, seconds < 10 ? 1 : 0) : formatSeconds(seconds, locale);
}
