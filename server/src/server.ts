import path from 'node:path';
import { redactText } from './lib/redact';
import { DATA_DIR_LOCK, PidLockHeld, acquirePidLock } from './lib/pidLock';
import { checkDataFolders, dataFolderChecks, makePrivateDir, usePrivateUmask } from './lib/privateFiles';
import { loadConfig, ConfigError, type Config } from './config';
import { openDatabase, type Database } from './db';
import { startQueue, type Queue } from './queue';
import { buildApp } from './app';
import { survivePromiseRejections } from './lib/metrics';
import { startEngine, type RunningEngine } from './worker/start';

/**
 * The embedded database must have one process at a time: a second server on the same DATA_DIR
 * would corrupt it. A pid file in DATA_DIR guards it (lib/pidLock.ts: taken atomically; a stale
 * one, its process gone, is taken over; the backup commands hold the same one).
 */
function lockDataDir(dataDir: string): () => void {
  makePrivateDir(dataDir);
  try {
    return acquirePidLock(path.join(dataDir, DATA_DIR_LOCK)).release;
  } catch (error) {
    if (!(error instanceof PidLockHeld)) throw error;
    throw new ConfigError(
      `Another server (pid ${error.pid}) is using the embedded database in ${dataDir}. Stop it, or set DATABASE_URL to share a PostgreSQL server. ` +
        `If no console is running, pid ${error.pid} is another program that reused the number: remove ${error.file}.`,
    );
  }
}

/** Opens the database (PGlite in DATA_DIR unless DATABASE_URL is set) and applies migrations. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({ databaseUrl: config.databaseUrl })
    : openDatabase({ pgliteDir: path.join(config.dataDir, 'pgdata') });
}

/** Starts the console: database, queue, engine (unless RUN_JOBS=false) and the HTTP server. */
export async function main(): Promise<void> {
  // Before anything is written: the database, the secret and the media are this account's alone.
  usePrivateUmask();
  let config: Config;
  let unlock = () => undefined as void;
  let folderWarnings: string[];
  try {
    config = loadConfig();
    if (!config.databaseUrl) unlock = lockDataDir(config.dataDir);
    folderWarnings = checkDataFolders(dataFolderChecks(config.dataDir, config.mediaDir, { createDataDir: !config.databaseUrl }));
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }

  const database = await openConfiguredDatabase(config);
  let queue: Queue | undefined;
  const app = await (async () => {
    queue = await startQueue(database, { onError: (error) => console.error('queue error', error) });
    return buildApp({ config, database, queue });
  })();

  survivePromiseRejections(app.log, app.services.metrics.unhandledRejections);
  for (const warning of folderWarnings) app.log.warn(warning);

  // RUN_JOBS=false: this process only answers the API; `npm run worker` processes run the engine.
  let engine: RunningEngine | undefined;
  if (config.runJobs && queue) {
    engine = await startEngine({ services: app.services, config, queue, log: app.log, exclusive: database.kind === 'pglite' });
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: closing`);
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    try {
      await app.close();
      await engine?.stop();
      await queue?.stop();
      await database.close();
      unlock();
      app.log.info('closed cleanly');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while closing');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Console ready on ${config.publicUrl} (database: ${database.kind === 'pglite' ? `embedded in ${config.dataDir}` : 'PostgreSQL'})`,
  );
}

/** Runs main() as the process's program: a failure to start is printed and ends the process. */
export function run(): void {
  main().catch((error) => {
    console.error('Failed to start:', error instanceof Error ? redactText(error.message) : error);
    process.exit(1);
  });
}

if (require.main === module) run();
