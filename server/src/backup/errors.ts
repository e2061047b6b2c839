/** How the backup commands fail (their exit codes, and the error that carries one), and the sizes and counts their messages give. */

/** Exit codes of both commands (README, "Backups"). */
export const EXIT = {
  ok: 0,
  /** Anything unexpected: a full disk, a permission, a database that will not open. */
  failed: 1,
  /** No FILE, an unknown option, a DATA_DIR without a database. */
  usage: 2,
  /** The archive cannot be read, is not a backup, is damaged or holds a refused entry. */
  badArchive: 3,
  /** A server is running on DATA_DIR. */
  inUse: 4,
  /** Restore: DATA_DIR or MEDIA_DIR is not empty. Backup: FILE already exists. */
  notEmpty: 5,
  /** Backup with DATABASE_URL set and without --media-only. */
  postgres: 6,
  /** Stopped by SIGINT or SIGTERM: nothing was left behind. */
  interrupted: 130,
} as const;

export class BackupError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** A size for people: 1.5 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
