/**
 * `npm run backup -- FILE [--include-env-secret] [--media-only]`: the embedded database (a
 * consistent dump through PGlite), the media folder and the app secret of DATA_DIR in one
 * .tar.gz. See README.md, "Backups", and server/src/lib/backup.ts.
 */
import { backupCommand } from '../server/src/lib/backup';
import { runCommand } from './lib/command';

runCommand(backupCommand);
