import { parseArgs } from 'node:util';
import { createBackup } from './createBackup';
import { BackupError, EXIT, formatBytes, plural } from './errors';
import type { Env } from './locations';
import { restoreBackup } from './restoreBackup';

/**
 * The backup commands as programs (scripts/backup.ts and scripts/restore.ts run them): the command
 * line, read by node:util's parseArgs (strict), what is printed, and the exit code (errors.ts).
 */

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

type Flags = Record<string, { type: 'boolean' }>;

interface CommandLine<F extends Flags> {
  file?: string;
  flags: { [K in keyof F]?: boolean };
  help: boolean;
  error?: string;
}

/** FILE and the boolean `flags`, by node:util's parseArgs (strict: an unknown option is an error); `--help`, `-h`. */
function parseCommandLine<F extends Flags>(argv: string[], flags: F): CommandLine<F> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...flags, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'([^']+)'/.exec(message)?.[1] : undefined;
    return { flags: {}, help: false, error: unknown ? `Unknown option ${unknown}` : message };
  }
  const { values, positionals } = parsed;
  const found = values as { [K in keyof F]?: boolean } & { help?: boolean };
  if (found.help) return { flags: found, help: true };
  if (positionals.length === 0) return { flags: found, help: false, error: 'Missing FILE: name the archive' };
  if (positionals.length > 1) return { flags: found, help: false, error: `One FILE only (got ${positionals.join(', ')})` };
  return { file: positionals[0], flags: found, help: false };
}

/** The command line, or the exit code when there is nothing to run: `--help` (the usage printed), or a usage error. */
function commandLine<F extends Flags>(
  argv: string[],
  flags: F,
  usage: string,
  io: Output,
): { file: string; flags: CommandLine<F>['flags'] } | number {
  const args = parseCommandLine(argv, flags);
  if (args.help) {
    io.out(usage);
    return EXIT.ok;
  }
  if (args.error || args.file === undefined) {
    io.err(`Error: ${args.error}\n${usage}`);
    return EXIT.usage;
  }
  return { file: args.file, flags: args.flags };
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
  const args = commandLine(
    argv,
    { 'include-env-secret': { type: 'boolean' }, 'media-only': { type: 'boolean' } },
    BACKUP_USAGE,
    io,
  );
  if (typeof args === 'number') return args;
  try {
    const report = await createBackup({
      file: args.file,
      env,
      includeEnvSecret: args.flags['include-env-secret'] === true,
      mediaOnly: args.flags['media-only'] === true,
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
  const args = commandLine(argv, {}, RESTORE_USAGE, io);
  if (typeof args === 'number') return args;
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
