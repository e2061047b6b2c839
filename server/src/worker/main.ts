import os from 'node:os';
import pino from 'pino';
import { redactText } from '../lib/redact';
import { checkDataFolders, dataFolderChecks, usePrivateUmask } from '../lib/privateFiles';
import { loadConfig, ConfigError } from '../config';
import { startQueue } from '../queue';
import { createServices } from '../services';
import { mailerFor } from '../providers/mailer';
import { startEngine } from './start';
import { openConfiguredDatabase } from '../server';
import { startWorkerHealth } from './health';
import { survivePromiseRejections } from '../lib/metrics';

/**
 * `npm run worker`: a process that runs only the engine's jobs (WORKER_CONCURRENCY executions at
 * once, the scheduler, recovery) against the PostgreSQL server of DATABASE_URL. API processes
 * then run with RUN_JOBS=false. The embedded database allows one process, so it needs
 * DATABASE_URL.
 */
async function main(): Promise<void> {
  // Before anything is written: the secret and the media are this account's alone.
  usePrivateUmask();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  if (!config.databaseUrl) {
    console.error(
      'Configuration error: a separate worker needs DATABASE_URL (the embedded database allows one process; `npm start` runs the jobs itself).',
    );
    process.exit(2);
  }
  const log = pino({ level: config.logLevel, name: 'worker' });
  for (const warning of checkDataFolders(dataFolderChecks(config.dataDir, config.mediaDir, { createDataDir: false }))) {
    log.warn(warning);
  }
  lowerPriority(config.workerNice, log);
  const database = await openConfiguredDatabase(config);
  const queue = await startQueue(database, { onError: (error) => log.error({ err: error }, 'queue error') });
  const services = createServices({ db: database.db, config, mailer: mailerFor(config, log), queue });
  survivePromiseRejections(log, services.metrics.unhandledRejections);
  const running = await startEngine({ services, config, queue, log, exclusive: false });
  const health =
    config.workerHealthPort > 0
      ? await startWorkerHealth({
          services,
          port: config.workerHealthPort,
          host: config.host,
          metrics: config.metrics,
          metricsToken: config.metricsToken,
        })
      : undefined;
  log.info(
    `Worker ready: ${config.workerConcurrency} execution(s) at a time${health ? `; health on ${config.host}:${health.port}` : ''}`,
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal} received: closing`);
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    await running.stop();
    await health?.close();
    await queue.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * Makes this process (and the ffmpeg it starts, which inherit it) yield the cores to the API's
 * requests on a shared machine: a run waits a little longer, a page does not. Raising the niceness
 * needs no privilege; a system that refuses it leaves the process as it is, with a warning.
 */
function lowerPriority(nice: number, log: pino.Logger): void {
  if (nice === 0) return;
  try {
    const current = os.getPriority();
    if (current < nice) os.setPriority(nice);
  } catch (error) {
    log.warn({ err: error, nice }, 'the worker could not lower its priority (WORKER_NICE)');
  }
}

/** Runs main() as the process's program: a failure to start is printed and ends the process. */
export function run(): void {
  main().catch((error) => {
    console.error('Worker failed to start:', error instanceof Error ? redactText(error.message) : error);
    process.exit(1);
  });
}

if (require.main === module) run();
