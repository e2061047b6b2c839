import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';
import { makePrivateDir, tightenTree } from '../lib/privateFiles';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** What pg-boss needs from a database: one call that runs SQL, with or without parameters. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** An executor for pg-boss on the same database. */
  executor: SqlExecutor;
  close(): Promise<void>;
  /** PGlite only: the whole data folder as a tarball, to clone a database quickly. */
  dumpDataDir?: () => Promise<Blob>;
  /**
   * PGlite only: calls `onChange(userId)` whenever a user row changes (migration 0004's trigger).
   * PGlite runs the call before the write that caused it resolves, so in-memory copies of users
   * dropped here are never read stale. Answers a function that stops listening.
   */
  watchUsers?: (onChange: (userId: string) => void) => Promise<() => Promise<void>>;
}

/** The channel migration 0004's trigger announces user changes on. */
export const USER_CHANGED_CHANNEL = 'user_changed';

export const MIGRATIONS_DIR = path.resolve(__dirname, '..', '..', 'drizzle');

export interface OpenOptions {
  /** A PostgreSQL server URL; when absent, PGlite is used. */
  databaseUrl?: string;
  /** PGlite data folder; absent means in memory. */
  pgliteDir?: string;
  /** A PGlite data-folder dump to start from (used by tests). */
  loadDataDir?: Blob;
  /** Apply the committed migrations (default true). */
  migrate?: boolean;
  poolSize?: number;
}

/**
 * pg-boss sends multi-statement scripts without parameters, which PGlite's query() refuses:
 * those go through exec() and their result sets are flattened.
 */
export function pgliteExecutor(client: PGlite): SqlExecutor {
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) {
        const result = await client.query(text, values as unknown[]);
        return { rows: result.rows };
      }
      const results = await client.exec(text);
      return { rows: results.flatMap((r) => r.rows) };
    },
  };
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  const shouldMigrate = options.migrate ?? true;
  if (options.databaseUrl) {
    // A connection that cannot be made within 5 s fails the query (an API answer is a 503 then, never a hang).
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
    });
    pool.on('error', () => undefined); // idle client errors surface on the next query
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    try {
      if (shouldMigrate) await migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_DIR });
    } catch (error) {
      await pool.end();
      throw error;
    }
    return {
      db,
      kind: 'postgres',
      executor: { executeSql: (text, values) => pool.query(text, values as unknown[]) },
      close: () => pool.end(),
    };
  }

  if (options.pgliteDir) makePrivateDir(options.pgliteDir);
  const client = await PGlite.create(options.pgliteDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  // PGlite writes the files of a new (or loaded) database as 0666 whatever the umask, and an older
  // release left them so: the database is this account's alone (lib/privateFiles.ts).
  if (options.pgliteDir) tightenTree(options.pgliteDir);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  try {
    if (shouldMigrate) await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await client.close();
    throw error;
  }
  let closed = false;
  return {
    db,
    kind: 'pglite',
    executor: pgliteExecutor(client),
    dumpDataDir: async () => (await client.dumpDataDir('gzip')) as Blob,
    async watchUsers(onChange) {
      const unlisten = await client.listen(USER_CHANGED_CHANNEL, onChange);
      // A closed database listens to nothing any more.
      return async () => {
        if (!closed) await unlisten();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
