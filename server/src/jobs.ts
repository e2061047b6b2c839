import type { Language } from './messages';

/**
 * The jobs of the queue: their names and what each carries. A leaf, so the queue (queue.ts), the
 * services that enqueue and the workers that run them all share one description without
 * importing each other.
 */

/** The engine's queues: one job per execution run, statistics, emails, alerts, retention (and the tick of earlier versions, kept to unschedule it). */
export const QUEUES = {
  execution: 'execution-run',
  tick: 'scheduler-tick',
  stats: 'publication-stats',
  email: 'auth-email',
  alert: 'alert',
  retention: 'retention',
} as const;

/** One run of an execution (QUEUES.execution). */
export interface ExecutionJob {
  executionId: string;
}

/** A statistics refresh of one user's publications (QUEUES.stats; the schedule sends none). */
export interface StatsJob {
  userId?: string;
}

/** An email the auth service sends from the job queue (never inside the request that asks for it). */
export type AuthEmailJob =
  { kind: 'reset'; email: string; language: Language } | { kind: 'verify'; userId: string; language: Language };

export const ALERT_CAUSES = ['run_failed', 'authorization', 'quota', 'review'] as const;
export type AlertCause = (typeof ALERT_CAUSES)[number];

/** An alert to the owner of a process (services/alerts.ts sends it: an email and the user's webhook). */
export interface AlertJob {
  userId: string;
  processId: string;
  cause: AlertCause;
  executionId?: string;
  /** The run's error (a message key and its params); put in the owner's words when the alert is sent. */
  errorKey?: string;
  errorParams?: Record<string, string | number>;
  errorText?: string;
}
