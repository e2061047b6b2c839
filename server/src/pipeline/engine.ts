import crypto from 'node:crypto';
import os from 'node:os';
import { assertPublicUrl } from '../lib/egress';
import { providerErrorOf } from '../lib/metrics';
import type { Config } from '../config';
import { QUEUE_SCHEMA, enqueueExecutions, type Queue } from '../queue';
import type { Services } from '../services';
import { isDatabaseUnavailable } from '../db/errors';
import { CLAIM_BATCH, LeaseLost } from '../services/executionRuns';
import { PROCESS_STEPS } from '../runLayout';
import type { AlertCause, AlertJob } from '../jobs';
import { proxyDispatcher } from '../providers/proxies';
import type { ChatModelClient } from '../providers/chatModel';
import { RunAborted, StepFailure, type Checkpoint, type Logger, type StepContext } from './context';
import { STEPS } from './steps';

/**
 * The execution engine: runs an execution's steps from where it stands (a retry or a resumed run
 * skips what its checkpoint holds), keeps a heartbeat while it runs, starts scheduled runs, and
 * finds runs a dead worker left behind. pg-boss delivers the jobs (see worker/start.ts).
 */

/** How often a running worker touches its execution (and learns that it was cancelled). */
export const HEARTBEAT_MS = 2_000;
/** A running execution not heard of for this long belongs to a dead worker (LEASE_STALE_SECONDS' default). */
export const STALE_AFTER_MS = 90_000;
/** How long a run whose database went away waits for it, and how often it checks. */
export const DATABASE_WAIT_MS = 30 * 60_000;
export const DATABASE_WAIT_STEP_MS = 2_000;
/** A run left by dead workers is resumed this many times, then ended in error. */
export const MAX_RECOVERIES = 2;

export interface EngineDeps {
  services: Services;
  config: Config;
  log: Logger;
  /** To look up job states while recovering (absent in tests that run executions by hand). */
  queue?: Queue;
  now?: () => Date;
}

export interface Engine {
  /** Runs (or resumes) one execution; `jobId` is the pg-boss job that asked. */
  run(executionId: string, jobId?: string | null): Promise<void>;
  /** Starts the runs that are due; answers how many started. */
  tick(): Promise<number>;
  /**
   * Resumes or ends runs left by dead workers. `exclusive`: this process is the only worker (the
   * embedded database), so every running execution not waiting in the queue is an orphan.
   */
  recover(exclusive: boolean): Promise<number>;
  /** Aborts the runs in progress (the server is stopping); they are handed back, see stopAll. */
  abortAll(): void;
  /**
   * Stops the runs in progress and waits for each to hand its run back: the lease released and the
   * run queued again, so another worker (or the next start) goes on without counting a recovery.
   */
  stopAll(): Promise<void>;
}

/** Which alert a run's failure is: the YouTube authorization, a quota, or any other failure. */
export function alertCauseOf(key: string): AlertCause {
  if (key === 'pipeline.youtubeRevoked') return 'authorization';
  if (key === 'pipeline.youtubeQuota' || key === 'pipeline.quota') return 'quota';
  return 'run_failed';
}

function englishReason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

export function createEngine({ services, config, log, queue, now = () => new Date() }: EngineDeps): Engine {
  const { runs, executions } = services;
  const inProgress = new Map<string, AbortController>();
  /** Who this engine is in a lease: host, process and a nonce (one process may run two engines in tests). */
  const owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;

  /**
   * The run's proxy: one of the admins' active proxies (http, https or socks5), picked by the execution id. A proxy
   * on a private or local address is passed over unless ALLOW_PRIVATE_URLS (its address is a user's too).
   */
  async function proxyFor(executionId: string): Promise<string | undefined> {
    const urls: string[] = [];
    for (const url of await services.proxies.outboundUrls()) {
      if (
        config.allowPrivateUrls ||
        (await assertPublicUrl(url).then(
          () => true,
          () => false,
        ))
      )
        urls.push(url);
      else log.warn({ proxy: new URL(url).host }, 'proxy on a private address passed over (ALLOW_PRIVATE_URLS is off)');
    }
    if (urls.length === 0) return undefined;
    const index = crypto.createHash('sha256').update(executionId).digest().readUInt32BE(0) % urls.length;
    return urls[index];
  }

  /** Why a run was stopped from outside: the server is stopping, or the run is not ours any more. */
  type StopReason = 'shutdown' | 'lost';
  /** A step's percentage is written at most this often (its first and last reports always). */
  const PROGRESS_INTERVAL_MS = 1000;

  async function run(executionId: string, jobId: string | null = null): Promise<void> {
    // The claim answers the run's process too (one statement): a run costs as few round trips as it can.
    const claimed = await runs.claim(executionId, jobId, owner);
    if (!claimed) return;
    const { lease, process } = claimed;
    let row = claimed.row;
    if (!process) return;

    const controller = new AbortController();
    inProgress.set(executionId, controller);
    // Every couple of seconds: the heartbeat, which also tells whether the run is still ours
    // (a cancel, a delete or a recovery takes it away): then everything stops at once.
    const beat = setInterval(() => {
      runs
        .heartbeat(lease)
        .then((alive) => {
          if (!alive && !controller.signal.aborted) controller.abort('lost' satisfies StopReason);
        })
        .catch((error: unknown) => log.warn({ err: error, executionId }, 'heartbeat failed'));
    }, HEARTBEAT_MS);
    beat.unref();

    const checkpoint = { ...row.checkpoint } as Checkpoint;
    let lastProgressAt: number | undefined;
    let lastProgressKey: string | undefined;
    let chatClient: Promise<ChatModelClient> | undefined;
    const proxyUrl = await proxyFor(executionId);
    const dispatcher = proxyDispatcher(proxyUrl);
    const ctx: StepContext = {
      execution: row,
      process,
      userId: row.userId,
      language: row.language,
      workDir: await executions.storage.workDir(executionId),
      checkpoint,
      save: () => runs.saveCheckpoint(lease, checkpoint, checkpoint.texts?.title),
      lease,
      assertHeld: () => runs.assertHeld(lease),
      signal: controller.signal,
      services,
      config,
      log,
      proxyUrl,
      dispatcher,
      chat() {
        // One client for the whole run (a story asks a dozen times): the stored key is read and
        // decrypted and the client built once, not once per call. A failed attempt is not kept.
        chatClient ??= services.chatModel
          .clientFor(row.userId, {
            timeoutMs: config.outboundTimeoutMs,
            maxRetries: 4,
            ...(dispatcher ? { dispatcher } : {}),
          })
          .then((client) => {
            if (!client) throw new StepFailure('pipeline.chatModelMissing', {}, 'no chat-model key');
            return client;
          })
          .catch((error: unknown) => {
            chatClient = undefined;
            throw error;
          });
        return chatClient;
      },
      recordCall: (service, operation) => runs.recordCall(row.userId, executionId, service, operation),
      now,
      async progress(done, total, unit) {
        const at = performance.now();
        // Chapters and images come seconds apart; percentages many times a second.
        const due =
          unit !== 'percent' || done >= total || lastProgressAt === undefined || at - lastProgressAt >= PROGRESS_INTERVAL_MS;
        const key = `${unit}:${done}/${total}`;
        if (!due || key === lastProgressKey) return;
        lastProgressAt = at;
        lastProgressKey = key;
        await runs
          .saveProgress(lease, { unit, done: Math.min(done, total), total })
          .catch((error: unknown) => log.warn({ err: error, executionId }, 'progress not saved'));
      },
    };

    const first = row.currentStep;
    let index = first;
    /** The step whose start the previous step's end already recorded (runs.stepFinished's `next`). */
    let startRecorded: number | undefined;
    try {
      for (; index < PROCESS_STEPS.length; index += 1) {
        if (controller.signal.aborted) throw new RunAborted();
        const key = PROCESS_STEPS[index]!;
        // The server stopped after this step finished and before the next began: not made again.
        if (index === first && row.stepTimes[key]?.finishedAt) continue;
        if (startRecorded !== index) row = await runs.stepStarted(lease, row, index);
        ctx.execution = row;
        lastProgressAt = undefined;
        lastProgressKey = undefined;
        // Debug, not info: a busy worker starts hundreds of steps a second, and each log line is a
        // write to the log (the step's times are in the execution's record anyway).
        log.debug?.({ executionId, step: key }, 'step started');
        const stepStarted = performance.now();
        await STEPS[key](ctx);
        if (controller.signal.aborted) throw new RunAborted();
        // The next step starts in the same statement (one round trip less a step).
        const next = index + 1 < PROCESS_STEPS.length ? index + 1 : undefined;
        row = await runs.stepFinished(lease, row, index, checkpoint, next);
        startRecorded = next;
        services.metrics.stepDuration.observe({ step: key }, (performance.now() - stepStarted) / 1000);
      }
      if ((checkpoint.publication as { review?: boolean } | undefined)?.review) {
        await runs.awaitReview(lease, row);
        log.info({ executionId }, 'execution waiting for review');
        services.metrics.executions.inc({ outcome: 'awaiting_review' });
        await tidy(executionId);
        await alert({ userId: row.userId, processId: row.processId, cause: 'review', executionId });
      } else {
        await runs.complete(lease, row);
        log.info({ executionId }, 'execution completed');
        services.metrics.executions.inc({ outcome: 'completed' });
        await tidy(executionId);
      }
    } catch (error) {
      const reason = controller.signal.aborted ? (controller.signal.reason as StopReason | undefined) : undefined;
      if (error instanceof LeaseLost || reason === 'lost') {
        log.info({ executionId, step: PROCESS_STEPS[index] }, 'execution stopped: it is no longer this worker’s');
        services.metrics.executions.inc({ outcome: 'lost' });
        // Cancelled or deleted: whoever took it decides; deleted with its process: nothing may stay on disk.
        if (!(await runs.load(executionId))) await executions.storage.remove(executionId);
        return;
      }
      if (isDatabaseUnavailable(error)) {
        // PostgreSQL went away (a restart, a failover): the run is not failed for good. It waits for
        // the database, then is handed back and queued again; whoever takes it goes on from the last
        // checkpoint, so nothing already paid for (a saved story, an upload) is done twice.
        log.warn({ executionId, step: PROCESS_STEPS[index] }, 'database unreachable: the run waits for it');
        services.metrics.executions.inc({ outcome: 'database_unavailable' });
        if (await waitForDatabase(controller.signal)) {
          if (await runs.release(lease).catch(() => false)) {
            await executions.resume(executionId, row.processId).catch((failure: unknown) => {
              log.warn({ err: failure, executionId }, 'run not queued again: the recovery will');
            });
            log.info({ executionId }, 'database back: the run is queued again');
          }
        }
        return;
      }
      if (error instanceof RunAborted || reason === 'shutdown') {
        // A graceful stop hands the run back without spending a recovery: queued again at once,
        // another worker (or this server's next start) goes on from the checkpoint.
        log.info({ executionId, step: PROCESS_STEPS[index] }, 'execution handed back (the server is stopping)');
        services.metrics.executions.inc({ outcome: 'handed_back' });
        if (await runs.release(lease)) await executions.resume(executionId, row.processId).catch(() => undefined);
        return;
      }
      const failure =
        error instanceof StepFailure
          ? { key: error.key, params: error.params, text: error.message }
          : { key: 'pipeline.failed' as const, params: {}, text: englishReason(error) };
      if (!(error instanceof StepFailure)) log.error({ err: error, executionId, step: PROCESS_STEPS[index] }, 'step crashed');
      else log.warn({ executionId, step: PROCESS_STEPS[index], reason: error.message }, 'execution failed');
      await runs.fail(row, failure, lease);
      services.metrics.executions.inc({ outcome: 'error' });
      const provider = providerErrorOf(failure.key, failure.params);
      if (provider) services.metrics.providerErrors.inc(provider);
      await alert({
        userId: row.userId,
        processId: row.processId,
        cause: alertCauseOf(failure.key),
        executionId,
        errorKey: failure.key,
        errorParams: failure.params,
        errorText: failure.text,
      });
    } finally {
      clearInterval(beat);
      inProgress.delete(executionId);
      await dispatcher?.close().catch(() => undefined);
    }
  }

  /**
   * Waits until the database answers again (a check every DATABASE_WAIT_STEP_MS), or the run is
   * stopped, or DATABASE_WAIT_MS passed (the recovery takes the run over then). True once it answers.
   */
  async function waitForDatabase(signal: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + DATABASE_WAIT_MS;
    while (Date.now() < deadline && !(signal.aborted && signal.reason === 'shutdown')) {
      if ((await services.health()).database === 'ok') return true;
      await new Promise((resolve) => setTimeout(resolve, DATABASE_WAIT_STEP_MS));
    }
    return false;
  }

  /** A run that ended well keeps only its video, thumbnail and texts (services/retention.ts). */
  async function tidy(executionId: string): Promise<void> {
    const { files, bytes } = await services.retention.pruneRun(executionId).catch((error: unknown) => {
      log.warn({ err: error, executionId }, 'intermediate files not removed');
      return { files: 0, bytes: 0 };
    });
    if (files > 0) log.info({ executionId, files, bytes }, 'intermediate files removed');
  }

  /** Tells the owner (services/alerts.ts); an alert that cannot be sent never changes the run. */
  async function alert(job: AlertJob): Promise<void> {
    await services.alerts.notify(job).catch((error: unknown) => log.warn({ err: error, ...job }, 'alert not queued'));
  }

  async function tick(): Promise<number> {
    let started = 0;
    const claimStarted = performance.now();
    const due = await runs.claimDue();
    const claimMs = Math.round(performance.now() - claimStarted);
    if (due.length > 0) log.info({ claimed: due.length, claimMs }, 'scheduler claimed due processes');
    const queueStarted = performance.now();
    const free: string[] = [];
    for (const { processId, running } of due) {
      if (running) log.info({ processId }, 'scheduled run skipped: the process is already running');
      else free.push(processId);
    }
    // A batch's runs are created in one transaction and sent to pg-boss in one statement
    // (runs.startScheduled): the tick's cost hardly grows with the burst, so it takes no cores
    // from the runs it queues.
    for (let i = 0; i < free.length; i += CLAIM_BATCH) {
      const batch = free.slice(i, i + CLAIM_BATCH);
      let created: Awaited<ReturnType<typeof runs.startScheduled>>;
      try {
        created = await runs.startScheduled(batch, queue !== undefined);
      } catch (error) {
        log.warn({ err: error, processes: batch.length }, 'scheduled runs could not start');
        continue;
      }
      if (created.length < batch.length) {
        log.info({ skipped: batch.length - created.length }, 'scheduled runs skipped: those processes started meanwhile');
      }
      if (queue) {
        try {
          await enqueueExecutions(queue, created);
          started += created.length;
          continue;
        } catch (error) {
          log.warn({ err: error, runs: created.length }, 'scheduled runs not queued together: queued one by one');
        }
      }
      // Without the queue (tests run the engine by hand), or when the batch's statement failed:
      // each run through the service's enqueue, which ends a run it cannot queue in error.
      for (const run of created) {
        try {
          await executions.resume(run.executionId, run.processId);
          started += 1;
        } catch (error) {
          log.warn({ err: error, processId: run.processId }, 'scheduled run could not start');
        }
      }
    }
    if (started > 0) log.info({ started, queueMs: Math.round(performance.now() - queueStarted) }, 'scheduled runs queued');
    return started;
  }

  async function recover(exclusive: boolean): Promise<number> {
    const before = exclusive ? undefined : new Date(now().getTime() - config.leaseStaleSeconds * 1000);
    let handled = 0;
    // One statement finds them all (running ones gone quiet, queued ones whose job is gone).
    for (const orphan of await runs.orphans(before, queue ? QUEUE_SCHEMA : undefined)) {
      if (inProgress.has(orphan.id)) continue;
      const recoveries = await runs.claimOrphan(orphan);
      if (recoveries === undefined) continue;
      handled += 1;
      if (recoveries > MAX_RECOVERIES) {
        log.warn({ executionId: orphan.id }, 'execution interrupted too often: ended in error');
        await runs.fail(orphan, {
          key: 'pipeline.interrupted',
          params: { count: recoveries - 1 },
          text: `interrupted ${recoveries - 1} times`,
        });
        continue;
      }
      log.info({ executionId: orphan.id, recoveries }, 'resuming an execution left by a stopped worker');
      await executions.resume(orphan.id, orphan.processId);
    }
    return handled;
  }

  /** Stops every run in progress and waits until each has handed its run back. */
  async function stopAll(): Promise<void> {
    const running = [...inProgress.keys()];
    for (const controller of inProgress.values()) controller.abort('shutdown' satisfies StopReason);
    const deadline = Date.now() + 15_000;
    while (running.some((id) => inProgress.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }

  return { run, tick, recover, abortAll: () => void stopAll(), stopAll };
}
