/**
 * `npm run restore -- FILE`: restores a backup made by `npm run backup` into DATA_DIR (and
 * MEDIA_DIR), which must be empty or absent. See README.md, "Backups", and server/src/backup/.
 */
import { restoreCommand } from '../server/src/backup/commands';
import { usePrivateUmask } from '../server/src/lib/privateFiles';
import { runCommand } from './lib/command';

// What the command writes (the archive, DATA_DIR, the database, the media) is this account's alone.
usePrivateUmask();

runCommand(restoreCommand);
