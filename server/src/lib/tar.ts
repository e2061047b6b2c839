import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * A small tar writer and reader for the backup archive: ustar (POSIX.1-1988) headers, with a
 * POSIX.1-2001 pax header only for what ustar cannot hold (names over 255 bytes, files of 8 GiB
 * and more). Regular files and folders only.
 *
 * The reader is strict, because an archive may come from anywhere: it checks every header's
 * checksum and numbers, refuses every other entry type (symlinks, hard links, devices, fifos, GNU
 * extensions), refuses names that are absolute, climb out with `..` or hold backslashes or control
 * characters, and reports data that ends early. `extractEntry` then writes a file only inside the
 * folder it is given, never over an existing file, and never through a link.
 */

export class TarError extends Error {}

const BLOCK = 512;
/** The largest size a ustar header holds: 11 octal digits. */
const USTAR_MAX_SIZE = 0o77777777777;
const MAX_PAX_BYTES = 64 * 1024;
const MAX_NAME_BYTES = 4096;

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

/**
 * The components of a safe relative entry name, or a TarError: no absolute path or drive letter,
 * no `.`, `..` or empty component, no backslash, NUL or other control character.
 */
export function entryNameParts(name: string): string[] {
  const trimmed = name.endsWith('/') ? name.slice(0, -1) : name;
  const refuse = (why: string) => new TarError(`Refused entry "${printable(name)}": ${why}`);
  if (trimmed === '') throw refuse('empty name');
  if (Buffer.byteLength(trimmed) > MAX_NAME_BYTES) throw refuse('name too long');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw refuse('control character in the name');
  if (trimmed.includes('\\')) throw refuse('backslash in the name');
  if (trimmed.startsWith('/') || /^[A-Za-z]:/.test(trimmed)) throw refuse('absolute path');
  const parts = trimmed.split('/');
  if (parts.includes('..')) throw refuse('".." in the path');
  if (parts.some((part) => part === '' || part === '.')) throw refuse('empty or "." path component');
  return parts;
}

function printable(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 200);
}

/** Where a safe entry name lands inside `root`; a TarError when it would land anywhere else. */
export function resolveInside(root: string, name: string): string {
  const base = path.resolve(root);
  const target = path.resolve(base, ...entryNameParts(name));
  const relative = path.relative(base, target);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new TarError(`Refused entry "${printable(name)}": outside the target folder`);
  }
  return target;
}

// ---------------------------------------------------------------------------------------------
// Writing

function writeString(block: Buffer, offset: number, length: number, value: string): void {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > length) throw new TarError(`"${value}" does not fit a tar header field`);
  bytes.copy(block, offset);
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  const digits = Math.max(0, Math.floor(value))
    .toString(8)
    .padStart(length - 1, '0');
  if (digits.length > length - 1) throw new TarError(`${value} does not fit a tar header field`);
  block.write(`${digits}\0`, offset, 'latin1');
}

function header(name: string, prefix: string, typeflag: string, size: number, mode: number, mtime: Date): Buffer {
  const block = Buffer.alloc(BLOCK);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, mode & 0o7777);
  writeOctal(block, 108, 8, 0); // uid
  writeOctal(block, 116, 8, 0); // gid
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, Math.floor(mtime.getTime() / 1000));
  block.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  block.write(typeflag, 156, 'latin1');
  block.write('ustar\u000000', 257, 'latin1');
  writeString(block, 345, 155, prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return block;
}

/** ustar's name field holds 100 bytes, and a 155-byte prefix may hold the leading folders. */
function splitName(name: string): { name: string; prefix: string } | undefined {
  if (Buffer.byteLength(name) <= 100) return { name, prefix: '' };
  for (let slash = name.indexOf('/'); slash !== -1; slash = name.indexOf('/', slash + 1)) {
    const prefix = name.slice(0, slash);
    const rest = name.slice(slash + 1);
    if (Buffer.byteLength(prefix) > 155) return undefined;
    if (rest !== '' && Buffer.byteLength(rest) <= 100) return { name: rest, prefix };
  }
  return undefined;
}

/** One pax record: "<length> <key>=<value>\n", the length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bytes = Buffer.byteLength(body);
  let length = bytes + String(bytes).length;
  if (String(length).length !== String(length - bytes).length) length = bytes + String(length).length;
  return `${length}${body}`;
}

function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest);
}

/**
 * The tar stream of `entries`, block by block (pipe it into zlib.createGzip()). A file opened
 * lazily must give exactly its `size` bytes, or the archive stops with an error.
 */
export async function* writeTar(entries: Iterable<TarInput> | AsyncIterable<TarInput>): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    const parts = entryNameParts(entry.name);
    const isDirectory = entry.type === 'directory';
    const name = parts.join('/') + (isDirectory ? '/' : '');
    const data = isDirectory ? undefined : (entry.data ?? Buffer.alloc(0));
    const size = isDirectory ? 0 : Buffer.isBuffer(data) ? data.length : entry.size;
    if (size === undefined || !Number.isSafeInteger(size) || size < 0) throw new TarError(`No size given for ${name}`);
    const mode = entry.mode ?? (isDirectory ? 0o755 : 0o644);
    const mtime = entry.mtime ?? new Date();
    const typeflag = isDirectory ? '5' : '0';

    const split = splitName(name);
    const pax = [
      ...(split ? [] : [paxRecord('path', name)]),
      ...(size > USTAR_MAX_SIZE ? [paxRecord('size', String(size))] : []),
    ].join('');
    if (pax) {
      const paxBytes = Buffer.from(pax, 'utf8');
      yield header('PaxHeader', '', 'x', paxBytes.length, 0o644, mtime);
      yield Buffer.concat([paxBytes, padding(paxBytes.length)]);
    }
    const fallback = Buffer.from(name)
      .subarray(0, 100)
      .toString('utf8')
      .replace(/\uFFFD+$/, '');
    yield header(split?.name ?? fallback, split?.prefix ?? '', typeflag, size > USTAR_MAX_SIZE ? 0 : size, mode, mtime);

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

/** Pulls exact byte counts out of a stream of chunks of any size. */
class ByteSource {
  private pending: Buffer[] = [];
  private length = 0;
  private ended = false;

  constructor(private readonly input: AsyncIterator<Buffer | Uint8Array | string>) {}

  private async fill(wanted: number): Promise<void> {
    while (this.length < wanted && !this.ended) {
      const next = await this.input.next();
      if (next.done) {
        this.ended = true;
        break;
      }
      const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value as Uint8Array);
      if (chunk.length === 0) continue;
      this.pending.push(chunk);
      this.length += chunk.length;
    }
  }

  /** Up to `wanted` bytes at once (fewer only at the end of the data). */
  async read(wanted: number): Promise<Buffer> {
    await this.fill(wanted);
    const size = Math.min(wanted, this.length);
    const out = Buffer.alloc(size);
    let offset = 0;
    while (offset < size) {
      const head = this.pending[0]!;
      const take = Math.min(head.length, size - offset);
      head.copy(out, offset, 0, take);
      offset += take;
      if (take === head.length) this.pending.shift();
      else this.pending[0] = head.subarray(take);
    }
    this.length -= size;
    return out;
  }

  /** The next chunk, of at most `max` bytes; empty only at the end of the data. */
  async chunk(max: number): Promise<Buffer> {
    if (this.length === 0) await this.fill(1);
    const head = this.pending[0];
    if (!head) return Buffer.alloc(0);
    const take = Math.min(head.length, max);
    if (take === head.length) this.pending.shift();
    else this.pending[0] = head.subarray(take);
    this.length -= take;
    return head.subarray(0, take);
  }

  async skip(count: number): Promise<void> {
    let left = count;
    while (left > 0) {
      const chunk = await this.chunk(left);
      if (chunk.length === 0) throw truncated();
      left -= chunk.length;
    }
  }
}

const truncated = () => new TarError('The archive ends too early: it is truncated or damaged');

function cString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function parseOctal(block: Buffer, offset: number, length: number, what: string): number {
  const field = block.subarray(offset, offset + length);
  if ((field[0]! & 0x80) !== 0) throw new TarError(`Unsupported tar header: binary ${what}`);
  const text = field
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarError(`Damaged tar header: ${what} is not a number`);
  const value = Number.parseInt(text, 8);
  if (!Number.isSafeInteger(value)) throw new TarError(`Damaged tar header: ${what} too large`);
  return value;
}

function parsePax(data: Buffer): Record<string, string> {
  const records: Record<string, string> = {};
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    const lengthText = space === -1 ? '' : data.toString('latin1', offset, space);
    const length = /^[1-9]\d{0,6}$/.test(lengthText) ? Number(lengthText) : NaN;
    if (!(length > 0) || offset + length > data.length || data[offset + length - 1] !== 0x0a) {
      throw new TarError('Damaged pax header');
    }
    const record = data.toString('utf8', space + 1, offset + length - 1);
    const equals = record.indexOf('=');
    if (equals <= 0) throw new TarError('Damaged pax header');
    records[record.slice(0, equals)] = record.slice(equals + 1);
    offset += length;
  }
  return records;
}

const TYPE_NAMES: Record<string, string> = {
  '1': 'a hard link',
  '2': 'a symbolic link',
  '3': 'a character device',
  '4': 'a block device',
  '6': 'a fifo',
  '7': 'a contiguous file',
  g: 'a global pax header',
  L: 'a GNU long name',
  K: 'a GNU long link',
};

const isZero = (block: Buffer) => block.every((byte) => byte === 0);

/**
 * The entries of a tar stream, checked as described at the top of this file. Read each entry's
 * body (or not) before asking for the next entry. The stream is read to its end, so a
 * decompressor in front of it checks its own checksum; only zeros may follow the end marker.
 */
export async function* readTar(source: AsyncIterable<Buffer | Uint8Array | string>): AsyncGenerator<TarReadEntry> {
  const input = new ByteSource(source[Symbol.asyncIterator]());
  let pax: Record<string, string> = {};
  for (;;) {
    const block = await input.read(BLOCK);
    if (block.length < BLOCK)
      throw block.length === 0 ? new TarError('The archive has no end marker: it is truncated') : truncated();
    if (isZero(block)) {
      const second = await input.read(BLOCK);
      if (second.length < BLOCK || !isZero(second)) throw new TarError('Damaged end of archive');
      for (let rest = await input.chunk(1 << 16); rest.length > 0; rest = await input.chunk(1 << 16)) {
        if (!isZero(rest)) throw new TarError('Unexpected data after the end of the archive');
      }
      return;
    }

    const stored = parseOctal(block, 148, 8, 'checksum');
    let sum = 0;
    for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
    if (sum !== stored) throw new TarError('Damaged tar header (bad checksum): not a tar archive, or a damaged one');
    const magic = block.toString('latin1', 257, 263);
    if (!magic.startsWith('ustar')) throw new TarError('Not a ustar archive');

    const typeflag = block.toString('latin1', 156, 157);
    const headerSize = parseOctal(block, 124, 12, 'size');
    if (typeflag === 'x') {
      if (headerSize > MAX_PAX_BYTES) throw new TarError('Pax header too large');
      const data = await input.read(headerSize);
      if (data.length < headerSize) throw truncated();
      await input.skip(padding(headerSize).length);
      pax = parsePax(data);
      continue;
    }

    // POSIX ustar ("ustar\0") has a name prefix; old GNU tar ("ustar ") uses that room otherwise.
    const prefix = magic === 'ustar\u0000' ? cString(block, 345, 155) : '';
    const rawName = pax.path ?? (prefix ? `${prefix}/${cString(block, 0, 100)}` : cString(block, 0, 100));
    if (pax.size !== undefined && !/^\d{1,16}$/.test(pax.size)) throw new TarError('Damaged pax header: size');
    const size = pax.size !== undefined ? Number(pax.size) : headerSize;
    pax = {};
    if (!Number.isSafeInteger(size)) throw new TarError('Damaged tar header: size too large');
    let type: TarEntryType;
    if (typeflag === '0' || typeflag === '\0') type = rawName.endsWith('/') ? 'directory' : 'file';
    else if (typeflag === '5') type = 'directory';
    else {
      const what = TYPE_NAMES[typeflag] ?? `an entry of unknown type "${printable(typeflag)}"`;
      throw new TarError(`Refused entry "${printable(rawName)}": ${what} (only files and folders are allowed)`);
    }
    if (type === 'directory' && size !== 0) throw new TarError(`Damaged tar header: folder "${printable(rawName)}" has a size`);
    const name = entryNameParts(rawName).join('/');

    let remaining = size;
    let opened = false;
    yield {
      name,
      type,
      size,
      mode: parseOctal(block, 100, 8, 'mode'),
      mtime: new Date(parseOctal(block, 136, 12, 'mtime') * 1000),
      body: () => {
        if (opened) throw new Error(`The body of ${name} was already read`);
        opened = true;
        return (async function* () {
          while (remaining > 0) {
            const chunk = await input.chunk(Math.min(remaining, 1 << 20));
            if (chunk.length === 0) throw truncated();
            remaining -= chunk.length;
            yield chunk;
          }
        })();
      },
    };
    await input.skip(remaining + padding(size).length);
    remaining = 0;
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
    throw new TarError(`Refused entry "${printable(name)}": it would be written through a link, outside the target folder`);
  }
  if (entry.type === 'directory') return target;

  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, entry.mode & 0o755 || 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new TarError(`Refused entry "${printable(name)}": the archive holds it twice, or it already exists`);
    }
    throw error;
  }
  await pipeline(entry.body(), handle.createWriteStream());
  await fs.promises.utimes(target, entry.mtime, entry.mtime);
  return target;
}
