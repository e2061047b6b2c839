/**
 * `npm run restore -- FILE`: restores a backup made by `npm run backup` into DATA_DIR (and
 * MEDIA_DIR), which must be empty or absent. See README.md, "Backups", and server/src/lib/backup.ts.
 */
import { restoreCommand } from '../server/src/lib/backup';

// Ctrl-C or SIGTERM: stop, and leave nothing half-done behind (the command cleans up, then exits 130).
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping…`);
    controller.abort();
  });
}

const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
restoreCommand(process.argv.slice(2), process.env, io, controller.signal).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
