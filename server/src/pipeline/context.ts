import type { StepProgress } from '../db/schema';
import type { Dispatcher } from 'undici';
import type { Config } from '../config';
import type { MessageKey, MessageParams } from '../messages';
import type { ChatModelClient } from '../providers/chatModel';
import type { Services } from '../services';
import type { ExecutionRow, Lease, ProcessRow } from '../services/executionRuns';
import type { ProcessFormat } from '../contracts/processes';

/**
 * What every step of a run receives, and the checkpoint it reads and extends. A step writes its
 * files into `workDir` (the execution's media folder) and records them in the checkpoint, so a
 * retry or a resumed run skips what is already done.
 */

export interface Chapter {
  /** The narrated text. */
  text: string;
}

export interface Checkpoint {
  /** What the run makes (video or short), read at step 1 so the run ends as it began. */
  format?: ProcessFormat;
  texts?: { title: string; premise: string };
  story?: { chapters: string[]; summary: string };
  /** Narration file names per chapter, in the execution's folder. */
  audios?: { files: string[] };
  /** Scene image file names, in order, and which chapter each scene belongs to. */
  images?: { files: string[]; chapterOf: number[]; texts: string[] };
  /** `captions`: the SubRip file of the subtitles (runs rendered before captions were made have none). */
  video?: { file: string; thumbnail: string; durationSeconds: number; captions?: string };
  /** Things the reader should know that did not stop the run (a message key and its params each). */
  warnings?: RunWarning[];
  [key: string]: unknown;
}

export interface RunWarning {
  key: MessageKey;
  params: MessageParams;
}

/** Adds a warning to the run (once per key), to be saved with the checkpoint. */
export function warn(ctx: Pick<StepContext, 'checkpoint'>, key: MessageKey, params: MessageParams = {}): void {
  const warnings = ctx.checkpoint.warnings ?? [];
  if (warnings.some((known) => known.key === key)) return;
  ctx.checkpoint.warnings = [...warnings, { key, params }];
}

export interface Logger {
  /** Optional: the loggers of tests have none. */
  debug?(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface StepContext {
  execution: ExecutionRow;
  process: ProcessRow;
  userId: string;
  language: string;
  workDir: string;
  checkpoint: Checkpoint;
  /** Persists the checkpoint now (in the middle of a step). Throws LeaseLost when the run is no longer ours. */
  save(): Promise<void>;
  /** This worker's hold on the run (services/executionRuns.ts, Lease). */
  lease: Lease;
  /** Throws LeaseLost unless the run is still ours: checked before anything that must happen once (an upload). */
  assertHeld(): Promise<void>;
  /** Aborted when the run was cancelled or deleted, or the server is stopping. */
  signal: AbortSignal;
  services: Services;
  config: Config;
  log: Logger;
  /** The proxy URL this run's outbound calls go through, if any. */
  proxyUrl: string | undefined;
  /** An undici dispatcher for proxyUrl. */
  dispatcher: Dispatcher | undefined;
  /** The user's chat-model client (throws a StepFailure when the key is gone). */
  chat(): Promise<ChatModelClient>;
  /** The engine's clock. */
  now(): Date;
  /** Counts one external call for the usage panel. */
  recordCall(service: string, operation: string): Promise<void>;
  /**
   * Reports how far the step is (the execution dialog shows it). A percentage is written at most
   * once a second, except its first and last report; a failure to write is only logged.
   */
  progress(done: number, total: number, unit: StepProgress['unit']): Promise<void>;
}

/** A step's failure with a message for the reader (a catalogue key) and English text for logs. */
export class StepFailure extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params: MessageParams,
    text: string,
  ) {
    super(text);
    this.name = 'StepFailure';
  }
}

/** The run was cancelled, deleted or the server is stopping: stop without recording a failure. */
export class RunAborted extends Error {
  constructor() {
    super('run aborted');
    this.name = 'RunAborted';
  }
}

export type Step = (ctx: StepContext) => Promise<void>;
