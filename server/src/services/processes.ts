import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { channels, musicTracks, processes, promptLanguages, prompts, voices, youtubeApis } from '../db/schema';
import { notFound, unprocessable } from '../errors';
import { translate, type Language, type MessageKey } from '../messages';
import type { Page } from './paging';
import { describeError } from './errorText';
import { describeNeeds } from './processNeeds';
import {
  PROCESS_FORMATS,
  PROCESS_LANGUAGES,
  PUBLICATION_TIME,
  type CreateProcessInput,
  type ProcessDto,
  type ProcessFormat,
  type ProcessLanguage,
  type ProcessNeed,
  type ProcessStats,
  type PublishMode,
  type UpdateProcessInput,
} from '../contracts/processes';

/**
 * Processes: a user's recurring workflows that make and publish one story video every
 * EXECUTION_INTERVAL_DAYS days (docs/api-processes.md). This service holds the rules of the
 * records; running them (POST /processes/{id}/execute, the schedule) is the engine's (issue 5).
 */

/** A process runs every 3 days; a new one first runs 3 days after its creation (spec section 9). */
export const EXECUTION_INTERVAL_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

export const DEFAULT_PUBLICATION_TIME = '09:00';

type ProcessRow = typeof processes.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The database or a transaction on it. */
type Runner = Db | Tx;

const NAME_MAX = 200;

const LANGUAGE_NAME: Record<ProcessLanguage, MessageKey> = {
  pt: 'processes.languageName.pt',
  en: 'processes.languageName.en',
};

function isProcessLanguage(code: string): code is ProcessLanguage {
  return (PROCESS_LANGUAGES as readonly string[]).includes(code);
}

/** The language's name in the caller's language (Portuguese / português). */
function languageName(code: string, into: Language): string {
  return isProcessLanguage(code) ? translate(into, LANGUAGE_NAME[code]) : code;
}

function parseName(value: string | undefined): string {
  const name = value?.trim() ?? '';
  if (!name) throw unprocessable('processes.nameRequired');
  return name.slice(0, NAME_MAX);
}

/** auto (the default) or review. */
function parsePublishMode(value: string | undefined): PublishMode {
  if (value === undefined) return 'auto';
  if (value !== 'auto' && value !== 'review') throw unprocessable('processes.publishModeInvalid');
  return value;
}

/** video (the default) or short. */
function parseFormat(value: string | undefined): ProcessFormat {
  if (value === undefined) return 'video';
  if (!(PROCESS_FORMATS as readonly string[]).includes(value)) throw unprocessable('processes.formatInvalid');
  return value as ProcessFormat;
}

/** A track's id, or null for no music ('' or null). */
function musicChoice(value: string | null | undefined): string | null {
  const id = value?.trim() ?? '';
  return id || null;
}

/** HH:MM padded to two digits (the body's pattern lets nothing else through; a direct caller gets the 422). */
function parsePublicationTime(value: string): string {
  const match = PUBLICATION_TIME.exec(value.trim());
  if (!match) throw unprocessable('processes.publicationTimeInvalid');
  return `${match[1]!.padStart(2, '0')}:${match[2]!}`;
}

/** A reference that must be chosen: blank ('' or null) answers the `required` message. */
function chosen(value: string | null | undefined, required: MessageKey): string {
  const id = value?.trim() ?? '';
  if (!id) throw unprocessable(required);
  return id;
}

/** A prompt "has texts" in a language when it has that language with at least one non-blank text. */
const hasTexts = or(
  sql`${promptLanguages.title} <> ''`,
  sql`${promptLanguages.premise} <> ''`,
  sql`${promptLanguages.narrativePrompt} <> ''`,
  sql`${promptLanguages.chapter1} <> ''`,
  sql`${promptLanguages.nextChapters} <> ''`,
  sql`${promptLanguages.finalChapter} <> ''`,
)!;

/** The columns a process's `needs` depend on (needsOf), with its language. */
const needColumns = {
  language: processes.language,
  channelFound: sql<boolean>`(${channels.id} is not null)`,
  channelActive: channels.isActive,
  channelPlatformId: channels.channelId,
  youtubeApiEnabled: youtubeApis.isEnabled,
  youtubeApiChannelId: youtubeApis.channelId,
  promptActive: prompts.isActive,
  promptHasLanguage: sql<boolean>`(${promptLanguages.promptId} is not null)`,
  voiceActive: voices.isActive,
};

/** The columns of a process with everything its answer and its `needs` depend on, from one query. */
const joinedColumns = {
  ...needColumns,
  process: processes,
  /** The channel's name, or its platform id when unnamed. */
  channelName: sql<string | null>`coalesce(${channels.name}, ${channels.channelId})`,
  youtubeApiName: youtubeApis.name,
  promptName: prompts.name,
  voiceName: voices.name,
  musicName: musicTracks.name,
  musicActive: musicTracks.isActive,
  latestExecutionId: sql<
    string | null
  >`(select "executions"."id" from "executions" where "executions"."process_id" = ${processes.id} order by "executions"."created_at" desc limit 1)`,
};

/**
 * How a process meets what its needs depend on (at most one row each): channels and API
 * configurations are per user, so only the owner's count; (prompt_id, language) is the primary key
 * of a prompt's texts.
 */
const needJoins = {
  channel: and(eq(channels.id, processes.channelId), eq(channels.userId, processes.userId)),
  youtubeApi: and(eq(youtubeApis.id, processes.youtubeApiId), eq(youtubeApis.userId, processes.userId)),
  prompt: eq(prompts.id, processes.promptId),
  promptTexts: and(eq(promptLanguages.promptId, processes.promptId), eq(promptLanguages.language, processes.language), hasTexts),
  voice: eq(voices.id, processes.voiceId),
};

/** The processes `where` picks, with everything their answer shows. */
function joinedSelect(runner: Runner, where: SQL | undefined) {
  return runner
    .select(joinedColumns)
    .from(processes)
    .leftJoin(channels, needJoins.channel)
    .leftJoin(youtubeApis, needJoins.youtubeApi)
    .leftJoin(prompts, needJoins.prompt)
    .leftJoin(promptLanguages, needJoins.promptTexts)
    .leftJoin(voices, needJoins.voice)
    .leftJoin(musicTracks, eq(musicTracks.id, processes.musicId))
    .where(where);
}

/** The processes `where` picks, with only what their needs depend on: no names, no music, no latest run. */
function needsSelect(runner: Runner, where: SQL | undefined) {
  return runner
    .select(needColumns)
    .from(processes)
    .leftJoin(channels, needJoins.channel)
    .leftJoin(youtubeApis, needJoins.youtubeApi)
    .leftJoin(prompts, needJoins.prompt)
    .leftJoin(promptLanguages, needJoins.promptTexts)
    .leftJoin(voices, needJoins.voice)
    .where(where);
}

type JoinedRow = Awaited<ReturnType<typeof joinedSelect>>[number];
type NeedsRow = Awaited<ReturnType<typeof needsSelect>>[number];

/** What the process lacks to run (see PROCESS_NEEDS in processNeeds.ts). */
export function needsOf(row: NeedsRow): ProcessNeed[] {
  const needs: ProcessNeed[] = [];
  if (!row.channelFound) needs.push('channel');
  else if (row.channelActive === false) needs.push('channel_disabled');
  if (row.youtubeApiEnabled === null) needs.push('youtube_api');
  else if (!row.youtubeApiEnabled) needs.push('youtube_api_disabled');
  if (row.channelPlatformId !== null && row.youtubeApiChannelId !== null && row.channelPlatformId !== row.youtubeApiChannelId) {
    needs.push('channel_mismatch');
  }
  if (row.promptActive === null) needs.push('prompt');
  else {
    if (!row.promptActive) needs.push('prompt_inactive');
    if (!row.promptHasLanguage) needs.push('language');
  }
  if (row.voiceActive === null) needs.push('voice');
  else if (!row.voiceActive) needs.push('voice_inactive');
  return needs;
}

function toDto(row: JoinedRow, into: Language): ProcessDto {
  const p: ProcessRow = row.process;
  return {
    id: p.id,
    name: p.name,
    channel_id: p.channelId,
    channel_name: row.channelName,
    youtube_api_id: p.youtubeApiId,
    youtube_api_name: row.youtubeApiName,
    prompt_id: p.promptId,
    prompt_name: row.promptName,
    language: p.language,
    voice_id: p.voiceId,
    voice_name: row.voiceName,
    is_active: p.isActive,
    status: p.status,
    execution_step: p.executionStep,
    execution_steps: p.executionSteps ?? null,
    last_execution: p.lastExecution?.toISOString() ?? null,
    next_execution: p.nextExecution.toISOString(),
    publication_time: p.publicationTime,
    publish_mode: p.publishMode === 'review' ? 'review' : 'auto',
    format: p.format === 'short' ? 'short' : 'video',
    music_id: p.musicId,
    music_name: row.musicName,
    music_active: row.musicActive,
    last_error: describeError(p.lastErrorKey, p.lastErrorParams, p.lastError, into),
    latest_execution_id: row.latestExecutionId,
    needs: needsOf(row),
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

/** What the process rules need from executions (passed in, so the two services do not import each other's factories). */
export interface ProcessExecutionHooks {
  /** Cancels a scheduled run not started yet (the process was switched off). */
  cancelPending(runner: Runner, processId: string): Promise<void>;
  idsOfProcess(processId: string): Promise<string[]>;
  removeMedia(executionIds: string[]): Promise<void>;
}

/**
 * The first slot at or after `from` in the process's 3-day rhythm that started at `due`: a process
 * switched back on after a long pause waits for its next slot instead of running at once.
 */
export function nextSlot(due: Date, from: Date): Date {
  if (due.getTime() >= from.getTime()) return due;
  const interval = EXECUTION_INTERVAL_DAYS * DAY_MS;
  const steps = Math.ceil((from.getTime() - due.getTime()) / interval);
  return new Date(due.getTime() + steps * interval);
}

export function createProcessService({ db, now, hooks }: { db: Db; now: () => Date; hooks?: ProcessExecutionHooks }) {
  const ownedBy = (userId: string) => eq(processes.userId, userId);
  const byId = (userId: string, id: string) => and(eq(processes.id, id), eq(processes.userId, userId));

  async function find(runner: Runner, userId: string, id: string): Promise<JoinedRow> {
    const [row] = await joinedSelect(runner, byId(userId, id));
    if (!row) throw notFound('processes.notFound');
    return row;
  }

  /**
   * The joined reads made most (a process by id; its needs, at steps 1 and 7 of every run; a page of
   * the list: the console's most polled call when its cache is cold, as during a burst of runs),
   * built once with placeholders and prepared by name (issue 20): drizzle takes about 0.3 ms to build a
   * six-table select and PostgreSQL about 1 ms to plan it, longer than it takes to run it. Built
   * on first use; `find` keeps the built-each-time form for transactions.
   */
  let reads: ReturnType<typeof prepareReads> | undefined;
  function prepareReads() {
    const owner = eq(processes.userId, sql.placeholder('userId'));
    const page = (activeOnly: boolean) => {
      const where = activeOnly ? and(owner, eq(processes.isActive, true)) : owner;
      const name = activeOnly ? 'storyflow_active_processes' : 'storyflow_processes';
      return {
        rows: joinedSelect(db, where)
          .orderBy(desc(processes.createdAt), desc(processes.id))
          .offset(sql.placeholder('skip'))
          .limit(sql.placeholder('limit'))
          .prepare(name),
        total: db.select({ n: count() }).from(processes).where(where).prepare(`${name}_count`),
      };
    };
    return {
      byId: joinedSelect(db, and(eq(processes.id, sql.placeholder('id')), owner)).prepare('storyflow_process'),
      needs: needsSelect(db, and(eq(processes.id, sql.placeholder('id')), owner)).prepare('storyflow_process_needs'),
      all: page(false),
      active: page(true),
    };
  }

  async function get(userId: string, id: string, into: Language = 'en'): Promise<ProcessDto> {
    const [row] = await (reads ??= prepareReads()).byId.execute({ id, userId });
    if (!row) throw notFound('processes.notFound');
    return toDto(row, into);
  }

  /**
   * What the process lacks to run now, as keys, and its language (the steps' check before they
   * start and before they upload): one narrow read, no answer built, nothing translated.
   */
  async function needs(userId: string, id: string): Promise<{ needs: ProcessNeed[]; language: string }> {
    const [row] = await (reads ??= prepareReads()).needs.execute({ id, userId });
    if (!row) throw notFound('processes.notFound');
    return { needs: needsOf(row), language: row.language };
  }

  /** The user's processes (or only active ones), newest first, with the names of what they use. */
  async function list(
    userId: string,
    page: Page & { active_only?: boolean },
    into: Language = 'en',
  ): Promise<{ processes: ProcessDto[]; total: number }> {
    const statements = (reads ??= prepareReads())[page.active_only ? 'active' : 'all'];
    // Side by side, on two connections of the pool: the page waits for the slower one, not both.
    const [rows, [total]] = await Promise.all([
      statements.rows.execute({ userId, skip: page.skip, limit: page.limit }),
      statements.total.execute({ userId }),
    ]);
    return { processes: rows.map((row) => toDto(row, into)), total: total?.n ?? 0 };
  }

  /** The dashboard's numbers, from one statement. */
  async function stats(userId: string): Promise<ProcessStats> {
    const [row] = await db
      .select({
        total: sql<number>`count(*)::int`.mapWith(Number),
        active: sql<number>`(count(*) filter (where ${processes.isActive}))::int`.mapWith(Number),
        queued: sql<number>`(count(*) filter (where ${processes.status} = 'queued'))::int`.mapWith(Number),
        running: sql<number>`(count(*) filter (where ${processes.status} = 'running'))::int`.mapWith(Number),
        // Spelled out: the subquery's columns must not resolve to the outer processes table.
        connectedChannels:
          sql<number>`(select count(*)::int from "channels" where "channels"."user_id" = ${userId} and "channels"."is_active")`.mapWith(
            Number,
          ),
      })
      .from(processes)
      .where(ownedBy(userId));
    const total = row?.total ?? 0;
    const active = row?.active ?? 0;
    return {
      total,
      active,
      inactive: total - active,
      queued: row?.queued ?? 0,
      running: row?.running ?? 0,
      connected_channels: row?.connectedChannels ?? 0,
    };
  }

  // The checks of the references: each answers a 422 with what to do when it fails.

  /** Answers the channel's YouTube id. */
  async function checkChannel(runner: Runner, userId: string, id: string): Promise<string> {
    const [found] = await runner
      .select({ channelId: channels.channelId, isActive: channels.isActive })
      .from(channels)
      .where(and(eq(channels.id, id), eq(channels.userId, userId)));
    if (!found) throw unprocessable('processes.channelNotFound');
    if (!found.isActive) throw unprocessable('processes.channelDisabled');
    return found.channelId;
  }

  /** Answers the YouTube id of the channel the configuration uploads to. */
  async function checkYoutubeApi(runner: Runner, userId: string, id: string): Promise<string> {
    const [found] = await runner
      .select({ isEnabled: youtubeApis.isEnabled, channelId: youtubeApis.channelId })
      .from(youtubeApis)
      .where(and(eq(youtubeApis.id, id), eq(youtubeApis.userId, userId)));
    if (!found) throw unprocessable('processes.youtubeApiNotFound');
    if (!found.isEnabled) throw unprocessable('processes.youtubeApiDisabled');
    return found.channelId;
  }

  /** The YouTube id of the stored channel, when it still exists (no check: it was checked when chosen). */
  async function storedChannelYoutubeId(runner: Runner, userId: string, id: string | null): Promise<string | undefined> {
    if (!id) return undefined;
    const [found] = await runner
      .select({ channelId: channels.channelId })
      .from(channels)
      .where(and(eq(channels.id, id), eq(channels.userId, userId)));
    return found?.channelId;
  }

  /** The YouTube id of the stored configuration's channel, when it still exists. */
  async function storedConfigYoutubeId(runner: Runner, userId: string, id: string | null): Promise<string | undefined> {
    if (!id) return undefined;
    const [found] = await runner
      .select({ channelId: youtubeApis.channelId })
      .from(youtubeApis)
      .where(and(eq(youtubeApis.id, id), eq(youtubeApis.userId, userId)));
    return found?.channelId;
  }

  /** The configuration uploads to the process's channel, or the video would land on another one. */
  function checkPair(channelYoutubeId: string, configYoutubeId: string): void {
    if (channelYoutubeId !== configYoutubeId) {
      throw unprocessable('processes.channelMismatch', { channel: channelYoutubeId, config: configYoutubeId });
    }
  }

  async function checkPrompt(runner: Runner, id: string): Promise<void> {
    const [found] = await runner.select({ isActive: prompts.isActive }).from(prompts).where(eq(prompts.id, id));
    if (!found) throw unprocessable('processes.promptNotFound');
    if (!found.isActive) throw unprocessable('processes.promptInactive');
  }

  /** The prompt must have texts in the language. */
  async function checkPromptLanguage(runner: Runner, promptId: string, language: ProcessLanguage, into: Language): Promise<void> {
    const [found] = await runner
      .select({ promptId: promptLanguages.promptId })
      .from(promptLanguages)
      .where(and(eq(promptLanguages.promptId, promptId), eq(promptLanguages.language, language), hasTexts));
    if (!found) throw unprocessable('processes.promptLanguageMissing', { language: languageName(language, into) });
  }

  async function checkVoice(runner: Runner, id: string): Promise<void> {
    const [found] = await runner.select({ isActive: voices.isActive }).from(voices).where(eq(voices.id, id));
    if (!found) throw unprocessable('processes.voiceNotFound');
    if (!found.isActive) throw unprocessable('processes.voiceInactive');
  }

  /** A track chosen for a process: it exists and is switched on. */
  async function checkMusic(runner: Runner, id: string): Promise<void> {
    const [found] = await runner.select({ isActive: musicTracks.isActive }).from(musicTracks).where(eq(musicTracks.id, id));
    if (!found) throw unprocessable('processes.musicNotFound');
    if (!found.isActive) throw unprocessable('processes.musicInactive');
  }

  /** 422 listing, in the caller's language, what the process lacks. */
  function refuseNeeds(row: JoinedRow, into: Language): void {
    const needs = needsOf(row);
    if (needs.length === 0) return;
    const language = languageName(row.process.language, into);
    throw unprocessable('processes.needsBeforeActivation', { needs: describeNeeds(needs, into, language) });
  }

  /**
   * Creates a process: every reference checked (the user's own channel and enabled API
   * configuration, an active prompt with texts in the language, an active voice). It starts idle,
   * never executed, due EXECUTION_INTERVAL_DAYS days from now. `into` is the caller's language,
   * for the language's name in a refusal.
   */
  async function create(userId: string, input: CreateProcessInput, into: Language): Promise<ProcessDto> {
    const name = parseName(input.name);
    const channelId = chosen(input.channel_id, 'processes.channelRequired');
    const youtubeApiId = chosen(input.youtube_api_id, 'processes.youtubeApiRequired');
    const promptId = chosen(input.prompt_id, 'processes.promptRequired');
    const voiceId = chosen(input.voice_id, 'processes.voiceRequired');
    const publicationTime =
      input.publication_time === undefined ? DEFAULT_PUBLICATION_TIME : parsePublicationTime(input.publication_time);
    const format = parseFormat(input.format);
    const musicId = musicChoice(input.music_id);
    const at = now();
    const id = await db.transaction(async (tx) => {
      checkPair(await checkChannel(tx, userId, channelId), await checkYoutubeApi(tx, userId, youtubeApiId));
      await checkPrompt(tx, promptId);
      await checkPromptLanguage(tx, promptId, input.language, into);
      await checkVoice(tx, voiceId);
      if (musicId) await checkMusic(tx, musicId);
      const [row] = await tx
        .insert(processes)
        .values({
          userId,
          name,
          channelId,
          youtubeApiId,
          promptId,
          voiceId,
          language: input.language,
          isActive: input.is_active ?? false,
          status: 'idle',
          lastExecution: null,
          nextExecution: new Date(at.getTime() + EXECUTION_INTERVAL_DAYS * DAY_MS),
          publicationTime,
          publishMode: parsePublishMode(input.publish_mode),
          format,
          musicId,
          createdAt: at,
          updatedAt: at,
        })
        .returning({ id: processes.id });
      return row!.id;
    });
    return get(userId, id, into);
  }

  /**
   * Switching on moves a next execution left in the past to the next slot of its rhythm;
   * switching off cancels a scheduled run that has not started.
   */
  async function activationChanged(tx: Runner, id: string, active: boolean): Promise<void> {
    if (!active) {
      await hooks?.cancelPending(tx, id);
      return;
    }
    const [row] = await tx.select({ nextExecution: processes.nextExecution }).from(processes).where(eq(processes.id, id));
    if (!row) return;
    const next = nextSlot(row.nextExecution, now());
    if (next.getTime() !== row.nextExecution.getTime()) {
      await tx.update(processes).set({ nextExecution: next }).where(eq(processes.id, id));
    }
  }

  /**
   * Changes the fields sent, each checked like on create; a changed prompt or language must still
   * match (the prompt has texts in the language). `is_active: true` needs an empty `needs` after
   * the change. The process row is locked meanwhile, so a concurrent change (a prompt deleted,
   * a toggle) is applied before or after, never in between.
   */
  async function update(userId: string, id: string, input: UpdateProcessInput, into: Language): Promise<ProcessDto> {
    return db.transaction(async (tx) => {
      const [current] = await tx
        .select({
          channelId: processes.channelId,
          youtubeApiId: processes.youtubeApiId,
          promptId: processes.promptId,
          language: processes.language,
          isActive: processes.isActive,
          musicId: processes.musicId,
        })
        .from(processes)
        .where(byId(userId, id))
        .for('update');
      if (!current) throw notFound('processes.notFound');

      const changes: Partial<typeof processes.$inferInsert> = {};
      if (input.name !== undefined) changes.name = parseName(input.name);
      let channelYoutubeId: string | undefined;
      let configYoutubeId: string | undefined;
      if (input.channel_id !== undefined) {
        const channelId = chosen(input.channel_id, 'processes.channelRequired');
        channelYoutubeId = await checkChannel(tx, userId, channelId);
        changes.channelId = channelId;
      }
      if (input.youtube_api_id !== undefined) {
        const youtubeApiId = chosen(input.youtube_api_id, 'processes.youtubeApiRequired');
        configYoutubeId = await checkYoutubeApi(tx, userId, youtubeApiId);
        changes.youtubeApiId = youtubeApiId;
      }
      // The pair is checked when either side is sent (the other as stored, when it still exists).
      if (channelYoutubeId !== undefined || configYoutubeId !== undefined) {
        channelYoutubeId ??= await storedChannelYoutubeId(tx, userId, current.channelId);
        configYoutubeId ??= await storedConfigYoutubeId(tx, userId, current.youtubeApiId);
        if (channelYoutubeId !== undefined && configYoutubeId !== undefined) checkPair(channelYoutubeId, configYoutubeId);
      }
      if (input.prompt_id !== undefined) {
        const promptId = chosen(input.prompt_id, 'processes.promptRequired');
        await checkPrompt(tx, promptId);
        changes.promptId = promptId;
      }
      if (input.language !== undefined) changes.language = input.language;
      // The pair is checked when either side is sent; without a prompt, `needs` asks for one.
      const promptId = changes.promptId ?? current.promptId;
      if ((input.prompt_id !== undefined || input.language !== undefined) && promptId) {
        await checkPromptLanguage(tx, promptId, changes.language ?? current.language, into);
      }
      if (input.voice_id !== undefined) {
        const voiceId = chosen(input.voice_id, 'processes.voiceRequired');
        await checkVoice(tx, voiceId);
        changes.voiceId = voiceId;
      }
      if (input.publication_time !== undefined) changes.publicationTime = parsePublicationTime(input.publication_time);
      if (input.publish_mode !== undefined) changes.publishMode = parsePublishMode(input.publish_mode);
      if (input.format !== undefined) changes.format = parseFormat(input.format);
      if (input.music_id !== undefined) {
        const musicId = musicChoice(input.music_id);
        // Only a new choice is checked: a track switched off since it was chosen may stay (the runs go without it).
        if (musicId && musicId !== current.musicId) await checkMusic(tx, musicId);
        changes.musicId = musicId;
      }
      if (input.is_active !== undefined) changes.isActive = input.is_active;

      await tx
        .update(processes)
        .set({ ...changes, updatedAt: now() })
        .where(byId(userId, id));
      if (input.is_active !== undefined && input.is_active !== current.isActive) await activationChanged(tx, id, input.is_active);
      // The one joined read: the needs of a process switched on, and the answer. Throwing rolls the
      // whole update back: nothing changes on a refusal.
      const row = await find(tx, userId, id);
      if (input.is_active === true) refuseNeeds(row, into);
      return toDto(row, into);
    });
  }

  /** Flips `is_active`; turning on needs an empty `needs`. */
  async function toggle(userId: string, id: string, into: Language): Promise<ProcessDto> {
    return db.transaction(async (tx) => {
      const [current] = await tx.select({ isActive: processes.isActive }).from(processes).where(byId(userId, id)).for('update');
      if (!current) throw notFound('processes.notFound');
      await tx.update(processes).set({ isActive: !current.isActive, updatedAt: now() }).where(byId(userId, id));
      await activationChanged(tx, id, !current.isActive);
      // One joined read, as in update: the needs of a process switched on (a refusal rolls back), and the answer.
      const row = await find(tx, userId, id);
      if (!current.isActive) refuseNeeds(row, into);
      return toDto(row, into);
    });
  }

  /**
   * Deletes the process. Its executions and story titles go with it by foreign key (ON DELETE
   * CASCADE); publications keep their record without the process; the executions' media files
   * are removed from storage. A run in progress notices at its next step or heartbeat and stops.
   */
  async function remove(userId: string, id: string): Promise<void> {
    const executionIds = (await hooks?.idsOfProcess(id)) ?? [];
    const deleted = await db.delete(processes).where(byId(userId, id)).returning({ id: processes.id });
    if (deleted.length === 0) throw notFound('processes.notFound');
    await hooks?.removeMedia(executionIds);
  }

  return { list, get, needs, stats, create, update, toggle, remove };
}

export type ProcessService = ReturnType<typeof createProcessService>;
