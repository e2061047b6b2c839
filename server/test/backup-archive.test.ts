import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import fc from 'fast-check';
import { TarError, entryNameParts, extractEntry, readTar, resolveInside, writeTar, type TarInput } from '../src/backup/archive';
import { END, rawFile, rawHeader, rawPax } from './tarFixtures';

async function tarOf(entries: TarInput[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of writeTar(entries)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Feeds the reader in small uneven chunks, as a file stream through gunzip would. */
async function* chunked(buffer: Buffer, size = 777): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < buffer.length; offset += size) yield buffer.subarray(offset, offset + size);
}

interface Listed {
  name: string;
  type: string;
  data?: Buffer;
  mode: number;
  mtime: number;
}

async function list(tar: Buffer, chunkSize?: number): Promise<Listed[]> {
  const out: Listed[] = [];
  for await (const entry of readTar(chunked(tar, chunkSize))) {
    const chunks: Buffer[] = [];
    if (entry.type === 'file') for await (const chunk of entry.body()) chunks.push(chunk);
    out.push({
      name: entry.name,
      type: entry.type,
      mode: entry.mode,
      mtime: entry.mtime.getTime(),
      ...(entry.type === 'file' ? { data: Buffer.concat(chunks) } : {}),
    });
  }
  return out;
}

async function refusal(tar: Buffer): Promise<Error> {
  try {
    await list(tar);
  } catch (error) {
    return error as Error;
  }
  throw new Error('the archive was accepted');
}

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tar-test-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The same header as a pre-POSIX (v7) one: no ustar magic, its checksum recomputed. */
function v7(block: Buffer): Buffer {
  block.fill(0, 257, 265);
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return block;
}

const hasTar = spawnSync('tar', ['--version']).status === 0;
const withTar = hasTar ? test : test.skip;

const mtime = new Date('2026-01-02T03:04:05Z');
const random = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 7919 + size) % 251));
const longFolder = `${'folder-'.repeat(12)}end`; // 91 characters
const SAMPLE: TarInput[] = [
  { name: 'manifest.json', type: 'file', data: Buffer.from('{"a":1}\n'), mode: 0o600, mtime },
  { name: 'empty', type: 'file', data: Buffer.alloc(0), mtime },
  { name: 'media', type: 'directory', mtime },
  { name: 'media/exactly-512', type: 'file', data: random(512), mtime },
  { name: 'media/513', type: 'file', data: random(513), mtime },
  {
    name: 'media/big.bin',
    type: 'file',
    size: 300_000,
    data: async function* () {
      yield random(100_000);
      yield random(200_000);
    },
    mtime,
  },
  { name: `media/${longFolder}/${longFolder}/video.mp4`, type: 'file', data: random(10), mtime }, // prefix + name
  { name: `media/${'x'.repeat(150)}/${'y'.repeat(150)}`, type: 'file', data: random(20), mtime }, // pax path
  { name: 'media/vídeo-ção-日本.txt', type: 'file', data: Buffer.from('olá'), mtime },
  { name: 'media/empty-folder/', type: 'directory', mode: 0o700, mtime },
];

describe('writeTar and readTar', () => {
  test('round-trip files, folders, long and non-ASCII names, modes and times', async () => {
    const tar = await tarOf(SAMPLE);
    expect(tar.length % 512).toBe(0);
    for (const chunkSize of [1, 511, 4096, tar.length]) {
      const entries = await list(tar, chunkSize);
      expect(entries.map((e) => e.name)).toEqual(SAMPLE.map((e) => e.name.replace(/\/$/, '')));
      expect(entries.map((e) => e.type)).toEqual(SAMPLE.map((e) => e.type));
      for (const [i, entry] of entries.entries()) {
        const input = SAMPLE[i]!;
        if (Buffer.isBuffer(input.data)) expect(entry.data!.equals(input.data)).toBe(true);
        expect(entry.mtime).toBe(mtime.getTime());
        expect(entry.mode).toBe(input.mode ?? (input.type === 'directory' ? 0o755 : 0o644));
      }
      expect(entries[5]!.data!.equals(Buffer.concat([random(100_000), random(200_000)]))).toBe(true);
    }
  });

  test('a body left unread is skipped', async () => {
    const tar = await tarOf(SAMPLE);
    const names: string[] = [];
    for await (const entry of readTar(chunked(tar))) {
      names.push(entry.name);
      if (entry.name === 'media/big.bin') {
        for await (const chunk of entry.body()) {
          expect(chunk.length).toBeGreaterThan(0);
          break; // read a little only
        }
      }
    }
    expect(names).toHaveLength(SAMPLE.length);
  });

  test('any set of files round-trips (property)', async () => {
    const component = fc.stringMatching(/^[A-Za-z0-9_ éç-][A-Za-z0-9_.éç -]{0,40}$/).filter((s) => s !== '.' && s !== '..');
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(fc.array(component, { minLength: 1, maxLength: 6 }), fc.uint8Array({ maxLength: 2000 })), {
          selector: ([parts]) => parts.join('/'),
          maxLength: 12,
        }),
        async (files) => {
          const names = files.map(([parts]) => parts.join('/'));
          // A name may not also be another's folder: keep the leaves only.
          const leaves = files.filter(([parts]) => !names.some((other) => other.startsWith(`${parts.join('/')}/`)));
          const input: TarInput[] = leaves.map(([parts, data]) => ({
            name: parts.join('/'),
            type: 'file',
            data: Buffer.from(data),
          }));
          const output = await list(await tarOf(input), 300);
          expect(output.map((e) => [e.name, e.data!.toString('hex')])).toEqual(
            input.map((e) => [e.name, (e.data as Buffer).toString('hex')]),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  test('the writer refuses unsafe names and a file whose size changed', async () => {
    for (const name of ['/etc/passwd', '../x', 'a/../../x', 'a//b', './a', 'a\\b', 'C:/x', 'a\u0000b', '']) {
      await expect(tarOf([{ name, type: 'file', data: Buffer.from('x') }])).rejects.toBeInstanceOf(TarError);
    }
    // A file that grew (3 bytes announced) or shrank (10 announced) while it was read.
    for (const size of [3, 10]) {
      const changed = tarOf([
        {
          name: 'changed',
          type: 'file',
          size,
          data: async function* () {
            yield Buffer.from('four');
          },
        },
      ]);
      await expect(changed).rejects.toThrow(/changed while it was being archived/);
    }
  });

  withTar('GNU tar reads what we write', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'a.tar.gz');
    fs.writeFileSync(file, zlib.gzipSync(await tarOf(SAMPLE)));
    const listing = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n');
    expect(listing).toEqual(SAMPLE.map((e) => (e.type === 'directory' ? e.name.replace(/\/?$/, '/') : e.name)));
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    execFileSync('tar', ['-xzf', file, '-C', out]);
    expect(fs.readFileSync(path.join(out, 'media/513')).equals(random(513))).toBe(true);
    expect(fs.readFileSync(path.join(out, `media/${'x'.repeat(150)}/${'y'.repeat(150)}`)).equals(random(20))).toBe(true);
  });

  withTar('we read what GNU tar writes (ustar and pax)', async () => {
    const dir = tempDir();
    const source = path.join(dir, 'src');
    const deep = path.join(source, 'media', 'z'.repeat(90), 'w'.repeat(90));
    fs.mkdirSync(deep, { recursive: true });
    fs.writeFileSync(path.join(deep, 'file.bin'), random(5000));
    fs.writeFileSync(path.join(source, 'media', 'small.txt'), 'hello');
    const ustar = await list(execFileSync('tar', ['-c', '--format=ustar', '-C', source, 'media']));
    // Only pax holds a 200-character name.
    fs.writeFileSync(path.join(source, 'media', 'q'.repeat(200)), 'long');
    const pax = await list(execFileSync('tar', ['-c', '--format=pax', '-C', source, 'media']));
    for (const entries of [ustar, pax]) {
      const file = entries.find((e) => e.name.endsWith('file.bin'));
      expect(file?.name).toBe(`media/${'z'.repeat(90)}/${'w'.repeat(90)}/file.bin`);
      expect(file?.data?.equals(random(5000))).toBe(true);
      expect(entries.find((e) => e.name === 'media/small.txt')?.data?.toString()).toBe('hello');
    }
    expect(pax.find((e) => e.name === `media/${'q'.repeat(200)}`)?.data?.toString()).toBe('long');
  });
});

/**
 * A .tar.gz written by the hand-made writer that lib/tar.ts held before node-tar (its last version,
 * run once to make this): ustar, a ustar prefix, a pax path, non-ASCII names, folders. Archives
 * made by older versions must still read.
 */
const OLD_WRITER_ARCHIVE =
  'H4sIAAAAAAACA8tNzMtMSy0u0csqzs9joA0wMDAwMDMwANMGmLSBgbEJg6GpoZGpmbGRmYkpg4GhgamBMYOCAQMdQGlxSWIRgwFd7BqEoFqpvC' +
  'izpCQ1T8lKKalSISczSb8ksUivpFiplothFAx7kJpbUFJJYzvA+d/EBHf+NzBAzf8G5gZmJqP5nx4gNzUlM1Gf9vFvbmpKUvybmzAomI7GP53i' +
  '39TQeODyv6GBgSF6/Bsbmo/mf3oA7qkq62yPhz3I/9khvtBgl+flpDfVXFOU19ocC72f96NdbIH+To9Lia+rOCcrrbE+GnIv93ub6Hy9He4XE1' +
  '5VckxSXG11JPhuzrdWkXm6290uxL+sYJ+osMrycNCd7K8twnN1trmej3tRzjZBfqXFocDbWV+aheZob3U5F/u8jLVfboX5wYBbmZ+bBGdrbXE+' +
  'G/OslKVPdrnZAf+bGZ8aBWZpbnY6E/20hLlXZpnpfr8b6R8b+GdqbHI8HfWkmKlHeqnJPt/raR/q+Waob3Q4Ffm4iLFbaonxXp9rqe/reKerbb' +
  'A/GfGokKFLcrHRHu+rKe9qeaaprrc7Ef6w4FenxCLD3V5Xkt/WjHod5PXRJtCIBmn5OSmpRbpUpVLzUvTLMlNS8/VyC0yIaf8ZGqGW/6ZGBgZG' +
  'Q7z8h1SsNApe6jkTUeCN5oWRCAISKzxSE1NSiwaw/2dibore/jMHtf8qRtt/NAfGhuYKBYklGbaQ8qpiUAL9ykEJhsMAGT2inWD9b4Q2/mtsam' +
  'hoNNr/owfA1nsZrRVH2vhP2eG1Kan5uoeXH16cr/ts+tJnc9bolVSU0G38F33+x9TY0HQ0/9MD5OccXjiaC0Z6/gfPAkH7l9SfDACP/+Ob/0Uf' +
  '/zc0NDE3HB3/HwWjYBSMAloCAONHHE4AJAAA';

describe('archives written before node-tar', () => {
  test('read the same: names, types, bytes, modes and times', async () => {
    const entries = await list(zlib.gunzipSync(Buffer.from(OLD_WRITER_ARCHIVE, 'base64')));
    const expected = SAMPLE.filter((e) => e.name !== 'media/exactly-512' && e.name !== 'media/big.bin');
    expect(entries.map((e) => e.name)).toEqual(expected.map((e) => e.name.replace(/\/$/, '')));
    expect(entries.map((e) => e.type)).toEqual(expected.map((e) => e.type));
    expect(entries[0]!.data!.toString()).toBe('{"written":"by lib/tar.ts"}\n');
    for (const [i, entry] of entries.entries()) {
      const input = expected[i]!;
      if (i > 0 && Buffer.isBuffer(input.data)) expect(entry.data!.equals(input.data)).toBe(true);
      expect(entry.mtime).toBe(mtime.getTime());
      expect(entry.mode).toBe(input.mode ?? (input.type === 'directory' ? 0o755 : 0o644));
    }
  });
});

describe('the reader refuses hostile and broken archives', () => {
  const cases: Array<[string, Buffer, RegExp]> = [
    ['an absolute path', Buffer.concat([rawFile('/etc/passwd', 'x'), END]), /absolute path/],
    ['a parent folder', Buffer.concat([rawFile('../evil', 'x'), END]), /"\.\." in the path/],
    ['a parent folder further in', Buffer.concat([rawFile('media/a/../../../evil', 'x'), END]), /"\.\."/],
    ['a parent folder in the ustar prefix', Buffer.concat([rawFile('evil', 'x', { prefix: '../..' }), END]), /"\.\."/],
    ['a parent folder in a pax path', Buffer.concat([rawPax({ path: '../../evil' }), rawFile('harmless', 'x'), END]), /"\.\."/],
    ['an absolute pax path', Buffer.concat([rawPax({ path: '/tmp/evil' }), rawFile('harmless', 'x'), END]), /absolute/],
    ['a backslash', Buffer.concat([rawFile('..\\evil', 'x'), END]), /backslash/],
    ['a control character', Buffer.concat([rawFile('a\u0001b', 'x'), END]), /control character/],
    ['a drive letter', Buffer.concat([rawFile('C:/evil', 'x'), END]), /absolute path/],
    [
      'a symbolic link',
      Buffer.concat([rawHeader({ name: 'media/link', typeflag: '2', linkname: '/etc' }), END]),
      /symbolic link/,
    ],
    ['a hard link', Buffer.concat([rawHeader({ name: 'media/link', typeflag: '1', linkname: '/etc/passwd' }), END]), /hard link/],
    ['a character device', Buffer.concat([rawHeader({ name: 'dev', typeflag: '3' }), END]), /character device/],
    ['a block device', Buffer.concat([rawHeader({ name: 'dev', typeflag: '4' }), END]), /block device/],
    ['a fifo', Buffer.concat([rawHeader({ name: 'fifo', typeflag: '6' }), END]), /fifo/],
    ['a GNU long name', Buffer.concat([rawFile('././@LongLink', '../../evil', { typeflag: 'L' }), END]), /GNU long name/],
    [
      'a GNU long name that climbs',
      Buffer.concat([rawFile('././@LongLink', '../../evil', { typeflag: 'L' }), rawFile('harmless', 'x'), END]),
      /"\.\." in the path/,
    ],
    ['a global pax header', Buffer.concat([rawFile('g', '10 path=x\n', { typeflag: 'g' }), END]), /global pax/],
    [
      'a global pax header before a file',
      Buffer.concat([rawFile('g', '12 size=99\n', { typeflag: 'g' }), rawFile('harmless', 'x'), END]),
      /global pax/,
    ],
    ['a pax header with no entry after it', Buffer.concat([rawPax({ path: 'x' }), END]), /no entry after it/],
    [
      // node-tar reads a folder's size as 0, so a body after it is read as the next header.
      'a folder with a body',
      Buffer.concat([rawHeader({ name: 'dir/', typeflag: '5', size: 10 }), rawFile('body', 'x'.repeat(10)).subarray(512), END]),
      /checksum/,
    ],
    ['a contiguous file', Buffer.concat([rawFile('c', 'x', { typeflag: '7' }), END]), /contiguous file/],
    ['an entry of unknown type', Buffer.concat([rawFile('v', 'x', { typeflag: 'V' }), END]), /unknown type/],
    ['a name too deep', Buffer.concat([rawPax({ path: 'a/'.repeat(200) + 'b' }), rawFile('harmless', 'x'), END]), /deep/],
    ['a name too long', Buffer.concat([rawPax({ path: 'a'.repeat(5000) }), rawFile('harmless', 'x'), END]), /too long/],
    [
      'a parent folder in a pre-POSIX (v7) header',
      Buffer.concat([v7(rawHeader({ name: '../evil', size: 1 })), Buffer.alloc(512), END]),
      /"\.\." in the path/,
    ],
    ['a bad checksum', Buffer.concat([rawHeader({ name: 'a', checksumDelta: 1 }), END]), /checksum/],
    [
      'a size that is not a number',
      Buffer.concat([rawHeader({ name: 'a', sizeField: Buffer.from('zzzzzzzzzzz\0') }), END]),
      /not a number/,
    ],
    [
      'a damaged pax header',
      Buffer.concat([rawFile('PaxHeader', '99 path=x\n', { typeflag: 'x' }), rawFile('a', 'x'), END]),
      /pax/,
    ],
    ['a huge pax header', Buffer.concat([rawHeader({ name: 'PaxHeader', typeflag: 'x', size: 10_000_000 }), END]), /too large/],
    ['a body cut short', rawFile('a', 'x'.repeat(2000)).subarray(0, 1024), /too early|truncated/],
    ['no end marker', rawFile('a', 'x'), /end marker|truncated/],
    ['half an end marker', Buffer.concat([rawFile('a', 'x'), Buffer.alloc(512)]), /end of archive/],
    ['not a tar at all', Buffer.from('hello world, this is not an archive'.repeat(40)), /checksum|truncated|not/i],
    ['an empty input', Buffer.alloc(0), /end marker/],
  ];

  test.each(cases)('%s', async (_, tar, message) => {
    const error = await refusal(tar);
    expect(error).toBeInstanceOf(TarError);
    expect(error.message).toMatch(message);
  });

  test('what node-tar reads as GNU tar does: binary (base-256) sizes, pre-POSIX (v7) headers', async () => {
    const binary = rawHeader({ name: 'a', sizeField: Buffer.from([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]) });
    const one = Buffer.alloc(512);
    one[0] = 0x41;
    expect(await list(Buffer.concat([binary, one, END]))).toMatchObject([{ name: 'a', type: 'file', data: Buffer.from('A') }]);
    const old = Buffer.concat([v7(rawHeader({ name: 'b', size: 1 })), one, END]);
    expect(await list(old)).toMatchObject([{ name: 'b', type: 'file', data: Buffer.from('A') }]);
  });

  test('nothing after the end marker is read as an entry, and the input is still read to its end', async () => {
    let finished = false;
    async function* input(): AsyncGenerator<Buffer> {
      yield* chunked(Buffer.concat([rawFile('a', 'x'), END, rawFile('../evil', 'x'), END, Buffer.from('surprise')]));
      yield* chunked(Buffer.alloc(100_000, 1));
      finished = true;
    }
    const names: string[] = [];
    for await (const entry of readTar(input())) names.push(entry.name);
    expect(names).toEqual(['a']);
    expect(finished).toBe(true);
  });

  test('entry names: what is accepted and where it lands', () => {
    expect(entryNameParts('media/a/b.mp4')).toEqual(['media', 'a', 'b.mp4']);
    expect(entryNameParts('media/a/')).toEqual(['media', 'a']);
    expect(entryNameParts('..a/b..')).toEqual(['..a', 'b..']);
    const root = path.join(os.tmpdir(), 'root');
    expect(resolveInside(root, 'a/b')).toBe(path.join(root, 'a', 'b'));
    for (const bad of ['..', 'a/..', '/a', 'a/./b', 'a//b', '.']) expect(() => resolveInside(root, bad)).toThrow(TarError);
  });

  test('damaged archives are refused as such, never with another error, and never write outside the folder', async () => {
    const tar = await tarOf(SAMPLE.filter((e) => Buffer.isBuffer(e.data) || e.type === 'directory'));
    const dir = tempDir();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(tar.length - 1), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }),
        async (flips) => {
          const damaged = Buffer.from(tar);
          for (const [offset, xor] of flips) damaged[offset]! ^= xor;
          const work = fs.mkdtempSync(path.join(dir, 'run-'));
          const root = path.join(work, 'root');
          fs.mkdirSync(root);
          try {
            for await (const entry of readTar(chunked(damaged))) await extractEntry(root, entry);
          } catch (error) {
            if (!(error instanceof TarError)) throw error;
          }
          expect(fs.readdirSync(work)).toEqual(['root']);
          fs.rmSync(work, { recursive: true, force: true });
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('extractEntry', () => {
  async function extractAll(root: string, tar: Buffer): Promise<void> {
    for await (const entry of readTar(chunked(tar))) await extractEntry(root, entry);
  }

  test('writes files and folders with safe modes and their times', async () => {
    const root = tempDir();
    await extractAll(
      root,
      await tarOf([
        { name: 'a/b/c.txt', type: 'file', data: Buffer.from('c'), mode: 0o4777, mtime },
        { name: 'd', type: 'directory' },
        { name: 'secret', type: 'file', data: Buffer.from('s'), mode: 0o600 },
      ]),
    );
    expect(fs.readFileSync(path.join(root, 'a/b/c.txt'), 'utf8')).toBe('c');
    expect(fs.statSync(path.join(root, 'a/b/c.txt')).mode & 0o7777).toBe(0o755 & ~process.umask());
    expect(fs.statSync(path.join(root, 'a/b/c.txt')).mtime.getTime()).toBe(mtime.getTime());
    expect(fs.statSync(path.join(root, 'secret')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(root, 'd')).isDirectory()).toBe(true);
  });

  test('never writes a file twice, over an existing file, or through a link', async () => {
    const root = tempDir();
    const outside = tempDir();
    const twice = Buffer.concat([rawFile('x', 'one'), rawFile('x', 'two'), END]);
    await expect(extractAll(root, twice)).rejects.toThrow(/twice, or it already exists/);
    expect(fs.readFileSync(path.join(root, 'x'), 'utf8')).toBe('one');

    fs.symlinkSync(outside, path.join(root, 'link-to-folder'));
    await expect(extractAll(root, Buffer.concat([rawFile('link-to-folder/evil', 'x'), END]))).rejects.toThrow(/through a link/);
    fs.symlinkSync(path.join(outside, 'target'), path.join(root, 'link-to-file'));
    await expect(extractAll(root, Buffer.concat([rawFile('link-to-file', 'x'), END]))).rejects.toBeInstanceOf(TarError);
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});
