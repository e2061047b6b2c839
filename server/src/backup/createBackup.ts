import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { openDatabase } from '../db';
import { writeFileAtomic } from '../lib/atomicWrite';
import { TarError, writeTar, type TarInput } from './archive';
import { BackupError, EXIT, formatBytes } from './errors';
import { POSTGRES_PROCEDURE, isInside, locationsFrom, lockDataDir, type Env, type Locations } from './locations';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DUMP,
  MANIFEST,
  MAX_DUMP_BYTES,
  MEDIA,
  SECRET,
  productVersion,
  secretFingerprint,
  type BackupManifest,
} from './manifest';

/** `npm run backup -- FILE`: the embedded database, the media folder and the app secret of DATA_DIR in one archive (manifest.ts). */

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
    // Written beside FILE under a temporary name, renamed when complete: a failure or an interruption leaves nothing.
    await writeFileAtomic(
      file,
      (temporary) =>
        pipeline(writeTar(entries()), zlib.createGzip(), fs.createWriteStream(temporary, { flags: 'wx', mode: 0o600 }), {
          signal: options.signal,
        }),
      { suffix: '.partial' },
    );
    return { file, bytes: fs.statSync(file).size, manifest, locations, warnings };
  } catch (error) {
    if (options.signal?.aborted) throw new BackupError('Interrupted: no backup was written', EXIT.interrupted);
    if (error instanceof TarError) throw new BackupError(`${error.message}; no backup was written`, EXIT.failed);
    throw error;
  } finally {
    unlock();
  }
}
