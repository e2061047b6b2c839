import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Header, Parser, Pax, type ReadEntry } from 'tar';

/**
 * The backup archive's tar layer, on node-tar (the `tar` package npm itself uses): node-tar
 * encodes the headers we write (ustar, with a pax header for what ustar cannot hold) and parses
 * the ones we read (checksums, numbers, pax and GNU extended headers), in strict mode.
 *
 * An archive may come from anywhere, so around node-tar's parser this module refuses every
 * entry that is not a regular file or a folder (links, devices, fifos, unknown types), every
 * name that is absolute, climbs out with `..`, holds a backslash or a control character, or is
 * too long or too deep, an oversized or damaged pax header, a global pax header, an extended
 * header with no entry after it, and an archive that ends early or without its end marker.
 * What follows the end marker is never read as entries (the stream is still read to its end,
 * so that a decompressor in front of it checks its own checksum). `extractEntry` then writes a
 * file only inside the folder it is given, never over an existing file, and never through a link.
 */

export class TarError extends Error {}

/** The largest pax or GNU long-name header read; node-tar skips larger ones, which we refuse. */
const MAX_META_BYTES = 64 * 1024;
const MAX_NAME_BYTES = 4096;
const MAX_DEPTH = 128;

export type TarEntryType = 'file' | 'directory';

export interface TarInput {
  /** A relative name with `/` separators (no trailing slash needed for folders). */
  name: string;
  type: TarEntryType;
  /** Files: the bytes, or a function opening them (then `size` says how many there must be). */
  data?: Buffer | (() => AsyncIterable<Buffer | Uint8Array>);
  size?: number;
  mode?: number;
  mtime?: Date;
}

export interface TarEntry {
  /** Normalised: relative, `/` separators, no trailing slash. */
  name: string;
  type: TarEntryType;
  size: number;
  mode: number;
  mtime: Date;
}

export interface TarReadEntry extends TarEntry {
  /** The file's bytes, once; what is not read is skipped. */
  body(): AsyncIterable<Buffer>;
}

// ---------------------------------------------------------------------------------------------
// Names

function printable(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 200);
}

const refused = (name: string, why: string) => new TarError(`Refused entry "${printable(name)}": ${why}`);

/**
 * The components of a safe relative entry name, or a TarError: no absolute path or drive letter,
 * no `.`, `..` or empty component, no backslash, NUL or other control character, not too long
 * or too deep.
 */
export function entryNameParts(name: string): string[] {
  const trimmed = name.endsWith('/') ? name.slice(0, -1) : name;
  if (trimmed === '') throw refused(name, 'empty name');
  if (Buffer.byteLength(trimmed) > MAX_NAME_BYTES) throw refused(name, 'name too long');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw refused(name, 'control character in the name');
  if (trimmed.includes('\\')) throw refused(name, 'backslash in the name');
  if (trimmed.startsWith('/') || /^[A-Za-z]:/.test(trimmed)) throw refused(name, 'absolute path');
  const parts = trimmed.split('/');
  if (parts.includes('..')) throw refused(name, '".." in the path');
  if (parts.some((part) => part === '' || part === '.')) throw refused(name, 'empty or "." path component');
  if (parts.length > MAX_DEPTH) throw refused(name, `more than ${MAX_DEPTH} folders deep`);
  return parts;
}

/** Where a safe entry name lands inside `root`; a TarError when it would land anywhere else. */
export function resolveInside(root: string, name: string): string {
  const base = path.resolve(root);
  const target = path.resolve(base, ...entryNameParts(name));
  const relative = path.relative(base, target);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw refused(name, 'outside the target folder');
  }
  return target;
}

// ---------------------------------------------------------------------------------------------
// Writing

const BLOCK = 512;

function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest);
}

/**
 * The tar stream of `entries`, block by block (pipe it into zlib.createGzip()), its headers
 * encoded by node-tar. A file opened lazily must give exactly its `size` bytes, or the archive
 * stops with an error.
 */
export async function* writeTar(entries: Iterable<TarInput> | AsyncIterable<TarInput>): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    const parts = entryNameParts(entry.name);
    const isDirectory = entry.type === 'directory';
    const name = parts.join('/') + (isDirectory ? '/' : '');
    const data = isDirectory ? undefined : (entry.data ?? Buffer.alloc(0));
    const size = isDirectory ? 0 : Buffer.isBuffer(data) ? data.length : entry.size;
    if (size === undefined || !Number.isSafeInteger(size) || size < 0) throw new TarError(`No size given for ${name}`);
    const fields = {
      path: name,
      type: isDirectory ? ('Directory' as const) : ('File' as const),
      size,
      mode: (entry.mode ?? (isDirectory ? 0o755 : 0o644)) & 0o7777,
      mtime: new Date(Math.floor((entry.mtime ?? new Date()).getTime() / 1000) * 1000),
      uid: 0,
      gid: 0,
      uname: '',
      gname: '',
    };
    const header = new Header(fields);
    // A name or a size that ustar cannot hold goes into a pax header before it.
    if (header.encode()) yield new Pax(fields).encode();
    yield header.block!;

    if (data === undefined) continue;
    if (Buffer.isBuffer(data)) {
      if (data.length > 0) yield data;
    } else {
      let written = 0;
      for await (const chunk of data()) {
        written += chunk.length;
        if (written > size) break;
        yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      }
      if (written !== size) {
        throw new TarError(
          `${name} changed while it was being archived (expected ${size} bytes, found ${written > size ? 'more' : written})`,
        );
      }
    }
    const pad = padding(size);
    if (pad.length > 0) yield pad;
  }
  yield Buffer.alloc(BLOCK * 2);
}

// ---------------------------------------------------------------------------------------------
// Reading

const REFUSED_TYPES: Partial<Record<string, string>> = {
  Link: 'a hard link',
  SymbolicLink: 'a symbolic link',
  CharacterDevice: 'a character device',
  BlockDevice: 'a block device',
  FIFO: 'a fifo',
  ContiguousFile: 'a contiguous file',
  GNUDumpDir: 'a GNU dump folder',
};

/** Strict pax records, "<length> <key>=<value>\n" with the length in bytes counting itself (node-tar skips bad ones). */
function checkPax(text: string): void {
  let rest = Buffer.from(text, 'utf8');
  while (rest.length > 0) {
    const space = rest.indexOf(0x20);
    const lengthText = space === -1 ? '' : rest.toString('latin1', 0, space);
    const length = /^[1-9]\d{0,6}$/.test(lengthText) ? Number(lengthText) : NaN;
    if (!(length > 0) || length > rest.length || rest[length - 1] !== 0x0a) throw new TarError('Damaged pax header');
    if (rest.toString('utf8', space + 1, length - 1).indexOf('=') <= 0) throw new TarError('Damaged pax header');
    rest = rest.subarray(length);
  }
}

/** node-tar's strict-mode errors ("TAR_ENTRY_INVALID: checksum failure", ...) as ours. */
function fromParser(error: Error & { tarCode?: string }): TarError {
  const message = error.message;
  if (/Truncated input/.test(message)) return new TarError(`The archive ends too early: it is truncated or damaged (${message})`);
  if (/checksum/.test(message)) return new TarError('Damaged tar header (bad checksum): not a tar archive, or a damaged one');
  if (/Unrecognized archive format/.test(message)) return new TarError('Not a tar archive');
  return new TarError(`Damaged tar archive (${message})`);
}

/** The checks of one entry as node-tar read it; answers its type, or a TarError. */
function checkEntry(entry: ReadEntry, metas: string[]): TarEntryType {
  const name = entry.path;
  if (entry.ignore)
    throw refused(name, `an entry of unknown type "${printable(entry.header.typeKey)}" (only files and folders are allowed)`);
  if (entry.globalExtended) throw refused(name, 'it follows a global pax header (only files and folders are allowed)');
  const what = REFUSED_TYPES[entry.type];
  if (what) throw refused(name, `${what} (only files and folders are allowed)`);
  if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'Directory') {
    throw refused(name, `an entry of type ${entry.type} (only files and folders are allowed)`);
  }
  // A pax header that node-tar only half understood would give this entry another name or size than a strict reader.
  for (const meta of metas) if (/^\d+ /.test(meta)) checkPax(meta);
  if (entry.header.size === undefined || !Number.isSafeInteger(entry.size) || entry.size < 0) {
    throw new TarError(`Damaged tar header: the size of "${printable(name)}" is not a number`);
  }
  entryNameParts(name);
  return entry.type === 'Directory' ? 'directory' : 'file';
}

/**
 * The entries of a tar stream, read by node-tar's parser (strict) and checked as described at the
 * top of this file. Read each entry's body (or not) before asking for the next entry: what is not
 * read is skipped. Errors of the source itself (a decompressor's) come out as they are.
 */
export async function* readTar(source: AsyncIterable<Buffer | Uint8Array | string>): AsyncGenerator<TarReadEntry> {
  const parser = new Parser({ strict: true, maxMetaEntrySize: MAX_META_BYTES });
  const entries: ReadEntry[] = [];
  /** Extended headers since the last entry, and what the end of the archive looked like. */
  let metas: string[] = [];
  let lastWasNullBlock = false;
  let sawEnd = false;
  let parsed = false;
  let failure: unknown;
  let closed = false;
  /** The entry whose body may be being read: ended when anything fails, so that its reader stops. */
  let current: ReadEntry | undefined;
  const drainWaiters = new Set<() => void>();
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const fail = (error: unknown) => {
    failure ??= error;
    current?.destroy();
    notify();
  };

  parser.on('entry', (entry: ReadEntry) => {
    lastWasNullBlock = false;
    entries.push(entry);
    notify();
  });
  parser.on('meta', (text: string) => {
    lastWasNullBlock = false;
    metas.push(text);
  });
  parser.on('ignoredEntry', (entry: ReadEntry) => {
    // node-tar skips pax headers over maxMetaEntrySize and entries of types it does not know.
    if (entry.meta) fail(new TarError(`Pax header too large (${entry.size} bytes, at most ${MAX_META_BYTES})`));
    else entries.push(entry);
    notify();
  });
  parser.on('nullBlock', () => (lastWasNullBlock = true));
  parser.on('eof', () => (sawEnd = true));
  parser.on('error', (error: Error) => {
    // node-tar calls an archive with no entry unrecognised; one that ends with its end marker is merely empty.
    if (sawEnd && entries.length === 0 && /Unrecognized archive format/.test(error.message)) return;
    fail(fromParser(error));
  });
  parser.on('end', () => {
    parsed = true;
    notify();
  });

  // Feeds the parser as fast as entries are read (node-tar's back-pressure), in the background.
  const pumping = (async () => {
    let bytes = 0;
    for await (const chunk of source) {
      if (closed || failure !== undefined) return;
      // After the end marker nothing is parsed (or kept); the rest is read so that the decompressor checks it.
      if (sawEnd) continue;
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      bytes += buffer.length;
      if (!parser.write(buffer)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            parser.off('drain', done);
            parser.off('error', done);
            resolve();
          };
          parser.on('drain', done);
          parser.on('error', done);
          drainWaiters.add(done);
        });
      }
    }
    if (bytes === 0) fail(new TarError('The archive is empty: it has no end marker'));
    else parser.end();
  })().catch(fail);

  try {
    for (;;) {
      while (entries.length === 0 && failure === undefined && !parsed) await new Promise<void>((resolve) => (wake = resolve));
      if (failure !== undefined) throw failure;
      const entry = entries.shift();
      if (!entry) break;
      const type = checkEntry(entry, metas);
      metas = [];
      if (type === 'directory' && entry.size !== 0) throw refused(entry.path, 'a folder has a size');
      let opened = false;
      current = entry;
      yield {
        name: entryNameParts(entry.path).join('/'),
        type,
        size: entry.size,
        mode: entry.mode ?? 0,
        mtime: entry.mtime ?? new Date(0),
        body: () => {
          if (opened) throw new Error(`The body of ${entry.path} was already read`);
          opened = true;
          return (async function* () {
            try {
              for await (const chunk of entry) {
                if (failure !== undefined) break;
                yield chunk;
              }
            } catch (error) {
              // A failure ends the entry (destroyed): say why.
              throw failure ?? error;
            }
            if (failure !== undefined) throw failure;
          })();
        },
      };
      // What was not read is skipped.
      current = undefined;
      entry.resume();
    }
    if (!sawEnd) {
      throw lastWasNullBlock
        ? new TarError('Damaged end of archive: one of its two end blocks is missing')
        : new TarError('The archive has no end marker: it is truncated');
    }
    if (metas.length > 0) {
      throw new TarError('An extended header (pax, global pax or GNU long name) with no entry after it');
    }
    await pumping;
    if (failure !== undefined) throw failure;
  } finally {
    closed = true;
    for (const done of drainWaiters) done();
    parser.removeAllListeners('entry');
  }
}

/** An entry's whole body, refused beyond `max` bytes. */
export async function readEntry(entry: TarReadEntry, max: number): Promise<Buffer<ArrayBuffer>> {
  if (entry.size > max) throw new TarError(`${entry.name} is too large (${entry.size} bytes, at most ${max})`);
  const chunks: Buffer[] = [];
  for await (const chunk of entry.body()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Writes an entry under `root` as `name` (the entry's own name by default): folders are created,
 * a file is created new (never over an existing file, never through a symbolic link) with its
 * permission bits at most 0755 and its modification time. Answers the path written.
 */
export async function extractEntry(root: string, entry: TarReadEntry, name = entry.name): Promise<string> {
  const target = resolveInside(root, name);
  const realRoot = await fs.promises.realpath(root);
  const folder = entry.type === 'directory' ? target : path.dirname(target);
  await fs.promises.mkdir(folder, { recursive: true });
  // mkdir follows links that already exist: make sure the folder really is inside the root.
  const realFolder = await fs.promises.realpath(folder);
  if (realFolder !== realRoot && !realFolder.startsWith(realRoot + path.sep)) {
    throw refused(name, 'it would be written through a link, outside the target folder');
  }
  if (entry.type === 'directory') return target;

  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, entry.mode & 0o755 || 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw refused(name, 'the archive holds it twice, or it already exists');
    }
    throw error;
  }
  await pipeline(entry.body(), handle.createWriteStream());
  await fs.promises.utimes(target, entry.mtime, entry.mtime);
  return target;
}
