import fs from 'node:fs';
import path from 'node:path';

/**
 * The console's files are its own: the database, the app secret, the media and the voice samples
 * are for this account alone, never for the machine's other accounts. Every entry point (server,
 * worker, backup, restore) sets the process's umask to 0077 first, so whatever it or a library
 * creates is 0700 (folders) or 0600 (files); the start then checks the folders that already
 * exist (checkDataFolders) and PGlite's folder is tightened each time it is opened
 * (tightenTree), because PGlite writes the files of a new or loaded database as 0666 itself.
 */

/** Group and others may do nothing. */
export const PRIVATE_UMASK = 0o077;
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const looseBits = (mode: number) => mode & 0o077;
const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Sets this process's umask to 0077 (a worker thread cannot: it keeps its process's). */
export function usePrivateUmask(): void {
  try {
    process.umask(PRIVATE_UMASK);
  } catch {
    // process.umask() cannot be set in worker threads; the process that started them did.
  }
}

/** Creates `folder` (and its missing parents) as 0700. */
export function makePrivateDir(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
}

const ownedByMe = (stat: fs.Stats) => typeof process.getuid !== 'function' || stat.uid === process.getuid();

/**
 * Takes the group's and others' permissions off everything under `root` (itself included) that
 * this account owns; links are not followed. Answers how many entries were changed.
 */
export function tightenTree(root: string): number {
  let changed = 0;
  const visit = (entry: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch {
      return; // gone meanwhile
    }
    if (stat.isSymbolicLink() || !ownedByMe(stat)) return;
    if (looseBits(stat.mode) !== 0) {
      fs.chmodSync(entry, stat.mode & 0o7700);
      changed += 1;
    }
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return changed;
}

export interface FolderCheck {
  /** The folder; a missing one is created 0700 only when `create` is set. */
  folder: string;
  /** Its name in messages, e.g. DATA_DIR. */
  what: string;
  /**
   * The console's own folder (DATA_DIR and what lies in it): made 0700 when it is looser and
   * this account owns it. Otherwise (a MEDIA_DIR elsewhere, perhaps shared on purpose by the
   * accounts of a deployment) a looser folder is only reported.
   */
  own: boolean;
  create?: boolean;
}

/**
 * Checks the console's folders at start: answers one warning for each that other accounts could
 * read or write (and says what was done about it). Files directly in an own folder (app-secret,
 * server.pid) are made 0600 too.
 */
export function checkDataFolders(checks: FolderCheck[]): string[] {
  const warnings: string[] = [];
  for (const check of checks) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(check.folder);
    } catch {
      if (check.create) makePrivateDir(check.folder);
      continue;
    }
    if (!stat.isDirectory()) continue;
    if (looseBits(stat.mode) !== 0) {
      if (check.own && ownedByMe(stat)) {
        fs.chmodSync(check.folder, stat.mode & 0o7700);
        warnings.push(
          `${check.what} (${check.folder}) was ${octal(stat.mode)}, readable by other accounts of this machine: it is now ${octal(stat.mode & 0o7700)}`,
        );
      } else {
        warnings.push(
          `${check.what} (${check.folder}) is ${octal(stat.mode)}: other accounts of this machine can ${stat.mode & 0o022 ? 'change' : 'read'} ` +
            `what the console keeps there. Unless it is shared on purpose, run: chmod 700 ${check.folder}`,
        );
      }
    }
    if (!check.own) continue;
    for (const name of fs.readdirSync(check.folder)) {
      const file = path.join(check.folder, name);
      const entry = fs.lstatSync(file);
      if (entry.isFile() && looseBits(entry.mode) !== 0 && ownedByMe(entry)) fs.chmodSync(file, entry.mode & 0o7700);
    }
  }
  return warnings;
}

const isInside = (child: string, parent: string) => child === parent || child.startsWith(parent + path.sep);

/**
 * The checks of a server or worker's start: DATA_DIR (created 0700 when missing) and MEDIA_DIR,
 * which is the console's own when it lies in DATA_DIR (the default, DATA_DIR/media).
 */
export function dataFolderChecks(dataDir: string, mediaDir: string, opts: { createDataDir: boolean }): FolderCheck[] {
  return [
    { folder: dataDir, what: 'DATA_DIR', own: true, create: opts.createDataDir },
    { folder: mediaDir, what: 'MEDIA_DIR', own: isInside(mediaDir, dataDir) },
  ];
}
