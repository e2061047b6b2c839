/**
 * `npm run backup -- FILE [--include-env-secret] [--media-only]`: the embedded database (a
 * consistent dump through PGlite), the media folder and the app secret of DATA_DIR in one
 * .tar.gz. See README.md, "Backups", and server/src/lib/backup.ts.
 */
import { backupCommand } from '../server/src/lib/backup';

// Ctrl-C or SIGTERM: stop, and leave nothing half-done behind (the command cleans up, then exits 130).
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping…`);
    controller.abort();
  });
}

const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
backupCommand(process.argv.slice(2), process.env, io, controller.signal).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
