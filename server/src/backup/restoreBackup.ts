import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db';
import { makePrivateDir } from '../lib/privateFiles';
import { TarError, extractEntry, readEntry, readTar, type TarReadEntry } from './archive';
import { BackupError, EXIT, formatBytes } from './errors';
import { POSTGRES_PROCEDURE, dataDirHolder, isInside, locationsFrom, lockDataDir, type Env, type Locations } from './locations';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  DUMP,
  MANIFEST,
  MAX_DUMP_BYTES,
  MAX_MANIFEST_BYTES,
  MAX_SECRET_BYTES,
  MEDIA,
  SECRET,
  productVersion,
  secretFingerprint,
  type BackupManifest,
} from './manifest';

/**
 * `npm run restore -- FILE`: a backup (manifest.ts) into an empty or new DATA_DIR (and MEDIA_DIR).
 * Every entry is checked as it is read (archive.ts), against the manifest that comes first; when
 * anything fails, the folders are left as they were.
 */

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
    const live = what === 'DATA_DIR' ? dataDirHolder(folder) : undefined;
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
