import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db';
import { readTar, writeTar, type TarInput } from '../src/backup/archive';
import { backupCommand, restoreCommand } from '../src/backup/commands';
import { createBackup } from '../src/backup/createBackup';
import { BackupError, EXIT } from '../src/backup/errors';
import type { BackupManifest } from '../src/backup/manifest';
import { restoreBackup } from '../src/backup/restoreBackup';
import { memoryMailer } from '../src/providers/mailer';
import { localMediaStorage } from '../src/providers/mediaStorage';
import { RUN_FILES } from '../src/runLayout';
import { TEST_PASSWORD_HASH_COST, call } from './helper';
import { END, rawFile } from './tarFixtures';

/**
 * `npm run backup` / `npm run restore`: a DATA_DIR in which the app signed a user up, saved an
 * encrypted chat-model key and stored a media file is backed up with the real command, restored
 * into a fresh DATA_DIR with the real command, and the app built on the result signs the user in,
 * decrypts the key and serves the same bytes. Then every refusal, with its exit code.
 */

// PGlite instances, child processes and scrypt on a busy 2-core machine.
jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '..', '..');
const EMAIL = 'backup-user@example.com';
const PASSWORD = 'a-long-password-1';
const API_KEY = 'sk-backup-test-0123456789abcdef';
const EXECUTION = crypto.randomUUID();
const VIDEO = crypto.randomBytes(1_500_000);

let work: string;
let source: string;
let originalSecret: string;
let token: string;

const tmp = (name: string) => path.join(work, name);

/** The app on a DATA_DIR, as server.ts builds it (PGlite in DATA_DIR/pgdata, the secret from the folder unless given). */
async function appOn(dataDir: string, extra: Record<string, string> = {}, database?: Database) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIR: path.join(dataDir, 'no-web'),
    API_RATE_LIMIT_PER_MINUTE: '0',
    AUTH_RATE_LIMIT_PER_HOUR: '100000',
    ...extra,
  });
  const db = database ?? (await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') }));
  const app = await buildApp({
    config,
    database: db,
    mailer: memoryMailer(),
    logger: false,
    passwordHashCost: TEST_PASSWORD_HASH_COST,
  });
  await app.ready();
  return { app, config, database: db };
}

/** Runs `npm run <script> -- args` at the repository's root, as an operator would. */
function npmRun(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of ['DATABASE_URL', 'APP_SECRET', 'MEDIA_DIR']) if (!(name in env)) delete childEnv[name];
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT, env: childEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The entries of an archive, bodies read. */
async function entriesOf(file: string): Promise<Map<string, Buffer | null>> {
  const entries = new Map<string, Buffer | null>();
  const stream = fs.createReadStream(file).pipe(zlib.createGunzip());
  for await (const entry of readTar(stream)) {
    if (entry.type === 'directory') entries.set(entry.name, null);
    else {
      const chunks: Buffer[] = [];
      for await (const chunk of entry.body()) chunks.push(chunk);
      entries.set(entry.name, Buffer.concat(chunks));
    }
  }
  return entries;
}

async function writeArchive(file: string, entries: TarInput[] | Buffer): Promise<void> {
  let tar: Buffer;
  if (Buffer.isBuffer(entries)) tar = entries;
  else {
    const chunks: Buffer[] = [];
    for await (const chunk of writeTar(entries)) chunks.push(chunk);
    tar = Buffer.concat(chunks);
  }
  fs.writeFileSync(file, zlib.gzipSync(tar));
}

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (line: string) => out.push(line), err: (line: string) => err.push(line) } };
}

async function expectBackupError(promise: Promise<unknown>, exitCode: number, message: RegExp): Promise<BackupError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BackupError);
  expect((error as BackupError).exitCode).toBe(exitCode);
  expect((error as BackupError).message).toMatch(message);
  return error as BackupError;
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-test-'));
  source = tmp('source');
  // A DATA_DIR as a first `npm start` leaves it: the secret generated into it, the database migrated.
  // The server tests' template (migrated, pg-boss installed) is loaded into it when there is one.
  const template = process.env.TEST_PGLITE_TEMPLATE;
  const database = await openDatabase({
    pgliteDir: path.join(source, 'pgdata'),
    ...(template ? { loadDataDir: new Blob([fs.readFileSync(template)]), migrate: false } : {}),
  });
  const { app, config } = await appOn(source, {}, database);
  originalSecret = fs.readFileSync(path.join(source, 'app-secret'), 'utf8').trim();
  expect(config.appSecret).toBe(originalSecret);

  const register = await call(app, 'POST', '/api/v1/auth/register', {
    body: { name: 'Backup User', email: EMAIL, password: PASSWORD, plan: 'monthly' },
  });
  expect(register.statusCode).toBe(201);
  token = register.json().access_token;
  await app.services.drainEmails();
  const saved = await call(app, 'POST', '/api/v1/chatgpt/config', { token, body: { api_key: API_KEY } });
  expect(saved.statusCode).toBe(201);
  expect(saved.json().has_api_key).toBe(true);
  // A media file where the engine keeps a run's files (its storage), and an empty folder.
  const folder = await localMediaStorage(config.mediaDir).workDir(EXECUTION);
  fs.writeFileSync(path.join(folder, RUN_FILES.video), VIDEO);
  fs.mkdirSync(path.join(config.mediaDir, 'empty-run'));

  await app.close();
  await database.close();
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('a backup restored into a fresh DATA_DIR', () => {
  const archive = () => tmp('console.tar.gz');
  const restored = () => tmp('restored');

  test('npm run backup writes one private archive with the manifest, the dump, the secret and the media', async () => {
    const result = await npmRun('backup', [archive()], { DATA_DIR: source });
    expect(result.stderr).not.toMatch(/Error/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Backup written to .*console\.tar\.gz/);
    expect(result.stdout).toMatch(/1 file in 2 folders/);
    expect(fs.statSync(archive()).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(source, 'server.pid'))).toBe(false); // the lock is released

    const entries = await entriesOf(archive());
    // The media folders in name order (the execution's id is random, so either may come first).
    const runs = [[`media/${EXECUTION}`, `media/${EXECUTION}/${RUN_FILES.video}`], ['media/empty-run']].sort((a, b) =>
      a[0]! < b[0]! ? -1 : 1,
    );
    expect([...entries.keys()]).toEqual(['manifest.json', 'app-secret', 'pgdata.tar.gz', 'media', ...runs.flat()]);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as BackupManifest;
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(manifest).toMatchObject({
      format: 'story-video-console-backup',
      format_version: 1,
      product: { name: 'story-video-console', version },
      database: { kind: 'pglite', entry: 'pgdata.tar.gz', bytes: entries.get('pgdata.tar.gz')!.length },
      media: { entry: 'media/', files: 1, folders: 2, bytes: VIDEO.length },
      secret: { source: 'file', included: true },
    });
    expect(Date.now() - Date.parse(manifest.created_at)).toBeLessThan(10 * 60_000);
    expect(entries.get('app-secret')!.toString().trim()).toBe(originalSecret);
  });

  test('npm run restore recreates the database, the media and the secret (0600)', async () => {
    const result = await npmRun('restore', [archive()], { DATA_DIR: restored() });
    expect(result.stderr).not.toMatch(/Error|Warning/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/embedded, 1 user\)/);
    expect(result.stdout).toMatch(/1 file in 2 folders/);
    expect(result.stdout).toMatch(/app-secret \(mode 0600\)/);

    const secretFile = path.join(restored(), 'app-secret');
    expect(fs.readFileSync(secretFile, 'utf8').trim()).toBe(originalSecret);
    expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(restored(), 'media', EXECUTION, RUN_FILES.video)).equals(VIDEO)).toBe(true);
    expect(fs.statSync(path.join(restored(), 'media', 'empty-run')).isDirectory()).toBe(true);
    expect(fs.existsSync(path.join(restored(), 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(fs.existsSync(path.join(restored(), 'server.pid'))).toBe(false);
  });

  test('the app on the restored DATA_DIR signs the user in, decrypts the saved key and has the media', async () => {
    const { app, config, database } = await appOn(restored());
    let second: FastifyInstance | undefined;
    let firstClosed = false;
    try {
      expect(config.appSecret).toBe(originalSecret);
      const login = await call(app, 'POST', '/api/v1/auth/login', { body: { email: EMAIL, password: PASSWORD } });
      expect(login.statusCode).toBe(200);
      expect(login.json().user.email).toBe(EMAIL);
      const fresh = login.json().access_token as string;
      // A session from before the backup is still valid: same secret, same sessions table.
      expect((await call(app, 'GET', '/api/v1/auth/me', { token })).statusCode).toBe(200);
      const key = await call(app, 'GET', '/api/v1/chatgpt/config', { token: fresh });
      expect(key.statusCode).toBe(200);
      expect(key.json()).toMatchObject({ has_api_key: true, secret_unreadable: false });
      expect(key.json().api_key_masked.endsWith(API_KEY.slice(-4))).toBe(true);
      const chunks: Buffer[] = [];
      for await (const chunk of localMediaStorage(config.mediaDir).read(EXECUTION, RUN_FILES.video)) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(VIDEO)).toBe(true);
      await app.close();
      firstClosed = true;

      // The check means something: under another secret the same data does not decrypt.
      ({ app: second } = await appOn(restored(), { APP_SECRET: 'another-secret-another-secret-0123456789' }, database));
      const other = await call(second, 'POST', '/api/v1/auth/login', { body: { email: EMAIL, password: PASSWORD } });
      expect(other.statusCode).toBe(200);
      const unreadable = await call(second, 'GET', '/api/v1/chatgpt/config', { token: other.json().access_token });
      expect(unreadable.json()).toMatchObject({ has_api_key: false, secret_unreadable: true });
      expect((await call(second, 'GET', '/api/v1/auth/me', { token })).statusCode).toBe(401);
    } finally {
      if (!firstClosed) await app.close();
      await second?.close();
      await database.close();
    }
  });

  test('restore refuses a DATA_DIR that is not empty, and leaves it as it was', async () => {
    const before = fs.readdirSync(restored()).sort();
    const result = await npmRun('restore', [archive()], { DATA_DIR: restored() });
    expect(result.code).toBe(EXIT.notEmpty);
    expect(result.stderr).toMatch(/is not empty/);
    expect(fs.readdirSync(restored()).sort()).toEqual(before);

    const target = tmp('occupied');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'notes.txt'), 'mine');
    await expectBackupError(restoreBackup({ file: archive(), env: { DATA_DIR: target } }), EXIT.notEmpty, /not empty/);
    expect(fs.readdirSync(target)).toEqual(['notes.txt']);
    fs.writeFileSync(tmp('a-file'), 'x');
    await expectBackupError(restoreBackup({ file: archive(), env: { DATA_DIR: tmp('a-file') } }), EXIT.notEmpty, /is a file/);
    // A separate MEDIA_DIR must be empty too.
    const media = tmp('busy-media');
    fs.mkdirSync(media);
    fs.writeFileSync(path.join(media, 'old.mp4'), 'x');
    await expectBackupError(
      restoreBackup({ file: archive(), env: { DATA_DIR: tmp('never-made'), MEDIA_DIR: media } }),
      EXIT.notEmpty,
      /MEDIA_DIR .* is not empty/,
    );
    expect(fs.existsSync(tmp('never-made'))).toBe(false);
  });

  test('restore into an empty DATA_DIR with a separate MEDIA_DIR puts the media there', async () => {
    const dataDir = tmp('empty-data');
    const mediaDir = tmp('separate-media');
    fs.mkdirSync(dataDir);
    const report = await restoreBackup({ file: archive(), env: { DATA_DIR: dataDir, MEDIA_DIR: mediaDir } });
    expect(report.users).toBe(1);
    expect(fs.readFileSync(path.join(mediaDir, EXECUTION, RUN_FILES.video)).equals(VIDEO)).toBe(true);
    expect(fs.readdirSync(dataDir).sort()).toEqual(['app-secret', 'pgdata']);
    // APP_SECRET set to another value than the restored file: said clearly.
    const other = await restoreBackup({
      file: archive(),
      env: { DATA_DIR: tmp('empty-data-2'), APP_SECRET: 'another-secret-another-secret-0123456789' },
    });
    expect(other.warnings.join('\n')).toMatch(/APP_SECRET is set and differs from the backup's secret/);
  });
});

describe('backup refusals', () => {
  test('a running server on DATA_DIR (its pid file names a live process)', async () => {
    const pidFile = path.join(source, 'server.pid');
    fs.writeFileSync(pidFile, String(process.ppid));
    try {
      await expectBackupError(
        createBackup({ file: tmp('busy.tar.gz'), env: { DATA_DIR: source } }),
        EXIT.inUse,
        /A server \(pid \d+\) is using/,
      );
      const output = io();
      expect(await backupCommand([tmp('busy.tar.gz')], { DATA_DIR: source }, output.io)).toBe(EXIT.inUse);
      expect(output.err.join('\n')).toMatch(/stop the server/);
      expect(fs.existsSync(tmp('busy.tar.gz'))).toBe(false);
      expect(fs.readFileSync(pidFile, 'utf8')).toBe(String(process.ppid)); // the server's lock is left alone
      // Restoring onto it says the same.
      await expectBackupError(
        restoreBackup({ file: tmp('console.tar.gz'), env: { DATA_DIR: source } }),
        EXIT.inUse,
        /is running on/,
      );
    } finally {
      fs.rmSync(pidFile, { force: true });
    }
  });

  test('a stale pid file (its process gone) is taken over, and released', async () => {
    const pidFile = path.join(source, 'server.pid');
    const gone = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.on('exit', () => resolve(child.pid!));
    });
    fs.writeFileSync(pidFile, String(gone));
    const report = await createBackup({ file: tmp('stale.tar.gz'), env: { DATA_DIR: source } });
    expect(report.manifest.database.kind).toBe('pglite');
    expect(fs.existsSync(pidFile)).toBe(false);
  });

  test('an interrupted backup or restore (SIGINT, SIGTERM) leaves nothing behind', async () => {
    const stopped = new AbortController();
    stopped.abort();
    await expectBackupError(
      createBackup({ file: tmp('stopped.tar.gz'), env: { DATA_DIR: source }, signal: stopped.signal }),
      EXIT.interrupted,
      /no backup was written/,
    );
    expect(fs.readdirSync(work).filter((name) => name.includes('stopped'))).toEqual([]); // nor a hidden partial file
    expect(fs.existsSync(path.join(source, 'server.pid'))).toBe(false);

    const empty = tmp('stopped-empty');
    fs.mkdirSync(empty);
    for (const dataDir of [tmp('stopped-new'), empty]) {
      await expectBackupError(
        restoreBackup({ file: tmp('console.tar.gz'), env: { DATA_DIR: dataDir }, signal: stopped.signal }),
        EXIT.interrupted,
        /was left as it was/,
      );
    }
    expect(fs.existsSync(tmp('stopped-new'))).toBe(false);
    expect(fs.readdirSync(empty)).toEqual([]);
  });

  test('missing FILE, unknown options, an existing FILE, a DATA_DIR without a database', async () => {
    let output = io();
    expect(await backupCommand([], { DATA_DIR: source }, output.io)).toBe(EXIT.usage);
    expect(output.err.join('\n')).toMatch(/Missing FILE[\s\S]*Usage: npm run backup -- FILE/);
    output = io();
    expect(await restoreCommand([], { DATA_DIR: tmp('x') }, output.io)).toBe(EXIT.usage);
    expect(output.err.join('\n')).toMatch(/Missing FILE[\s\S]*Usage: npm run restore -- FILE/);
    output = io();
    expect(await backupCommand(['a.tar.gz', '--everything'], {}, output.io)).toBe(EXIT.usage);
    expect(output.err[0]).toMatch(/Unknown option --everything/);
    output = io();
    expect(await backupCommand(['--help'], {}, output.io)).toBe(EXIT.ok);
    expect(output.out[0]).toMatch(/Usage/);
    // The command line is node:util's parseArgs, strict.
    output = io();
    expect(await restoreCommand(['-h'], {}, output.io)).toBe(EXIT.ok);
    expect(output.out[0]).toMatch(/Usage: npm run restore/);
    output = io();
    expect(await restoreCommand(['a.tar.gz', '--media-only'], {}, output.io)).toBe(EXIT.usage);
    expect(output.err[0]).toMatch(/^Error: Unknown option --media-only\nUsage: npm run restore/);
    output = io();
    expect(await backupCommand(['a.tar.gz', 'b.tar.gz'], {}, output.io)).toBe(EXIT.usage);
    expect(output.err[0]).toMatch(/One FILE only \(got a\.tar\.gz, b\.tar\.gz\)/);
    output = io();
    expect(await backupCommand(['a.tar.gz', '--media-only=yes'], {}, output.io)).toBe(EXIT.usage);
    expect(output.err[0]).toMatch(/media-only/);
    output = io();
    expect(await backupCommand(['-x', 'a.tar.gz'], {}, output.io)).toBe(EXIT.usage);
    expect(output.err[0]).toMatch(/Unknown option -x/);

    fs.writeFileSync(tmp('exists.tar.gz'), 'keep me');
    await expectBackupError(
      createBackup({ file: tmp('exists.tar.gz'), env: { DATA_DIR: source } }),
      EXIT.notEmpty,
      /already exists/,
    );
    expect(fs.readFileSync(tmp('exists.tar.gz'), 'utf8')).toBe('keep me');
    await expectBackupError(
      createBackup({ file: tmp('none.tar.gz'), env: { DATA_DIR: tmp('nothing-here') } }),
      EXIT.usage,
      /No embedded database/,
    );
    await expectBackupError(
      createBackup({ file: path.join(source, 'media', 'x.tar.gz'), env: { DATA_DIR: source } }),
      EXIT.usage,
      /outside MEDIA_DIR/,
    );

    const spawned = await npmRun('backup', [], { DATA_DIR: source });
    expect(spawned.code).toBe(EXIT.usage);
    expect(spawned.stderr).toMatch(/Missing FILE/);
    const unknown = await npmRun('restore', ['x.tar.gz', '--everything'], { DATA_DIR: tmp('x') });
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr).toMatch(/Unknown option --everything/);
  });
});

describe('restore refuses unreadable, damaged and hostile archives, and leaves nothing behind', () => {
  const target = () => tmp('target');
  const refused = async (file: string, message: RegExp) => {
    await expectBackupError(restoreBackup({ file, env: { DATA_DIR: target() } }), EXIT.badArchive, message);
    expect(fs.existsSync(target())).toBe(false);
  };
  let manifest: BackupManifest;
  let good: Map<string, Buffer | null>;

  beforeAll(async () => {
    good = await entriesOf(tmp('console.tar.gz'));
    manifest = JSON.parse(good.get('manifest.json')!.toString()) as BackupManifest;
  });

  const manifestEntry = (changes: Partial<BackupManifest> = {}): TarInput => ({
    name: 'manifest.json',
    type: 'file',
    data: Buffer.from(JSON.stringify({ ...manifest, ...changes })),
  });

  test('a missing file, a file that is not gzip, a truncated and a damaged archive', async () => {
    await refused(tmp('no-such.tar.gz'), /Cannot read/);
    fs.writeFileSync(tmp('text.tar.gz'), 'just some text, no archive');
    await refused(tmp('text.tar.gz'), /not a gzip archive/);
    const bytes = fs.readFileSync(tmp('console.tar.gz'));
    fs.writeFileSync(tmp('half.tar.gz'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    await refused(tmp('half.tar.gz'), /truncated|damaged/);
    const flipped = Buffer.from(bytes);
    for (let i = 1000; i < flipped.length - 100; i += 997) flipped[i]! ^= 0x55;
    fs.writeFileSync(tmp('flipped.tar.gz'), flipped);
    await refused(tmp('flipped.tar.gz'), /damaged|not a|checksum|truncated/);
    const output = io();
    expect(await restoreCommand([tmp('half.tar.gz')], { DATA_DIR: target() }, output.io)).toBe(EXIT.badArchive);
    expect(output.err.join('\n')).toMatch(/^Error: .*half\.tar\.gz cannot be restored/);
  });

  test('a tar.gz that is not a backup, a newer format, an incomplete manifest', async () => {
    await writeArchive(tmp('other.tar.gz'), [{ name: 'README', type: 'file', data: Buffer.from('hello') }]);
    await refused(tmp('other.tar.gz'), /not a backup of this console/);
    await writeArchive(tmp('newer.tar.gz'), [manifestEntry({ format_version: 99 })]);
    await refused(tmp('newer.tar.gz'), /newer version/);
    await writeArchive(tmp('partial.tar.gz'), [manifestEntry({ media: undefined as unknown as BackupManifest['media'] })]);
    await refused(tmp('partial.tar.gz'), /manifest is incomplete/);
  });

  test('entries missing, unexpected or not matching the manifest', async () => {
    const dump = { name: 'pgdata.tar.gz', type: 'file', data: good.get('pgdata.tar.gz')! } as const;
    const secret = { name: 'app-secret', type: 'file', data: good.get('app-secret')! } as const;
    const video = { name: `media/${EXECUTION}/${RUN_FILES.video}`, type: 'file', data: VIDEO } as const;
    const folders: TarInput[] = [
      { name: 'media', type: 'directory' },
      { name: `media/${EXECUTION}`, type: 'directory' },
      { name: 'media/empty-run', type: 'directory' },
    ];
    await writeArchive(tmp('no-dump.tar.gz'), [manifestEntry(), secret, ...folders, video]);
    await refused(tmp('no-dump.tar.gz'), /pgdata\.tar\.gz is missing/);
    await writeArchive(tmp('no-media.tar.gz'), [manifestEntry(), secret, dump, ...folders]);
    await refused(tmp('no-media.tar.gz'), /media are missing/);
    await writeArchive(tmp('extra.tar.gz'), [
      manifestEntry(),
      secret,
      dump,
      ...folders,
      video,
      { name: 'media/x', type: 'file', data: Buffer.from('x') },
    ]);
    await refused(tmp('extra.tar.gz'), /more media than its manifest/);
    await writeArchive(tmp('stray.tar.gz'), [manifestEntry(), { name: 'etc/passwd', type: 'file', data: Buffer.from('x') }]);
    await refused(tmp('stray.tar.gz'), /unexpected entry "etc\/passwd"/);
    const otherSecret = { ...secret, data: Buffer.from('x'.repeat(40)) };
    await writeArchive(tmp('secret.tar.gz'), [manifestEntry(), otherSecret, dump, ...folders, video]);
    await refused(tmp('secret.tar.gz'), /app secret does not match/);
    const damagedDump = { ...dump, data: Buffer.from(dump.data) };
    damagedDump.data[100]! ^= 1;
    await writeArchive(tmp('dump.tar.gz'), [manifestEntry(), secret, damagedDump, ...folders, video]);
    await refused(tmp('dump.tar.gz'), /does not match its checksum/);
  });

  test('a database dump larger than a restore takes, or than its manifest says, is refused before it is read', async () => {
    const dump = { name: 'pgdata.tar.gz', type: 'file', data: good.get('pgdata.tar.gz')! } as const;
    const secret = { name: 'app-secret', type: 'file', data: good.get('app-secret')! } as const;
    if (manifest.database.kind !== 'pglite') throw new Error('the backup holds the embedded database');
    // A manifest that claims 100 GB: refused from the manifest alone, before any byte of the dump.
    const huge = manifestEntry({ database: { ...manifest.database, bytes: 100 * 1024 ** 3 } });
    await writeArchive(tmp('huge-claim.tar.gz'), [huge, secret, dump]);
    await refused(tmp('huge-claim.tar.gz'), /manifest gives a database dump of 100\.0 GB, more than a restore takes \(2\.0 GB\)/);
    // A dump larger than its manifest says.
    const short = manifestEntry({ database: { ...manifest.database, bytes: dump.data.length - 10 } });
    await writeArchive(tmp('over-claim.tar.gz'), [short, secret, dump]);
    await refused(tmp('over-claim.tar.gz'), /pgdata\.tar\.gz is not the size its manifest gives/);
    // Under a lower ceiling, the same good archive is refused too (the ceiling is a hard one).
    await expectBackupError(
      restoreBackup({ file: tmp('console.tar.gz'), env: { DATA_DIR: target() }, maxDumpBytes: 1024 }),
      EXIT.badArchive,
      /more than a restore takes \(1\.0 KB\)/,
    );
    expect(fs.existsSync(target())).toBe(false);
  });

  test('hostile entries: outside the folder, absolute, links', async () => {
    const head = Buffer.concat([rawFile('manifest.json', JSON.stringify(manifest))]);
    const escape = path.join(work, 'evil');
    for (const [name, tar, message] of [
      ['climbing', Buffer.concat([head, rawFile('media/../../evil', 'x'), END]), /"\.\." in the path/],
      ['absolute', Buffer.concat([head, rawFile(escape, 'x'), END]), /absolute path/],
      ['symlink', Buffer.concat([head, rawFile('media/link', '', { typeflag: '2', linkname: '/etc' }), END]), /symbolic link/],
      [
        'hard link',
        Buffer.concat([head, rawFile('media/link', '', { typeflag: '1', linkname: '/etc/passwd' }), END]),
        /hard link/,
      ],
      ['device', Buffer.concat([head, rawFile('media/dev', '', { typeflag: '3' }), END]), /character device/],
      ['fifo', Buffer.concat([head, rawFile('media/fifo', '', { typeflag: '6' }), END]), /fifo/],
    ] as const) {
      await writeArchive(tmp(`${name}.tar.gz`), tar);
      await refused(tmp(`${name}.tar.gz`), message);
    }
    expect(fs.existsSync(escape)).toBe(false);
  });
});

describe('the app secret from the environment, and PostgreSQL', () => {
  const ENV_SECRET = 'environment-secret-environment-secret-42';

  test('APP_SECRET is left out of the archive unless --include-env-secret asks, with a warning', async () => {
    const without = await createBackup({ file: tmp('env.tar.gz'), env: { DATA_DIR: source, APP_SECRET: ENV_SECRET } });
    expect(without.manifest.secret).toMatchObject({ source: 'environment', included: false });
    const raw = zlib.gunzipSync(fs.readFileSync(tmp('env.tar.gz')));
    expect(raw.includes(ENV_SECRET)).toBe(false);
    expect(raw.includes(originalSecret)).toBe(false); // DATA_DIR/app-secret is not the secret in use
    expect((await entriesOf(tmp('env.tar.gz'))).has('app-secret')).toBe(false);

    const output = io();
    expect(
      await backupCommand(
        [tmp('env-in.tar.gz'), '--include-env-secret'],
        { DATA_DIR: source, APP_SECRET: ENV_SECRET },
        output.io,
      ),
    ).toBe(0);
    expect(output.err.join('\n')).toMatch(/Warning: the archive holds APP_SECRET/);
    expect((await entriesOf(tmp('env-in.tar.gz'))).get('app-secret')!.toString().trim()).toBe(ENV_SECRET);

    const none = io();
    expect(await backupCommand([tmp('x.tar.gz'), '--include-env-secret'], { DATA_DIR: source }, none.io)).toBe(EXIT.usage);
    expect(none.err[0]).toMatch(/APP_SECRET is not set/);
  });

  test('restoring a backup without the secret says APP_SECRET must be set the same way', async () => {
    const unset = io();
    expect(await restoreCommand([tmp('env.tar.gz')], { DATA_DIR: tmp('env-restored') }, unset.io)).toBe(0);
    expect(unset.out.join('\n')).toMatch(/app secret: not in the archive/);
    expect(unset.err.join('\n')).toMatch(/start the server with the same APP_SECRET/);
    expect(fs.existsSync(tmp('env-restored/app-secret'))).toBe(false);

    const wrong = await restoreBackup({
      file: tmp('env.tar.gz'),
      env: { DATA_DIR: tmp('env-restored-2'), APP_SECRET: 'not-the-one-not-the-one-not-the-one-0000' },
    });
    expect(wrong.warnings.join('\n')).toMatch(/APP_SECRET is not the one the backup was made with/);
    const right = await restoreBackup({
      file: tmp('env.tar.gz'),
      env: { DATA_DIR: tmp('env-restored-3'), APP_SECRET: ENV_SECRET },
    });
    expect(right.warnings).toEqual([]);
  });

  test('with DATABASE_URL the backup refuses and prints the pg_dump procedure; --media-only takes media and secret', async () => {
    const env = { DATA_DIR: source, DATABASE_URL: 'postgres://console@127.0.0.1:1/console' };
    const refusedRun = io();
    expect(await backupCommand([tmp('pg.tar.gz')], env, refusedRun.io)).toBe(EXIT.postgres);
    expect(refusedRun.err.join('\n')).toMatch(
      /does not dump PostgreSQL[\s\S]*pg_dump --format=custom[\s\S]*--media-only[\s\S]*pg_restore/,
    );
    expect(fs.existsSync(tmp('pg.tar.gz'))).toBe(false);

    const run = io();
    expect(await backupCommand([tmp('pg.tar.gz'), '--media-only'], env, run.io)).toBe(0);
    expect(run.out.join('\n')).toMatch(/database: {3}NOT included \(PostgreSQL\)/);
    const entries = await entriesOf(tmp('pg.tar.gz'));
    expect(entries.has('pgdata.tar.gz')).toBe(false);
    expect(entries.get(`media/${EXECUTION}/${RUN_FILES.video}`)!.equals(VIDEO)).toBe(true);
    expect(JSON.parse(entries.get('manifest.json')!.toString()).database).toEqual({ kind: 'postgres', included: false });

    const restore = io();
    expect(await restoreCommand([tmp('pg.tar.gz')], { DATA_DIR: tmp('pg-restored') }, restore.io)).toBe(0);
    expect(restore.err.join('\n')).toMatch(/the database is not in this archive[\s\S]*pg_restore/);
    expect(fs.readdirSync(tmp('pg-restored')).sort()).toEqual(['app-secret', 'media']);
    expect(fs.readFileSync(tmp('pg-restored/app-secret'), 'utf8').trim()).toBe(originalSecret);

    const embedded = io();
    expect(await backupCommand([tmp('pg2.tar.gz'), '--media-only'], { DATA_DIR: source }, embedded.io)).toBe(EXIT.usage);
  });
});
