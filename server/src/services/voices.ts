import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { processes, voices } from '../db/schema';
import { AppError, notFound, unprocessable } from '../errors';
import { writeFileAtomic } from '../lib/atomicWrite';
import { translate, type Language } from '../messages';
import { ESPEAK_VOICE, espeakSpeak, espeakVoiceFor, SpeechError, type EspeakOptions } from '../providers/speech';
import { failureReason } from '../providers/reasons';
import type { Page } from './paging';
import { LANGUAGE_CODES, isLanguageCode, type LanguageCode } from '../contracts/prompts';
import type { DeleteResult } from '../contracts/common';
import type { VoiceDto, VoiceInput, VoiceUpdate } from '../contracts/voices';

/**
 * Narration voices: curated by administrators, read by every signed-in user
 * (docs/api-catalogue.md). Samples of espeak-ng voices are spoken on first request and cached
 * under DATA_DIR/voice-samples/<id>.wav.
 */

export const VOICE_PROVIDERS = ['openai', 'elevenlabs', 'espeak'] as const;
export type VoiceProvider = (typeof VOICE_PROVIDERS)[number];
export const VOICE_GENDERS = ['female', 'male', 'neutral'] as const;

export interface VoiceSample {
  /** The WAV file's bytes. */
  data: Buffer;
  /** When the cached file was written. */
  modifiedAt: Date;
  /** True when it came from the cache, false when it was just spoken. */
  cached: boolean;
}

/** The sentence a sample says, per language; other languages say the English one. */
export const SAMPLE_SENTENCES: Readonly<Record<string, string>> = {
  pt: 'Olá! Esta é uma amostra da minha voz para narrar as suas histórias.',
  en: 'Hello! This is a sample of my voice, ready to narrate your stories.',
};

/** Built-in voices point their sample_url here; `{id}` in a sample URL is replaced by the voice id. */
export const SAMPLE_PATH_PREFIX = '/api/v1/voice-samples/';
const ID_PLACEHOLDER = '{id}';

type VoiceRow = typeof voices.$inferSelect;

const NAME_MAX = 200;
const TYPE_MAX = 100;
const URL_MAX = 2048;
const DESCRIPTION_MAX = 2000;
const OTHER_VOICE_ID = /^[A-Za-z0-9._+-]{1,100}$/;
const SAMPLE_TIMEOUT_MS = 20_000;

function toDto(row: VoiceRow, processCount: number, activeProcessCount: number): VoiceDto {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    sample_url: row.sampleUrl,
    description: row.description,
    language: row.language,
    gender: row.gender,
    provider: row.provider,
    provider_voice_id: row.providerVoiceId,
    is_active: row.isActive,
    process_count: processCount,
    active_process_count: activeProcessCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function requiredText(value: string | undefined, max: number): string {
  const text = value?.trim() ?? '';
  if (!text) throw unprocessable('voices.fieldsRequired');
  return text.slice(0, max);
}

/**
 * An absolute http(s) URL, or a path on this server: starts with one '/' (not '//', which
 * would be another host), no spaces, backslashes or control characters.
 */
export function isValidSampleUrl(url: string): boolean {
  const hasControl = [...url].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (url.length > URL_MAX || hasControl || /[\s\\]/.test(url)) return false;
  if (url.startsWith('/')) return !url.startsWith('//');
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

function parseSampleUrl(value: string | undefined): string {
  const url = requiredText(value, URL_MAX);
  // `{id}` may stand for the voice's own id (e.g. /api/v1/voice-samples/{id}.wav); checked as a uuid.
  if (!isValidSampleUrl(url.split(ID_PLACEHOLDER).join(crypto.randomUUID()))) {
    throw unprocessable('voices.sampleUrlInvalid');
  }
  return url;
}

function parseLanguage(value: string | null | undefined): LanguageCode | null {
  const code = value?.trim() ?? '';
  if (!code) return null;
  if (!isLanguageCode(code)) throw unprocessable('catalogue.languageInvalid', { code, codes: LANGUAGE_CODES.join(', ') });
  return code;
}

function parseGender(value: string | null | undefined): string | null {
  const gender = value?.trim() ?? '';
  if (!gender) return null;
  if (!(VOICE_GENDERS as readonly string[]).includes(gender)) throw unprocessable('voices.genderInvalid');
  return gender;
}

function parseProvider(value: string | null | undefined, fallback: string): string {
  const provider = value?.trim() ?? '';
  if (!provider) return fallback;
  if (!(VOICE_PROVIDERS as readonly string[]).includes(provider)) {
    throw unprocessable('voices.providerInvalid', { provider, providers: VOICE_PROVIDERS.join(', ') });
  }
  return provider;
}

/** The provider's voice: an espeak-ng voice for espeak (or empty: the language's default). */
function checkProviderVoiceId(provider: string, voiceId: string): void {
  if (!voiceId) return;
  if (provider === 'espeak') {
    if (!ESPEAK_VOICE.test(voiceId)) throw unprocessable('voices.espeakVoiceInvalid', { voice: voiceId });
  } else if (!OTHER_VOICE_ID.test(voiceId)) {
    throw unprocessable('voices.providerVoiceIdInvalid');
  }
}

/** What an espeak-ng sample depends on; the cached file is dropped when it changes. */
function speechKey(row: Pick<VoiceRow, 'provider' | 'providerVoiceId' | 'language'>): string {
  return `${row.provider}|${row.providerVoiceId}|${row.language ?? ''}`;
}

export interface VoiceServiceDeps {
  db: Db;
  now: () => Date;
  /** DATA_DIR: samples are cached in DATA_DIR/voice-samples. */
  dataDir: string;
  /** The synthesis itself; replaceable in tests. */
  speak?: (options: EspeakOptions) => Promise<unknown>;
}

export function createVoiceService({ db, now, dataDir, speak = espeakSpeak }: VoiceServiceDeps) {
  const samplesDir = path.join(dataDir, 'voice-samples');
  // Written out: in a one-table select drizzle drops the table names from columns, and an
  // unqualified "id" inside the subquery would be the process's id.
  const processCount = sql<number>`(select count(*)::int from "processes" where "processes"."voice_id" = "voices"."id")`.mapWith(
    Number,
  );
  /** The active ones among them (of every user): the processes that stop when the voice is switched off. */
  const activeProcessCount =
    sql<number>`(select count(*)::int from "processes" where "processes"."voice_id" = "voices"."id" and "processes"."is_active")`.mapWith(
      Number,
    );
  /** Samples being spoken right now, so concurrent requests share one synthesis. */
  const speaking = new Map<string, Promise<void>>();

  /** The cache file of a voice; `id` is always a uuid (checked by the routes and the database). */
  const sampleFile = (id: string) => path.join(samplesDir, `${id}.wav`);

  async function dropSample(id: string): Promise<void> {
    await fs.rm(sampleFile(id), { force: true });
  }

  async function get(id: string): Promise<VoiceDto> {
    const [found] = await db.select({ voice: voices, processCount, activeProcessCount }).from(voices).where(eq(voices.id, id));
    if (!found) throw notFound('voices.notFound');
    return toDto(found.voice, found.processCount, found.activeProcessCount);
  }

  /** Every voice (or only active ones), oldest first, so the gallery keeps its order. */
  async function list(page: Page & { active_only?: boolean }): Promise<{ voices: VoiceDto[]; total: number }> {
    const where = page.active_only ? eq(voices.isActive, true) : undefined;
    const rows = await db
      .select({ voice: voices, processCount, activeProcessCount })
      .from(voices)
      .where(where)
      .orderBy(asc(voices.createdAt), asc(voices.id))
      .offset(page.skip)
      .limit(page.limit);
    const [total] = await db.select({ n: count() }).from(voices).where(where);
    return { voices: rows.map((r) => toDto(r.voice, r.processCount, r.activeProcessCount)), total: total?.n ?? 0 };
  }

  async function create(userId: string, input: VoiceInput): Promise<VoiceDto> {
    const name = requiredText(input.name, NAME_MAX);
    const type = requiredText(input.type, TYPE_MAX);
    const sampleUrl = parseSampleUrl(input.sample_url);
    const language = parseLanguage(input.language);
    const gender = parseGender(input.gender);
    const provider = parseProvider(input.provider, 'espeak');
    const providerVoiceId = input.provider_voice_id?.trim() ?? '';
    checkProviderVoiceId(provider, providerVoiceId);
    const id = crypto.randomUUID();
    const at = now();
    await db.insert(voices).values({
      id,
      userId,
      name,
      type,
      sampleUrl: sampleUrl.split(ID_PLACEHOLDER).join(id),
      description: input.description?.trim().slice(0, DESCRIPTION_MAX) ?? '',
      language,
      gender,
      provider,
      providerVoiceId,
      createdAt: at,
      updatedAt: at,
    });
    return get(id);
  }

  /** Changes the given fields; the others stay. A change of what a sample says drops the cached one. */
  async function update(id: string, input: VoiceUpdate): Promise<VoiceDto> {
    const [current] = await db.select().from(voices).where(eq(voices.id, id));
    if (!current) throw notFound('voices.notFound');
    const changes: Partial<typeof voices.$inferInsert> = { updatedAt: now() };
    if (input.name !== undefined) changes.name = requiredText(input.name, NAME_MAX);
    if (input.type !== undefined) changes.type = requiredText(input.type, TYPE_MAX);
    if (input.sample_url !== undefined) changes.sampleUrl = parseSampleUrl(input.sample_url).split(ID_PLACEHOLDER).join(id);
    if (input.description !== undefined) changes.description = input.description?.trim().slice(0, DESCRIPTION_MAX) ?? '';
    if (input.language !== undefined) changes.language = parseLanguage(input.language);
    if (input.gender !== undefined) changes.gender = parseGender(input.gender);
    if (input.provider !== undefined) changes.provider = parseProvider(input.provider, 'espeak');
    if (input.provider_voice_id !== undefined) changes.providerVoiceId = input.provider_voice_id?.trim() ?? '';
    const next = { ...current, ...changes } as VoiceRow;
    checkProviderVoiceId(next.provider, next.providerVoiceId);

    const [updated] = await db.update(voices).set(changes).where(eq(voices.id, id)).returning({ id: voices.id });
    if (!updated) throw notFound('voices.notFound');
    if (speechKey(next) !== speechKey(current)) await dropSample(id);
    return get(id);
  }

  async function toggle(id: string): Promise<VoiceDto> {
    const updated = await db
      .update(voices)
      .set({ isActive: sql`not ${voices.isActive}`, updatedAt: now() })
      .where(eq(voices.id, id))
      .returning({ id: voices.id });
    if (updated.length === 0) throw notFound('voices.notFound');
    return get(id);
  }

  /**
   * Deletes the voice. Processes that used it lose it (voice_id null) and are switched off in the
   * same transaction. Answers how many were affected.
   */
  async function remove(id: string, language: Language): Promise<DeleteResult> {
    const affected = await db.transaction(async (tx) => {
      const switchedOff = await tx
        .update(processes)
        .set({ voiceId: null, isActive: false, updatedAt: now() })
        .where(eq(processes.voiceId, id))
        .returning({ id: processes.id });
      const deleted = await tx.delete(voices).where(eq(voices.id, id)).returning({ id: voices.id });
      if (deleted.length === 0) throw notFound('voices.notFound');
      return switchedOff.length;
    });
    await dropSample(id);
    return {
      detail:
        affected === 0
          ? translate(language, 'voices.deleted')
          : translate(language, 'voices.deletedWithProcesses', { count: affected }),
      affected_processes: affected,
    };
  }

  /** Speaks the sample into a temporary file and renames it into place (atomic on one file system). */
  async function synthesize(row: VoiceRow): Promise<void> {
    await fs.mkdir(samplesDir, { recursive: true });
    try {
      await writeFileAtomic(sampleFile(row.id), (temp) =>
        speak({
          text: SAMPLE_SENTENCES[row.language ?? ''] ?? SAMPLE_SENTENCES.en!,
          voice: espeakVoiceFor(row),
          outFile: temp,
          timeoutMs: SAMPLE_TIMEOUT_MS,
        }),
      );
    } catch (error) {
      if (error instanceof SpeechError) {
        // What espeak-ng printed goes to the log; the caller reads what kind of failure it was.
        console.warn('voice sample failed', { voiceId: row.id, reason: error.message });
        throw new AppError(502, 'voiceSamples.failed', failureReason(error));
      }
      throw error;
    }
    // The voice may have changed while it was spoken: then this sample is stale.
    const [after] = await db.select().from(voices).where(eq(voices.id, row.id));
    if (!after || speechKey(after) !== speechKey(row)) await dropSample(row.id);
  }

  async function readCached(id: string): Promise<{ data: Buffer; modifiedAt: Date } | undefined> {
    try {
      const handle = await fs.open(sampleFile(id), 'r');
      try {
        const stat = await handle.stat();
        if (stat.size <= 44) return undefined;
        return { data: await handle.readFile(), modifiedAt: stat.mtime };
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /**
   * The sample of an espeak-ng voice: from the cache, or spoken now and cached. 404 for unknown
   * voices and for voices of other providers (their sample_url points elsewhere).
   */
  async function sample(id: string): Promise<VoiceSample> {
    let spoke = false;
    // A second round only when the voice changed while its sample was spoken (the file was dropped).
    for (let round = 0; round < 2; round += 1) {
      const [row] = await db.select().from(voices).where(eq(voices.id, id));
      if (!row || row.provider !== 'espeak') throw notFound('voiceSamples.notFound');
      const found = await readCached(id);
      if (found) return { ...found, cached: !spoke };
      let pending = speaking.get(id);
      if (!pending) {
        pending = synthesize(row).finally(() => speaking.delete(id));
        speaking.set(id, pending);
      }
      await pending;
      spoke = true;
    }
    throw new AppError(503, 'voiceSamples.busy');
  }

  return { list, get, create, update, toggle, remove, sample };
}

export type VoiceService = ReturnType<typeof createVoiceService>;
