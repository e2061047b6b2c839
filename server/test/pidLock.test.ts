import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PidLockHeld, acquirePidLock, lockHolder, processIsAlive } from '../src/lib/pidLock';

/**
 * The pid lock of DATA_DIR (server.ts and the backup commands): atomic to take, a stale one taken
 * over (by one starter only), EPERM counted as a live process, released only by its holder.
 */

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '..', '..');
let dir: string;
let lockFile: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pid-lock-'));
  lockFile = path.join(dir, 'server.pid');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const errno = (code: string) => Object.assign(new Error(code), { code });
const killThrowing = (code: string) => () => {
  throw errno(code);
};

/** A pid that no process has: one that has just exited. */
function deadPid(): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', '0']);
    child.on('exit', () => resolve(child.pid!));
  });
}

describe('processIsAlive', () => {
  test("kill(pid, 0): success and EPERM are alive (EPERM: another user's process), ESRCH is not", () => {
    expect(processIsAlive(123, () => true)).toBe(true);
    expect(processIsAlive(123, killThrowing('EPERM'))).toBe(true);
    expect(processIsAlive(123, killThrowing('ESRCH'))).toBe(false);
    expect(processIsAlive(process.pid)).toBe(true);
  });
});

describe('acquirePidLock', () => {
  test('takes a free lock (0600, our pid) and releases it', () => {
    const lock = acquirePidLock(lockFile);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    expect(fs.statSync(lockFile).mode & 0o777).toBe(0o600);
    lock.release();
    expect(fs.existsSync(lockFile)).toBe(false);
    lock.release(); // twice is harmless
  });

  test('refuses a lock held by a live process, and leaves it alone', () => {
    fs.writeFileSync(lockFile, String(process.ppid));
    expect(() => acquirePidLock(lockFile)).toThrow(PidLockHeld);
    try {
      acquirePidLock(lockFile);
    } catch (error) {
      expect((error as PidLockHeld).pid).toBe(process.ppid);
    }
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.ppid));
    expect(lockHolder(lockFile)).toBe(process.ppid);
  });

  test("EPERM counts as alive: another user's process holds the lock", () => {
    fs.writeFileSync(lockFile, '4242');
    const isAlive = (pid: number) => processIsAlive(pid, killThrowing('EPERM'));
    expect(() => acquirePidLock(lockFile, { isAlive })).toThrow(/held by the process 4242/);
    expect(lockHolder(lockFile, { isAlive })).toBe(4242);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe('4242');
  });

  test('takes over a stale lock (its process gone: ESRCH), a damaged one, and one naming our own pid', async () => {
    const gone = await deadPid();
    for (const stale of [String(gone), 'not a pid', '', String(process.pid)]) {
      fs.writeFileSync(lockFile, stale);
      expect(lockHolder(lockFile)).toBeUndefined();
      const lock = acquirePidLock(lockFile);
      expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
      lock.release();
      expect(fs.existsSync(lockFile)).toBe(false);
    }
    // An injected kill answering ESRCH: the same.
    fs.writeFileSync(lockFile, '4242');
    acquirePidLock(lockFile, { isAlive: (pid) => processIsAlive(pid, killThrowing('ESRCH')) }).release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('a takeover left half done by a starter that died does not block the next one', async () => {
    const gone = await deadPid();
    fs.writeFileSync(lockFile, String(gone));
    fs.writeFileSync(`${lockFile}.takeover`, String(gone));
    const lock = acquirePidLock(lockFile);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('release removes only our own lock', () => {
    const lock = acquirePidLock(lockFile, { pid: 1001, isAlive: () => false });
    // Taken over meanwhile (we were thought gone): the new holder's lock stays.
    const other = acquirePidLock(lockFile, { pid: 1002, isAlive: (pid) => pid !== 1001 });
    expect(fs.readFileSync(lockFile, 'utf8')).toBe('1002');
    lock.release();
    expect(fs.readFileSync(lockFile, 'utf8')).toBe('1002');
    other.release();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  /**
   * Processes that all try to take the lock at the same moment (each then holds what it won for
   * a while): exactly one wins, whether the lock is absent or stale.
   */
  async function race(contenders: number): Promise<string[]> {
    const startAt = Date.now() + 6_000;
    const code = `
      const { acquirePidLock, PidLockHeld } = require(${JSON.stringify(path.join(ROOT, 'server/src/lib/pidLock.ts'))});
      while (Date.now() < ${startAt}) {}
      let answer;
      try { acquirePidLock(${JSON.stringify(lockFile)}); answer = 'won'; }
      catch (error) { answer = error instanceof PidLockHeld ? 'held' : 'error: ' + error.message; }
      process.stdout.write(answer);
      setTimeout(() => {}, Math.max(0, ${startAt} + 3000 - Date.now()));
    `;
    const runs = Array.from(
      { length: contenders },
      () =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], {
            cwd: ROOT,
            env: { ...process.env, TSX_TSCONFIG_PATH: 'server/tsconfig.json', NODE_OPTIONS: '' },
          });
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.on('error', reject);
          child.on('close', () => resolve(out.trim()));
        }),
    );
    return (await Promise.all(runs)).sort();
  }

  test('of starters racing for a free lock, or a stale one, exactly one wins', async () => {
    const contenders = 5;
    const losers = Array.from({ length: contenders - 1 }, () => 'held');
    expect(await race(contenders)).toEqual([...losers, 'won']);
    expect(fs.existsSync(lockFile)).toBe(false); // released when the winner exited

    fs.writeFileSync(lockFile, String(await deadPid()));
    expect(await race(contenders)).toEqual([...losers, 'won']);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
