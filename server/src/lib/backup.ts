import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db';
import { makePrivateDir } from './privateFiles';
import { TarError, extractEntry, readEntry, readTar, writeTar, type TarInput, type TarReadEntry } from './tar';

/**
 * `npm run backup -- FILE` and `npm run restore -- FILE` (scripts/backup.ts, scripts/restore.ts).
 *
 * The archive is one gzip-compressed tar file:
 *
 *   manifest.json     always first: format and version, creation time, product version, contents
 *   app-secret        DATA_DIR/app-secret (or APP_SECRET, only with --include-env-secret)
 *   pgdata.tar.gz     the embedded database, dumped through PGlite (dumpDataDir): consistent
 *   media/...         every file and folder of MEDIA_DIR
 *
 * The embedded database allows one process at a time (server.ts keeps DATA_DIR/server.pid), and
 * PGlite cannot open a data folder read-only beside a running server: the backup refuses while
 * that file names a live process, and holds the same lock itself while it runs, so a server
 * started meanwhile refuses to start. With DATABASE_URL the database is PostgreSQL's to dump
 * (pg_dump): the backup refuses, printing the procedure, unless --media-only asks for the media
 * folder and the app secret alone.
 */

export const BACKUP_FORMAT = 'story-video-console-backup';
export const BACKUP_FORMAT_VERSION = 1;

/** Exit codes of both commands (README, "Backups"). */
export const EXIT = {
  ok: 0,
  /** Anything unexpected: a full disk, a permission, a database that will not open. */
  failed: 1,
  /** No FILE, an unknown option, a DATA_DIR without a database. */
  usage: 2,
  /** The archive cannot be read, is not a backup, is damaged or holds a refused entry. */
  badArchive: 3,
  /** A server is running on DATA_DIR. */
  inUse: 4,
  /** Restore: DATA_DIR or MEDIA_DIR is not empty. Backup: FILE already exists. */
  notEmpty: 5,
  /** Backup with DATABASE_URL set and without --media-only. */
  postgres: 6,
  /** Stopped by SIGINT or SIGTERM: nothing was left behind. */
  interrupted: 130,
} as const;

export class BackupError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  format_version: number;
  created_at: string;
  product: { name: string; version: string };
  database: { kind: 'pglite'; entry: 'pgdata.tar.gz'; bytes: number; sha256: string } | { kind: 'postgres'; included: false };
  media: { entry: 'media/'; files: number; folders: number; bytes: number };
  secret: {
    /** Where the server took it from: DATA_DIR/app-secret, APP_SECRET, or nowhere (never started). */
    source: 'file' | 'environment' | 'none';
    included: boolean;
    /** HMAC of a fixed text under the secret: tells a restore whether an APP_SECRET is the same one. */
    fingerprint?: string;
  };
}

const MANIFEST = 'manifest.json';
const SECRET = 'app-secret';
const DUMP = 'pgdata.tar.gz';
const MEDIA = 'media';
const MAX_MANIFEST_BYTES = 1 << 20;
const MAX_SECRET_BYTES = 4096;
/**
 * The largest database dump a backup writes and a restore takes: PGlite dumps it, and loads it
 * again, whole in memory (and unpacks it there), so a larger one could not be restored anyway. A
 * restore refuses a manifest that claims more before reading anything, streams the dump to a file
 * (never into memory) and stops at the size its manifest gives.
 */
export const MAX_DUMP_BYTES = 2 * 1024 * 1024 * 1024;

type Env = Record<string, string | undefined>;

export interface Locations {
  dataDir: string;
  mediaDir: string;
  pgdataDir: string;
  secretFile: string;
  pidFile: string;
  databaseUrl: string | undefined;
  appSecret: string | undefined;
}

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** The folders config.ts derives from the environment, read without its side effects (it writes a new secret). */
export function locationsFrom(env: Env): Locations {
  const dataDir = path.resolve(nonEmpty(env.DATA_DIR) ?? 'data');
  return {
    dataDir,
    mediaDir: path.resolve(nonEmpty(env.MEDIA_DIR) ?? path.join(dataDir, 'media')),
    pgdataDir: path.join(dataDir, 'pgdata'),
    secretFile: path.join(dataDir, 'app-secret'),
    pidFile: path.join(dataDir, 'server.pid'),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    appSecret: nonEmpty(env.APP_SECRET),
  };
}

export function secretFingerprint(secret: string): string {
  return crypto.createHmac('sha256', secret).update('story-video-console backup fingerprint v1').digest('hex').slice(0, 16);
}

function productVersion(): { name: string; version: string } {
  try {
    // server/src/lib and server/dist/lib are both three folders below the package root.
    const file = path.resolve(__dirname, '..', '..', '..', 'package.json');
    const { name, version } = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
    return { name: name ?? 'story-video-console', version: version ?? 'unknown' };
  } catch {
    return { name: 'story-video-console', version: 'unknown' };
  }
}

const isInside = (child: string, parent: string) => child === parent || child.startsWith(parent + path.sep);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

export const POSTGRES_PROCEDURE = [
  "With DATABASE_URL the database lives on your PostgreSQL server: back it up with PostgreSQL's tools, plus the files:",
  '  1. the database (consistent while the servers run):',
  '       pg_dump --format=custom --file=console.pgdump "$DATABASE_URL"',
  '  2. then the media folder and the app secret:',
  '       npm run backup -- console-files.tar.gz --media-only',
  "     (with APP_SECRET set, keep that value with your deployment's settings; --include-env-secret also puts it in the archive)",
  'To restore: create an empty database and run',
  '       pg_restore --no-owner --dbname="$DATABASE_URL" console.pgdump',
  '  then npm run restore -- console-files.tar.gz into an empty DATA_DIR, and start every process with the same APP_SECRET.',
].join('\n');

// ---------------------------------------------------------------------------------------------
// The lock of DATA_DIR (the same pid file as server.ts)

function livePid(pidFile: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(pidFile, 'utf8').trim();
  } catch {
    return undefined;
  }
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

/** Refuses when a server runs on DATA_DIR; otherwise writes this process's pid so that none starts. */
function lockDataDir(locations: Locations): () => void {
  const pid = livePid(locations.pidFile);
  if (pid !== undefined) {
    throw new BackupError(
      `A server (pid ${pid}) is using ${locations.dataDir}. The embedded database allows one process at a time, ` +
        `and PGlite cannot open it read-only beside the server: stop the server (Ctrl-C or SIGTERM), run this again, ` +
        `then start it again. If no server is running, delete ${locations.pidFile}.`,
      EXIT.inUse,
    );
  }
  fs.writeFileSync(locations.pidFile, String(process.pid));
  return () => {
    try {
      if (fs.readFileSync(locations.pidFile, 'utf8').trim() === String(process.pid)) fs.rmSync(locations.pidFile);
    } catch {
      // already gone
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Backup

interface MediaItem {
  name: string;
  file: string;
  type: 'file' | 'directory';
  size: number;
  mode: number;
  mtime: Date;
}

/** Every file and folder under `root`, parents first, sorted; links and special files are skipped (named in `skipped`). */
async function walkMedia(root: string): Promise<{ items: MediaItem[]; skipped: string[] }> {
  const items: MediaItem[] = [];
  const skipped: string[] = [];
  async function visit(folder: string, prefix: string): Promise<void> {
    const names = (await fs.promises.readdir(folder)).sort();
    for (const name of names) {
      const file = path.join(folder, name);
      const relative = prefix ? `${prefix}/${name}` : name;
      // eslint-disable-next-line no-control-regex
      if (name.includes('\\') || /[\u0000-\u001f\u007f]/.test(name)) {
        skipped.push(`${relative} (a backslash or control character in the name)`);
        continue;
      }
      let stat: fs.Stats;
      try {
        stat = await fs.promises.lstat(file);
      } catch {
        skipped.push(`${relative} (vanished)`);
        continue;
      }
      if (stat.isDirectory()) {
        items.push({ name: relative, file, type: 'directory', size: 0, mode: stat.mode, mtime: stat.mtime });
        await visit(file, relative);
      } else if (stat.isFile()) {
        items.push({ name: relative, file, type: 'file', size: stat.size, mode: stat.mode, mtime: stat.mtime });
      } else {
        skipped.push(`${relative} (${stat.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'})`);
      }
    }
  }
  await visit(root, '');
  return { items, skipped };
}

export interface BackupOptions {
  file: string;
  env: Env;
  /** Put APP_SECRET from the environment into the archive. */
  includeEnvSecret?: boolean;
  /** With DATABASE_URL: back up the media folder and the app secret only. */
  mediaOnly?: boolean;
  now?: () => Date;
  /** Aborting stops the backup and removes the partial file. */
  signal?: AbortSignal;
}

export interface BackupReport {
  file: string;
  bytes: number;
  manifest: BackupManifest;
  locations: Locations;
  warnings: string[];
}

export async function createBackup(options: BackupOptions): Promise<BackupReport> {
  const locations = locationsFrom(options.env);
  const { dataDir, mediaDir, pgdataDir, secretFile, databaseUrl, appSecret } = locations;
  const file = path.resolve(options.file);
  const warnings: string[] = [];

  if (databaseUrl && !options.mediaOnly) {
    throw new BackupError(`DATABASE_URL is set: this command does not dump PostgreSQL.\n${POSTGRES_PROCEDURE}`, EXIT.postgres);
  }
  if (!databaseUrl && options.mediaOnly) {
    throw new BackupError(
      '--media-only is for a PostgreSQL deployment (DATABASE_URL set); the embedded database is always backed up',
      EXIT.usage,
    );
  }
  if (options.includeEnvSecret && !appSecret) {
    throw new BackupError('--include-env-secret: APP_SECRET is not set in the environment', EXIT.usage);
  }
  if (options.includeEnvSecret && appSecret!.length < 32) {
    throw new BackupError('APP_SECRET must be at least 32 characters long', EXIT.usage);
  }
  if (!databaseUrl && !fs.existsSync(path.join(pgdataDir, 'PG_VERSION'))) {
    throw new BackupError(`No embedded database in ${pgdataDir}: is DATA_DIR right? (it is ${dataDir})`, EXIT.usage);
  }
  if (isInside(dataDir, mediaDir)) {
    throw new BackupError(`MEDIA_DIR (${mediaDir}) contains DATA_DIR: give the media their own folder`, EXIT.usage);
  }
  if (isInside(file, mediaDir) || isInside(file, pgdataDir)) {
    throw new BackupError(`Write the backup outside MEDIA_DIR and DATA_DIR/pgdata (not ${file})`, EXIT.usage);
  }
  if (fs.existsSync(file))
    throw new BackupError(`${file} already exists: choose another name, or move it away first`, EXIT.notEmpty);
  if (!fs.existsSync(path.dirname(file))) throw new BackupError(`The folder ${path.dirname(file)} does not exist`, EXIT.usage);

  // Only the embedded database needs the lock: PostgreSQL deployments run many processes.
  const unlock = databaseUrl ? () => undefined : lockDataDir(locations);
  const partial = `${file}.partial-${process.pid}`;
  try {
    const media = fs.existsSync(mediaDir) ? await walkMedia(mediaDir) : { items: [], skipped: [] };
    if (!fs.existsSync(mediaDir)) warnings.push(`${mediaDir} does not exist: the archive holds no media`);
    for (const skipped of media.skipped) warnings.push(`not in the archive: ${path.join(mediaDir, skipped)}`);

    let secret: BackupManifest['secret'];
    let secretBytes: Buffer | undefined;
    if (appSecret) {
      secret = { source: 'environment', included: Boolean(options.includeEnvSecret), fingerprint: secretFingerprint(appSecret) };
      if (options.includeEnvSecret) {
        secretBytes = Buffer.from(`${appSecret}\n`);
        warnings.push(`the archive holds APP_SECRET (--include-env-secret): keep it as private as the secret itself`);
      }
      if (fs.existsSync(secretFile))
        warnings.push(`${secretFile} is not used while APP_SECRET is set, and is not in the archive`);
    } else {
      const stored = fs.existsSync(secretFile) ? fs.readFileSync(secretFile, 'utf8').trim() : '';
      if (stored.length >= 32) {
        secret = { source: 'file', included: true, fingerprint: secretFingerprint(stored) };
        secretBytes = Buffer.from(`${stored}\n`);
      } else {
        secret = { source: 'none', included: false };
        warnings.push(`no app secret: ${secretFile} is missing and APP_SECRET is unset (a server never started here?)`);
      }
    }

    let dump: Buffer | undefined;
    if (!databaseUrl) {
      options.signal?.throwIfAborted();
      const database = await openDatabase({ pgliteDir: pgdataDir, migrate: false });
      try {
        dump = Buffer.from(await (await database.dumpDataDir!()).arrayBuffer());
      } finally {
        await database.close();
      }
      if (dump.length > MAX_DUMP_BYTES) {
        throw new BackupError(
          `The embedded database's dump is ${formatBytes(dump.length)}, more than a restore takes (${formatBytes(MAX_DUMP_BYTES)}): ` +
            'move this console to PostgreSQL (DATABASE_URL) and back it up with pg_dump',
          EXIT.failed,
        );
      }
    }

    const files = media.items.filter((item) => item.type === 'file');
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      format_version: BACKUP_FORMAT_VERSION,
      created_at: (options.now?.() ?? new Date()).toISOString(),
      product: productVersion(),
      database: dump
        ? { kind: 'pglite', entry: DUMP, bytes: dump.length, sha256: crypto.createHash('sha256').update(dump).digest('hex') }
        : { kind: 'postgres', included: false },
      media: {
        entry: 'media/',
        files: files.length,
        folders: media.items.length - files.length,
        bytes: files.reduce((sum, item) => sum + item.size, 0),
      },
      secret,
    };

    const entries = function* (): Generator<TarInput> {
      yield { name: MANIFEST, type: 'file', data: Buffer.from(JSON.stringify(manifest, null, 2) + '\n'), mode: 0o600 };
      if (secretBytes) yield { name: SECRET, type: 'file', data: secretBytes, mode: 0o600 };
      if (dump) yield { name: DUMP, type: 'file', data: dump, mode: 0o600 };
      if (fs.existsSync(mediaDir)) yield { name: MEDIA, type: 'directory' };
      for (const item of media.items) {
        yield {
          name: `${MEDIA}/${item.name}`,
          type: item.type,
          size: item.size,
          mode: item.mode,
          mtime: item.mtime,
          ...(item.type === 'file' ? { data: () => fs.createReadStream(item.file) } : {}),
        };
      }
    };
    options.signal?.throwIfAborted();
    await pipeline(writeTar(entries()), zlib.createGzip(), fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }), {
      signal: options.signal,
    });
    fs.renameSync(partial, file);
    return { file, bytes: fs.statSync(file).size, manifest, locations, warnings };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    if (options.signal?.aborted) throw new BackupError('Interrupted: no backup was written', EXIT.interrupted);
    if (error instanceof TarError) throw new BackupError(`${error.message}; no backup was written`, EXIT.failed);
    throw error;
  } finally {
    unlock();
  }
}

// ---------------------------------------------------------------------------------------------
// Restore

export interface RestoreOptions {
  file: string;
  env: Env;
  /** Aborting stops the restore and leaves DATA_DIR (and MEDIA_DIR) as they were. */
  signal?: AbortSignal;
  /** The largest database dump taken; MAX_DUMP_BYTES by default (tests try smaller ones). */
  maxDumpBytes?: number;
}

export interface RestoreReport {
  file: string;
  manifest: BackupManifest;
  locations: Locations;
  /** Users in the restored embedded database. */
  users?: number;
  media: { files: number; folders: number; bytes: number };
  secretRestored: boolean;
  warnings: string[];
}

const corrupt = (file: string, why: string) => new BackupError(`${file} cannot be restored: ${why}`, EXIT.badArchive);

/** Absent, or an empty folder: anything else is refused. */
function checkEmpty(folder: string, what: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(folder);
  } catch {
    return;
  }
  if (!stat.isDirectory())
    throw new BackupError(`${what} (${folder}) is a file: restore into an empty or new folder`, EXIT.notEmpty);
  const names = fs.readdirSync(folder);
  if (names.length > 0) {
    const live = what === 'DATA_DIR' ? livePid(path.join(folder, 'server.pid')) : undefined;
    throw new BackupError(
      live !== undefined
        ? `A server (pid ${live}) is running on ${folder}: stop it; restore only into an empty or new DATA_DIR`
        : `${what} (${folder}) is not empty (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}): ` +
            `restore only into an empty or new folder, so nothing is overwritten. Set ${what} to another folder, or move this one away.`,
      live !== undefined ? EXIT.inUse : EXIT.notEmpty,
    );
  }
}

/**
 * Writes an entry's body to `target` (a new file, 0600) while hashing it, and stops with a
 * TarError past `limit` bytes, whatever the entry's header said. Answers the SHA-256.
 */
async function saveEntry(entry: TarReadEntry, target: string, limit: number): Promise<string> {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  await pipeline(
    entry.body(),
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        bytes += chunk.length;
        if (bytes > limit) throw new TarError(`${entry.name} is larger than its manifest gives`);
        hash.update(chunk);
        yield chunk;
      }
    },
    fs.createWriteStream(target, { flags: 'wx', mode: 0o600 }),
  );
  return hash.digest('hex');
}

function parseManifest(file: string, bytes: Buffer): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(bytes.toString('utf8')) as BackupManifest;
  } catch {
    throw corrupt(file, 'its manifest is not JSON');
  }
  if (manifest?.format !== BACKUP_FORMAT) throw corrupt(file, 'it is not a backup of this console');
  if (!Number.isInteger(manifest.format_version) || manifest.format_version < 1)
    throw corrupt(file, 'its manifest has no valid format_version');
  if (manifest.format_version > BACKUP_FORMAT_VERSION) {
    throw corrupt(
      file,
      `it was made by a newer version (format ${manifest.format_version}; this one reads ${BACKUP_FORMAT_VERSION}): restore with that version`,
    );
  }
  const count = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
  const { database, media, secret } = manifest;
  const databaseOk =
    (database?.kind === 'pglite' && count(database.bytes) && /^[0-9a-f]{64}$/.test(String(database.sha256))) ||
    database?.kind === 'postgres';
  const mediaOk = count(media?.files) && count(media?.folders) && count(media?.bytes);
  const secretOk = ['file', 'environment', 'none'].includes(secret?.source) && typeof secret.included === 'boolean';
  if (!databaseOk || !mediaOk || !secretOk) throw corrupt(file, 'its manifest is incomplete');
  return manifest;
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreReport> {
  const locations = locationsFrom(options.env);
  const { dataDir, mediaDir, pgdataDir, secretFile, appSecret, databaseUrl } = locations;
  const file = path.resolve(options.file);
  const warnings: string[] = [];

  try {
    if (!fs.statSync(file).isFile()) throw new Error('not a file');
    fs.accessSync(file, fs.constants.R_OK);
  } catch (error) {
    throw new BackupError(`Cannot read ${file}: ${(error as Error).message}`, EXIT.badArchive);
  }
  if (isInside(dataDir, mediaDir)) {
    throw new BackupError(`MEDIA_DIR (${mediaDir}) contains DATA_DIR: give the media their own folder`, EXIT.usage);
  }
  const mediaSeparate = !isInside(mediaDir, dataDir);
  checkEmpty(dataDir, 'DATA_DIR');
  if (mediaSeparate) checkEmpty(mediaDir, 'MEDIA_DIR');

  const createdDataDir = !fs.existsSync(dataDir);
  const createdMediaDir = mediaSeparate && !fs.existsSync(mediaDir);
  makePrivateDir(dataDir);
  // Hold DATA_DIR like a server does, so that none starts on it before the restore is done.
  const unlock = lockDataDir(locations);
  let finished = false;
  try {
    let manifest: BackupManifest | undefined;
    // The dump goes to a file in DATA_DIR (this account's alone), never into memory; removed once loaded.
    const dumpFile = path.join(dataDir, `.restore-${process.pid}-${DUMP}`);
    let dumpHash: string | undefined;
    const maxDumpBytes = options.maxDumpBytes ?? MAX_DUMP_BYTES;
    let secret: string | undefined;
    const media = { files: 0, folders: 0, bytes: 0 };

    await pipeline(
      fs.createReadStream(file),
      zlib.createGunzip(),
      async (source: AsyncIterable<Buffer>) => {
        for await (const entry of readTar(source)) {
          if (!manifest) {
            if (entry.name !== MANIFEST || entry.type !== 'file')
              throw corrupt(file, 'it is not a backup of this console (no manifest first)');
            manifest = parseManifest(file, await readEntry(entry, MAX_MANIFEST_BYTES));
            if (manifest.database.kind === 'pglite' && manifest.database.bytes > maxDumpBytes) {
              throw corrupt(
                file,
                `its manifest gives a database dump of ${formatBytes(manifest.database.bytes)}, more than a restore takes (${formatBytes(maxDumpBytes)})`,
              );
            }
            continue;
          }
          if (entry.name === DUMP && entry.type === 'file') {
            if (manifest.database.kind !== 'pglite' || dumpHash !== undefined) throw corrupt(file, `unexpected ${DUMP}`);
            if (entry.size !== manifest.database.bytes) throw corrupt(file, `${DUMP} is not the size its manifest gives`);
            dumpHash = await saveEntry(entry, dumpFile, Math.min(manifest.database.bytes, maxDumpBytes));
          } else if (entry.name === SECRET && entry.type === 'file') {
            if (!manifest.secret.included || secret !== undefined) throw corrupt(file, `unexpected ${SECRET}`);
            secret = (await readEntry(entry, MAX_SECRET_BYTES)).toString('utf8').trim();
            if (secret.length < 32 || secretFingerprint(secret) !== manifest.secret.fingerprint) {
              throw corrupt(file, 'its app secret does not match its manifest');
            }
          } else if (entry.name === MEDIA && entry.type === 'directory') {
            fs.mkdirSync(mediaDir, { recursive: true });
          } else if (entry.name.startsWith(`${MEDIA}/`)) {
            if (entry.type === 'file') {
              media.files += 1;
              media.bytes += entry.size;
            } else media.folders += 1;
            if (
              media.files > manifest.media.files ||
              media.folders > manifest.media.folders ||
              media.bytes > manifest.media.bytes
            ) {
              throw corrupt(file, 'it holds more media than its manifest gives');
            }
            fs.mkdirSync(mediaDir, { recursive: true });
            await extractEntry(mediaDir, entry, entry.name.slice(MEDIA.length + 1));
          } else {
            throw corrupt(file, `unexpected entry "${entry.name}"`);
          }
        }
      },
      { signal: options.signal },
    );

    // The whole archive has been read, and gzip's checksum checked: now the pieces must all be there.
    if (!manifest) throw corrupt(file, 'it is empty');
    if (manifest.database.kind === 'pglite') {
      if (dumpHash === undefined) throw corrupt(file, `${DUMP} is missing`);
      if (dumpHash !== manifest.database.sha256) {
        throw corrupt(file, `${DUMP} does not match its checksum`);
      }
    }
    if (manifest.secret.included && secret === undefined) throw corrupt(file, `${SECRET} is missing`);
    if (
      media.files !== manifest.media.files ||
      media.folders !== manifest.media.folders ||
      media.bytes !== manifest.media.bytes
    ) {
      throw corrupt(file, 'media are missing');
    }

    let users: number | undefined;
    options.signal?.throwIfAborted();
    if (dumpHash !== undefined) {
      let database: Awaited<ReturnType<typeof openDatabase>>;
      try {
        // A Blob backed by the file: PGlite reads it when it loads (at most maxDumpBytes).
        const loadDataDir = await fs.openAsBlob(dumpFile, { type: 'application/x-gzip' });
        database = await openDatabase({ pgliteDir: pgdataDir, loadDataDir, migrate: false });
      } catch (error) {
        throw corrupt(file, `its database does not load (${(error as Error).message})`);
      } finally {
        fs.rmSync(dumpFile, { force: true });
      }
      try {
        const result = (await database.db.execute(sql`select count(*)::int as n from users`)) as unknown as {
          rows: { n: number }[];
        };
        users = result.rows[0]?.n;
      } catch (error) {
        throw corrupt(file, `its database is not this console's (${(error as Error).message})`);
      } finally {
        await database.close();
      }
    }
    options.signal?.throwIfAborted();
    if (secret !== undefined) {
      fs.writeFileSync(secretFile, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      fs.chmodSync(secretFile, 0o600);
    }

    const current = productVersion();
    if (manifest.product?.version !== current.version) {
      warnings.push(
        `the backup was made by version ${manifest.product?.version} and this is ${current.version}: the server applies its ` +
          'migrations when it starts; a backup of a newer version may not work with an older one',
      );
    }
    const fingerprint = manifest.secret.fingerprint;
    if (manifest.secret.source === 'environment' && !manifest.secret.included) {
      if (!appSecret) {
        warnings.push(
          'APP_SECRET came from the environment when the backup was made and is not in the archive: start the server with ' +
            'the same APP_SECRET, or stored keys and tokens cannot be decrypted (and sessions end)',
        );
      } else if (secretFingerprint(appSecret) !== fingerprint) {
        warnings.push(
          'APP_SECRET is not the one the backup was made with: stored keys and tokens will not decrypt. Set the original value.',
        );
      }
    } else if (appSecret && fingerprint && secretFingerprint(appSecret) !== fingerprint) {
      warnings.push(
        `APP_SECRET is set and differs from the backup's secret: the server would use APP_SECRET, and stored keys and tokens ` +
          `would not decrypt. Unset APP_SECRET to use the restored ${secretFile}, or set it to the original value.`,
      );
    } else if (manifest.secret.source === 'none') {
      warnings.push('the archive holds no app secret (there was none when the backup was made)');
    }
    if (manifest.database.kind === 'postgres') {
      warnings.push(
        `the database is not in this archive (it was on PostgreSQL): restore your pg_dump too.\n${POSTGRES_PROCEDURE}`,
      );
    } else if (databaseUrl) {
      warnings.push('DATABASE_URL is set: a server started with it uses PostgreSQL and ignores the restored embedded database');
    }
    finished = true;
    return { file, manifest, locations, users, media, secretRestored: secret !== undefined, warnings };
  } catch (error) {
    if (options.signal?.aborted) {
      throw new BackupError(`Interrupted: ${dataDir} was left as it was (nothing restored)`, EXIT.interrupted);
    }
    if (error instanceof TarError) throw corrupt(file, error.message);
    if (typeof (error as NodeJS.ErrnoException).code === 'string' && (error as NodeJS.ErrnoException).code!.startsWith('Z_')) {
      throw corrupt(file, `it is not a gzip archive, or it is truncated or damaged (${(error as Error).message})`);
    }
    throw error;
  } finally {
    unlock();
    if (!finished) {
      // Leave the folders as they were: empty, or absent.
      for (const name of fs.existsSync(dataDir) ? fs.readdirSync(dataDir) : []) {
        fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
      }
      if (createdDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (mediaSeparate) {
        for (const name of fs.existsSync(mediaDir) ? fs.readdirSync(mediaDir) : []) {
          fs.rmSync(path.join(mediaDir, name), { recursive: true, force: true });
        }
        if (createdMediaDir) fs.rmSync(mediaDir, { recursive: true, force: true });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The commands

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

const BACKUP_USAGE = [
  'Usage: npm run backup -- FILE [--include-env-secret] [--media-only]',
  '  Writes the embedded database, the media folder and the app secret of DATA_DIR into FILE (a .tar.gz).',
  '  Stop the server first. --include-env-secret puts APP_SECRET from the environment in the archive;',
  '  --media-only (DATABASE_URL set) backs up the media folder and the app secret alone.',
].join('\n');

const RESTORE_USAGE = [
  'Usage: npm run restore -- FILE',
  '  Restores a backup made by `npm run backup` into DATA_DIR (and MEDIA_DIR), which must be empty or absent.',
].join('\n');

function parseArgs(argv: string[], flags: string[]): { file?: string; flags: Set<string>; error?: string; help: boolean } {
  const found = new Set<string>();
  const files: string[] = [];
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') return { flags: found, help: true };
    if (arg.startsWith('-') && arg !== '-') {
      if (!flags.includes(arg)) return { flags: found, help: false, error: `Unknown option ${arg}` };
      found.add(arg);
    } else files.push(arg);
  }
  if (files.length === 0) return { flags: found, help: false, error: 'Missing FILE: name the archive' };
  if (files.length > 1) return { flags: found, help: false, error: `One FILE only (got ${files.join(', ')})` };
  return { file: files[0], flags: found, help: false };
}

function failure(error: unknown, io: Output): number {
  if (error instanceof BackupError) {
    io.err(`Error: ${error.message}`);
    return error.exitCode;
  }
  io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT.failed;
}

/** `npm run backup -- FILE [--include-env-secret] [--media-only]`: answers the exit code. */
export async function backupCommand(argv: string[], env: Env, io: Output, signal?: AbortSignal): Promise<number> {
  const args = parseArgs(argv, ['--include-env-secret', '--media-only']);
  if (args.help) {
    io.out(BACKUP_USAGE);
    return EXIT.ok;
  }
  if (args.error || !args.file) {
    io.err(`Error: ${args.error}\n${BACKUP_USAGE}`);
    return EXIT.usage;
  }
  try {
    const report = await createBackup({
      file: args.file,
      env,
      includeEnvSecret: args.flags.has('--include-env-secret'),
      mediaOnly: args.flags.has('--media-only'),
      signal,
    });
    const { manifest, locations } = report;
    for (const warning of report.warnings) io.err(`Warning: ${warning}`);
    io.out(`Backup written to ${report.file} (${formatBytes(report.bytes)}, readable by its owner only):`);
    io.out(
      manifest.database.kind === 'pglite'
        ? `  database:   the embedded database of ${locations.pgdataDir} (dump of ${formatBytes(manifest.database.bytes)})`
        : '  database:   NOT included (PostgreSQL): back it up with pg_dump (README, "Backups")',
    );
    io.out(
      `  media:      ${plural(manifest.media.files, 'file')} in ${plural(manifest.media.folders, 'folder')}, ${formatBytes(manifest.media.bytes)}, from ${locations.mediaDir}`,
    );
    io.out(
      manifest.secret.source === 'file'
        ? `  app secret: ${locations.secretFile} (the archive holds a secret: keep it private)`
        : manifest.secret.source === 'environment'
          ? manifest.secret.included
            ? '  app secret: APP_SECRET from the environment (the archive holds a secret: keep it private)'
            : '  app secret: NOT included: APP_SECRET comes from the environment; set the same value when you restore'
          : '  app secret: none',
    );
    return EXIT.ok;
  } catch (error) {
    return failure(error, io);
  }
}

/** `npm run restore -- FILE`: answers the exit code. */
export async function restoreCommand(argv: string[], env: Env, io: Output, signal?: AbortSignal): Promise<number> {
  const args = parseArgs(argv, []);
  if (args.help) {
    io.out(RESTORE_USAGE);
    return EXIT.ok;
  }
  if (args.error || !args.file) {
    io.err(`Error: ${args.error}\n${RESTORE_USAGE}`);
    return EXIT.usage;
  }
  try {
    const report = await restoreBackup({ file: args.file, env, signal });
    const { manifest, locations } = report;
    io.out(
      `Restored ${report.file} (made ${manifest.created_at} by ${manifest.product?.name} ${manifest.product?.version}) into ${locations.dataDir}:`,
    );
    io.out(
      manifest.database.kind === 'pglite'
        ? `  database:   ${locations.pgdataDir} (embedded, ${report.users === undefined ? 'unknown number of users' : plural(report.users, 'user')})`
        : '  database:   not in the archive (PostgreSQL): restore it with pg_restore',
    );
    io.out(
      `  media:      ${plural(report.media.files, 'file')} in ${plural(report.media.folders, 'folder')}, ${formatBytes(report.media.bytes)}, in ${locations.mediaDir}`,
    );
    io.out(
      report.secretRestored
        ? `  app secret: ${locations.secretFile} (mode 0600)`
        : '  app secret: not in the archive: set APP_SECRET as it was when the backup was made',
    );
    for (const warning of report.warnings) io.err(`Warning: ${warning}`);
    io.out('Start the console on it with the same DATA_DIR (and MEDIA_DIR): npm start');
    return EXIT.ok;
  } catch (error) {
    return failure(error, io);
  }
}
