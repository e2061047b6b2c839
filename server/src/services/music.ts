import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { musicTracks, processes } from '../db/schema';
import { AppError, notFound, unprocessable } from '../errors';
import { translate, type Language } from '../messages';
import { writeFileAtomic } from '../lib/atomicWrite';
import { MediaInputError, inspectAudio } from '../lib/mediaInput';
import { audioDurationSeconds } from '../media/audio';
import { MediaError, type MediaTools } from '../media/ffmpeg';
import { measureIntegratedLoudness } from '../media/music';
import { createLinkSigner } from '../lib/signedLinks';
import type { Page } from './paging';
import type { DeleteResult } from '../contracts/common';
import { MUSIC_FORMATS, MUSIC_MOODS, type MusicDto, type MusicFormat, type MusicInput, type MusicMood } from '../contracts/music';

/**
 * Background music (docs/api-catalogue.md): tracks administrators upload (MP3, WAV or Ogg, up to
 * 20 MB), name, tag with a mood and switch on or off; every signed-in user lists the active ones
 * and may put one under a process's narration. The file lives in MEDIA_DIR/music/<id>.<format>,
 * beside the executions' media (so every worker of a deployment that shares MEDIA_DIR reads it),
 * and is served to the console's players by signed links, as the videos are.
 */

/** The largest upload. */
export const MUSIC_MAX_BYTES = 20 * 1024 * 1024;
/** A shorter track would loop every few seconds under the narration. */
export const MUSIC_MIN_SECONDS = 5;
/** How long a player's link to a track stays valid. */
export const MUSIC_LINK_TTL_MS = 60 * 60 * 1000;
export const MUSIC_CONTENT_TYPES: Record<MusicFormat, string> = { mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg' };
const NAME_MAX = 200;
/** Reading and measuring an upload: a 20 MB file takes a few seconds. */
const MEASURE_TIMEOUT_MS = 60_000;

/** What the engine needs of a process's track. */
export interface MusicForRun {
  file: string;
  loudnessLufs: number | null;
  isActive: boolean;
  name: string;
}

type MusicRow = typeof musicTracks.$inferSelect;

function parseName(value: string | undefined): string {
  const name = value?.trim() ?? '';
  if (!name) throw unprocessable('music.nameRequired');
  return name.slice(0, NAME_MAX);
}

function parseMood(value: string | undefined): MusicMood {
  const mood = value?.trim() ?? '';
  if (!(MUSIC_MOODS as readonly string[]).includes(mood)) {
    throw unprocessable('music.moodInvalid', { moods: MUSIC_MOODS.join(', ') });
  }
  return mood as MusicMood;
}

export interface MusicServiceDeps {
  db: Db;
  now: () => Date;
  appSecret: string;
  /** MEDIA_DIR: tracks live in MEDIA_DIR/music. */
  mediaDir: string;
  /** ffmpeg and ffprobe, to read and measure an upload. */
  tools: () => Promise<MediaTools>;
}

export function createMusicService({ db, now, appSecret, mediaDir, tools }: MusicServiceDeps) {
  const folder = path.join(mediaDir, 'music');
  const links = createLinkSigner({ appSecret, purpose: 'music-links', ttlMs: MUSIC_LINK_TTL_MS, now });
  // Written out: in a one-table select drizzle drops the table names from columns.
  const processCount =
    sql<number>`(select count(*)::int from "processes" where "processes"."music_id" = "music_tracks"."id")`.mapWith(Number);

  /** The track's file; `id` is always a uuid (checked by the routes and the database) and the format one of three. */
  const fileOf = (row: Pick<MusicRow, 'id' | 'format'>) => path.join(folder, `${row.id}.${row.format}`);

  /** `/api/v1/music/<id>/audio` with an expiry and signature (lib/signedLinks.ts). */
  const audioUrl = (id: string): string => `/api/v1/music/${id}/audio?${links.query(`music/${id}`)}`;

  /** True when the link is ours and has not expired. */
  const verifyLink = (id: string, expires: number, signature: string): boolean => links.verify(`music/${id}`, expires, signature);

  function toDto(row: MusicRow, processes: number): MusicDto {
    return {
      id: row.id,
      name: row.name,
      mood: row.mood as MusicMood,
      format: row.format as MusicFormat,
      size_bytes: row.sizeBytes,
      duration_seconds: Math.round(row.durationSeconds * 10) / 10,
      is_active: row.isActive,
      audio_url: audioUrl(row.id),
      process_count: processes,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  async function get(id: string): Promise<MusicDto> {
    const [found] = await db.select({ track: musicTracks, processCount }).from(musicTracks).where(eq(musicTracks.id, id));
    if (!found) throw notFound('music.notFound');
    return toDto(found.track, found.processCount);
  }

  /** Every track (or only active ones), oldest first, so the list keeps its order. */
  async function list(page: Page & { active_only?: boolean }): Promise<{ music: MusicDto[]; total: number }> {
    const where = page.active_only ? eq(musicTracks.isActive, true) : undefined;
    const rows = await db
      .select({ track: musicTracks, processCount })
      .from(musicTracks)
      .where(where)
      .orderBy(asc(musicTracks.createdAt), asc(musicTracks.id))
      .offset(page.skip)
      .limit(page.limit);
    const [total] = await db.select({ n: count() }).from(musicTracks).where(where);
    return { music: rows.map((r) => toDto(r.track, r.processCount)), total: total?.n ?? 0 };
  }

  /**
   * Adds a track from its bytes: the name and mood checked first, then what the file really is
   * (its first bytes, whatever the request's content type said), then ffmpeg reads it whole (its
   * length, its loudness). Nothing is stored unless all of it passes; the file is written under a
   * temporary name and renamed once its row exists.
   */
  async function create(userId: string, input: MusicInput, bytes: Buffer): Promise<MusicDto> {
    const name = parseName(input.name);
    const mood = parseMood(input.mood);
    if (bytes.length > MUSIC_MAX_BYTES) throw new AppError(413, 'music.tooLarge', { megabytes: MUSIC_MAX_BYTES / 1024 / 1024 });
    let format: MusicFormat;
    try {
      const { type } = inspectAudio(bytes, { maxBytes: MUSIC_MAX_BYTES });
      if (!(MUSIC_FORMATS as readonly string[]).includes(type)) throw new MediaInputError(`${type} is not accepted`);
      format = type as MusicFormat;
    } catch (error) {
      if (error instanceof MediaInputError) throw new AppError(415, 'music.typeInvalid');
      throw error;
    }
    const id = crypto.randomUUID();
    await fs.mkdir(folder, { recursive: true });
    const target = fileOf({ id, format });
    // The file first, then its row: a crash between the two leaves a file no row names (removed
    // with the stale uploads below), never a track without its file.
    const { durationSeconds, loudness } = await writeFileAtomic(
      target,
      async (temporary) => {
        await fs.writeFile(temporary, bytes, { mode: 0o600 });
        let measured: { durationSeconds: number; loudness: number | null };
        try {
          const media = await tools();
          measured = {
            durationSeconds: await audioDurationSeconds(temporary, media),
            loudness: await measureIntegratedLoudness(temporary, { tools: media, timeoutMs: MEASURE_TIMEOUT_MS }),
          };
        } catch (error) {
          if (error instanceof MediaError && error.code === 'missing') throw new AppError(503, 'music.ffmpegMissing');
          if (error instanceof MediaError) throw unprocessable('music.unreadable');
          throw error;
        }
        if (measured.durationSeconds < MUSIC_MIN_SECONDS) throw unprocessable('music.tooShort', { seconds: MUSIC_MIN_SECONDS });
        return measured;
      },
      { suffix: '.upload' },
    );
    const at = now();
    await db
      .insert(musicTracks)
      .values({
        id,
        userId,
        name,
        mood,
        format,
        sizeBytes: bytes.length,
        durationSeconds,
        loudnessLufs: loudness,
        createdAt: at,
        updatedAt: at,
      })
      .catch(async (error: unknown) => {
        await fs.rm(target, { force: true });
        throw error;
      });
    await removeStaleUploads();
    return get(id);
  }

  /**
   * Files an interrupted upload left (a server killed while it measured one, or between the file
   * and its row): temporary `.upload` files and track files no row names, older than an hour so an
   * upload under way is never touched. Run after each upload (a listing of one folder); a failure
   * is only logged.
   */
  async function removeStaleUploads(): Promise<void> {
    try {
      const names = await fs.readdir(folder);
      const known = new Set((await db.select({ id: musicTracks.id, format: musicTracks.format }).from(musicTracks)).map(fileOf));
      // File times are the machine's clock, not the service's.
      const before = Date.now() - 60 * 60 * 1000;
      for (const name of names) {
        const file = path.join(folder, name);
        if (known.has(file)) continue;
        const stat = await fs.stat(file).catch(() => undefined);
        if (stat?.isFile() && stat.mtimeMs < before) await fs.rm(file, { force: true });
      }
    } catch (error) {
      console.warn('could not remove stale music uploads', error instanceof Error ? error.message : error);
    }
  }

  /** Changes the name or the mood; the file stays. */
  async function update(id: string, input: MusicInput): Promise<MusicDto> {
    const changes: Partial<typeof musicTracks.$inferInsert> = { updatedAt: now() };
    if (input.name !== undefined) changes.name = parseName(input.name);
    if (input.mood !== undefined) changes.mood = parseMood(input.mood);
    const [updated] = await db.update(musicTracks).set(changes).where(eq(musicTracks.id, id)).returning({ id: musicTracks.id });
    if (!updated) throw notFound('music.notFound');
    return get(id);
  }

  /** Switched off, a track is no longer offered; processes that chose it run without music (and say so). */
  async function toggle(id: string): Promise<MusicDto> {
    const updated = await db
      .update(musicTracks)
      .set({ isActive: sql`not ${musicTracks.isActive}`, updatedAt: now() })
      .where(eq(musicTracks.id, id))
      .returning({ id: musicTracks.id });
    if (updated.length === 0) throw notFound('music.notFound');
    return get(id);
  }

  /** Deletes the track and its file; processes that used it go on without music. Answers how many. */
  async function remove(id: string, language: Language): Promise<DeleteResult> {
    const { row, affected } = await db.transaction(async (tx) => {
      const users = await tx
        .update(processes)
        .set({ musicId: null, updatedAt: now() })
        .where(eq(processes.musicId, id))
        .returning({ id: processes.id });
      const [deleted] = await tx.delete(musicTracks).where(eq(musicTracks.id, id)).returning();
      if (!deleted) throw notFound('music.notFound');
      return { row: deleted, affected: users.length };
    });
    await fs.rm(fileOf(row), { force: true });
    return {
      detail:
        affected === 0
          ? translate(language, 'music.deleted')
          : translate(language, 'music.deletedWithProcesses', { count: affected }),
      affected_processes: affected,
    };
  }

  /** The track's file for the player: its path, size and content type; 404 when the track or its file is gone. */
  async function audio(id: string): Promise<{ file: string; size: number; contentType: string }> {
    const [row] = await db
      .select({ id: musicTracks.id, format: musicTracks.format })
      .from(musicTracks)
      .where(eq(musicTracks.id, id));
    if (!row) throw notFound('music.notFound');
    const file = fileOf(row);
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat?.isFile()) throw notFound('music.notFound');
    return { file, size: stat.size, contentType: MUSIC_CONTENT_TYPES[row.format as MusicFormat] ?? 'application/octet-stream' };
  }

  /** The engine's view of a track: its file, loudness and state; undefined when it was deleted. */
  async function forRun(id: string): Promise<MusicForRun | undefined> {
    const [row] = await db.select().from(musicTracks).where(eq(musicTracks.id, id));
    if (!row) return undefined;
    return { file: fileOf(row), loudnessLufs: row.loudnessLufs, isActive: row.isActive, name: row.name };
  }

  return { list, get, create, update, toggle, remove, audio, verifyLink, forRun };
}

export type MusicService = ReturnType<typeof createMusicService>;
