import fs from 'node:fs';

/**
 * A pid file as a lock (DATA_DIR/server.pid: the embedded database allows one process at a time;
 * the server and the backup commands hold it).
 *
 * - Taking it is atomic: the file is created with O_EXCL ('wx'), so of two starters one wins.
 * - A lock whose process is gone (`kill(pid, 0)` answers ESRCH) is stale and taken over; EPERM
 *   means the process exists under another user, so the lock is held. Taking over is atomic too:
 *   a starter first creates `<file>.takeover` ('wx'), checks the lock still names the same dead
 *   process, then renames a file with its own pid over it. A racer that loses the takeover file
 *   waits, then finds the winner's live pid.
 * - Released by its holder (or when the process exits): the file is removed only while it still
 *   names this process.
 */

export type IsAlive = (pid: number) => boolean;

/** `process.kill(pid, 0)`: ESRCH is a dead process; EPERM a live one of another user. */
export function processIsAlive(pid: number, kill: (pid: number, signal: 0) => unknown = process.kill): boolean {
  try {
    kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Another process holds the lock. */
export class PidLockHeld extends Error {
  constructor(
    readonly file: string,
    readonly pid: number,
  ) {
    super(`${file} is held by the process ${pid}`);
  }
}

export interface PidLockOptions {
  /** Whose lock it is; this process by default (tests give others). */
  pid?: number;
  isAlive?: IsAlive;
  /** File mode of the lock; 0600 by default. */
  mode?: number;
}

export interface PidLock {
  file: string;
  pid: number;
  /** Removes the lock if it is still ours; idempotent. */
  release(): void;
}

function readPid(file: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
  const pid = Number(text);
  return Number.isInteger(pid) && pid > 0 ? pid : 0;
}

/** The live process that holds `file`, if any (a missing, unreadable or stale lock answers undefined). */
export function lockHolder(file: string, options: { pid?: number; isAlive?: IsAlive } = {}): number | undefined {
  const pid = readPid(file);
  if (!pid || pid === (options.pid ?? process.pid)) return undefined;
  return (options.isAlive ?? processIsAlive)(pid) ? pid : undefined;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function createExclusive(file: string, content: string, mode: number): boolean {
  try {
    fs.writeFileSync(file, content, { flag: 'wx', mode });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Replaces the stale lock naming `stale` (0: unreadable) by ours, unless another starter is doing
 * so or has done so. Answers whether we hold the lock now.
 */
function takeOver(file: string, stale: number, pid: number, mode: number, isAlive: IsAlive): boolean {
  const marker = `${file}.takeover`;
  if (!createExclusive(marker, String(pid), mode)) {
    // Another starter is taking over; unless it died doing so, its pid will be in the lock.
    // (A marker naming our own pid was left by an earlier process with that pid: ours are removed below.)
    const taker = readPid(marker);
    if (taker !== undefined && (taker === pid || !(taker > 0 && isAlive(taker)))) fs.rmSync(marker, { force: true });
    return false;
  }
  try {
    // Only the holder of the marker changes a stale lock, so this check and the rename below cannot be split.
    if (readPid(file) !== stale) return false;
    const temporary = `${file}.${pid}.tmp`;
    fs.writeFileSync(temporary, String(pid), { mode });
    fs.renameSync(temporary, file);
    return true;
  } finally {
    fs.rmSync(marker, { force: true });
  }
}

/** Takes the lock in `file`, or throws PidLockHeld when a live process holds it. */
export function acquirePidLock(file: string, options: PidLockOptions = {}): PidLock {
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? processIsAlive;
  const mode = options.mode ?? 0o600;
  for (let attempt = 0; ; attempt += 1) {
    let held = createExclusive(file, String(pid), mode);
    if (!held) {
      const holder = readPid(file);
      // Our own pid in the file is a lock left by an earlier process with the same pid (a container's pid 1).
      if (holder !== undefined && holder > 0 && holder !== pid && isAlive(holder)) throw new PidLockHeld(file, holder);
      // Released meanwhile (undefined): try again; stale: take it over.
      if (holder !== undefined) held = takeOver(file, holder, pid, mode, isAlive);
    }
    if (held) {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        if (readPid(file) === pid) fs.rmSync(file, { force: true });
      };
      process.on('exit', release);
      return { file, pid, release };
    }
    if (attempt >= 50) throw new Error(`Could not take the lock ${file}: other processes keep changing it`);
    pause(10);
  }
}

/** The lock of DATA_DIR's embedded database, in DATA_DIR: the server and the backup commands hold it. */
export const DATA_DIR_LOCK = 'server.pid';
