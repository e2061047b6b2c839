import path from 'node:path';
import { DATA_DIR_LOCK, PidLockHeld, acquirePidLock, lockHolder } from '../lib/pidLock';
import { BackupError, EXIT } from './errors';

/**
 * Where the console keeps its data, as the backup commands see it, and the lock of DATA_DIR.
 *
 * The embedded database allows one process at a time (DATA_DIR/server.pid, lib/pidLock.ts, held by
 * the server), and PGlite cannot open a data folder read-only beside a running server: the
 * backup refuses while that lock is held by a live process, and holds it itself while it runs,
 * so a server started meanwhile refuses to start. With DATABASE_URL the database is PostgreSQL's
 * to dump (pg_dump): the backup refuses, printing the procedure, unless --media-only asks for the
 * media folder and the app secret alone.
 */

export type Env = Record<string, string | undefined>;

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
    pidFile: path.join(dataDir, DATA_DIR_LOCK),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    appSecret: nonEmpty(env.APP_SECRET),
  };
}

export const isInside = (child: string, parent: string) => child === parent || child.startsWith(parent + path.sep);

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

/** Refuses when a live process (a server) holds DATA_DIR; otherwise holds it, so that none starts. Answers the release. */
export function lockDataDir(locations: Locations): () => void {
  try {
    return acquirePidLock(locations.pidFile).release;
  } catch (error) {
    if (!(error instanceof PidLockHeld)) throw error;
    throw new BackupError(
      `A server (pid ${error.pid}) is using ${locations.dataDir}. The embedded database allows one process at a time, ` +
        `and PGlite cannot open it read-only beside the server: stop the server (Ctrl-C or SIGTERM), run this again, ` +
        `then start it again. If no server is running, delete ${locations.pidFile}.`,
      EXIT.inUse,
    );
  }
}

/** The live process holding the lock of `dataDir`, if any. */
export function dataDirHolder(dataDir: string): number | undefined {
  return lockHolder(path.join(dataDir, DATA_DIR_LOCK));
}
