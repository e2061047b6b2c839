import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { checkDataFolders, dataFolderChecks, tightenTree } from '../src/lib/privateFiles';

/**
 * The console's files are its own (docs/security.md, "The host's other accounts"): the server, on
 * the embedded database as `npm start` runs it, leaves nothing under DATA_DIR that another account
 * of the machine could read or change, and says so when a folder it finds is looser.
 */

const ROOT = path.resolve(__dirname, '..', '..');

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'data-folders-'));
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the server (as `npm start` runs it, with the umask a shell usually gives: 0022), waits until it answers, and stops it. Answers its output. */
async function runServer(env: Record<string, string>, whileUp?: (port: number) => Promise<void>): Promise<string> {
  const port = await freePort();
  const output: string[] = [];
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: 'server/tsconfig.json',
      DATABASE_URL: '',
      APP_SECRET: '',
      NODE_OPTIONS: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RUN_JOBS: 'false',
      IMAGE_PROVIDER: 'local',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health/live`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output.join('')}`);
      if (Date.now() > deadline) throw new Error(`the server did not start:\n${output.join('')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await whileUp?.(port);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return output.join('');
}

/** Every entry under `root` whose mode lets the group or others in, as "name 0644". */
function looseEntries(root: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if ((stat.mode & 0o077) !== 0) found.push(`${path.relative(root, entry) || '.'} 0${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return found;
}

describe('the console keeps its files to its own account', () => {
  test('a server started on a new DATA_DIR leaves no file or folder the group or others may read or write', async () => {
    const dataDir = path.join(scratch, 'fresh');
    const output = await runServer({ DATA_DIR: dataDir }, async (port) => {
      // A voice sample is spoken and cached in DATA_DIR/voice-samples on first request.
      const sample = await fetch(`http://127.0.0.1:${port}/api/v1/voice-samples/387bfe25-192a-4eb3-aa8b-be1f9e202b9a.wav`);
      expect(sample.status).toBe(200);
      await sample.arrayBuffer();
    });
    // The database (with its ~1,000 files PGlite writes itself), the generated secret, the pid file, the samples.
    expect(fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'app-secret'))).toBe(true);
    expect(fs.readdirSync(path.join(dataDir, 'voice-samples')).length).toBeGreaterThan(0);
    expect(looseEntries(dataDir)).toEqual([]);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, 'pgdata')).mode & 0o777).toBe(0o700);
    expect(output).not.toMatch(/readable by other accounts|other accounts of this machine can/);
  }, 180_000);

  test('a DATA_DIR left open by an older release is closed, with a warning; a shared MEDIA_DIR elsewhere is reported, not changed', async () => {
    const dataDir = path.join(scratch, 'fresh');
    const mediaDir = path.join(scratch, 'shared-media');
    // What the last release left: a 0755 folder, the database's files 0666, a 0755 media folder elsewhere.
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, 'pgdata'), 0o755);
    fs.chmodSync(path.join(dataDir, 'pgdata', 'PG_VERSION'), 0o666);
    fs.mkdirSync(mediaDir, { mode: 0o755 });
    fs.chmodSync(mediaDir, 0o755);

    const output = await runServer({ DATA_DIR: dataDir, MEDIA_DIR: mediaDir });
    expect(output).toContain(`DATA_DIR (${dataDir}) was 0755, readable by other accounts of this machine: it is now 0700`);
    expect(output).toContain(`MEDIA_DIR (${mediaDir}) is 0755`);
    expect(output).toContain(`chmod 700 ${mediaDir}`);
    expect(looseEntries(dataDir)).toEqual([]);
    expect(fs.statSync(mediaDir).mode & 0o777).toBe(0o755);
  }, 180_000);
});

describe('checkDataFolders and tightenTree', () => {
  test('an own folder is tightened (and the files in it), another one only reported; nothing to say about private ones', () => {
    const dataDir = path.join(scratch, 'unit-data');
    const mediaDir = path.join(scratch, 'unit-media');
    fs.mkdirSync(dataDir);
    fs.chmodSync(dataDir, 0o775);
    fs.writeFileSync(path.join(dataDir, 'server.pid'), '1');
    fs.chmodSync(path.join(dataDir, 'server.pid'), 0o644);
    fs.mkdirSync(mediaDir);
    fs.chmodSync(mediaDir, 0o757);

    const warnings = checkDataFolders(dataFolderChecks(dataDir, mediaDir, { createDataDir: true }));
    expect(warnings).toEqual([
      expect.stringContaining(`DATA_DIR (${dataDir}) was 0775`),
      expect.stringMatching(/MEDIA_DIR .* is 0757: other accounts of this machine can change/),
    ]);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, 'server.pid')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(mediaDir).mode & 0o777).toBe(0o757);
    expect(checkDataFolders(dataFolderChecks(dataDir, path.join(dataDir, 'media'), { createDataDir: true }))).toEqual([]);

    const missing = path.join(scratch, 'unit-new', 'data');
    expect(checkDataFolders(dataFolderChecks(missing, path.join(missing, 'media'), { createDataDir: true }))).toEqual([]);
    expect(fs.statSync(missing).mode & 0o777).toBe(0o700);
  });

  test('tightenTree takes the group and others off every file and folder, and follows no link', () => {
    const root = path.join(scratch, 'tree');
    fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    fs.writeFileSync(path.join(root, 'a', 'b', 'f'), 'x');
    fs.chmodSync(path.join(root, 'a', 'b', 'f'), 0o666);
    fs.chmodSync(path.join(root, 'a'), 0o777);
    const outside = path.join(scratch, 'outside');
    fs.writeFileSync(outside, 'x');
    fs.chmodSync(outside, 0o644);
    fs.symlinkSync(outside, path.join(root, 'link'));
    expect(tightenTree(root)).toBeGreaterThanOrEqual(2);
    expect(looseEntries(path.join(root, 'a'))).toEqual([]);
    expect(fs.statSync(path.join(root, 'a', 'b', 'f')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(outside).mode & 0o777).toBe(0o644);
  });
});
