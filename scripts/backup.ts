/**
 * `npm run backup -- FILE [--include-env-secret] [--media-only]`: the embedded database (a
 * consistent dump through PGlite), the media folder and the app secret of DATA_DIR in one
 * .tar.gz. See README.md, "Backups", and server/src/backup/.
 */
import { backupCommand } from '../server/src/backup/commands';
import { usePrivateUmask } from '../server/src/lib/privateFiles';
import { runCommand } from './lib/command';

// What the command writes (the archive, DATA_DIR, the database, the media) is this account's alone.
usePrivateUmask();

runCommand(backupCommand);
