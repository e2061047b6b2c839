import zlib from 'node:zlib';

/**
 * Hand-made tar blocks for the tests of the tar reader: written here independently of
 * server/src/backup/archive.ts (node-tar), so that they can say what the writer never would (links, devices,
 * `..`, absolute names, broken checksums and numbers).
 */
export interface RawHeader {
  name: string;
  typeflag?: string;
  size?: number;
  /** Written as is into the size field instead of `size` in octal. */
  sizeField?: Buffer;
  prefix?: string;
  linkname?: string;
  mode?: number;
  /** Added to the right checksum (non-zero: a broken header). */
  checksumDelta?: number;
}

export function rawHeader(fields: RawHeader): Buffer {
  const block = Buffer.alloc(512);
  const octal = (offset: number, length: number, value: number) =>
    block.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, 'latin1');
  block.write(fields.name, 0, 100, 'utf8');
  octal(100, 8, fields.mode ?? 0o644);
  octal(108, 8, 0);
  octal(116, 8, 0);
  if (fields.sizeField) fields.sizeField.copy(block, 124, 0, 12);
  else octal(124, 12, fields.size ?? 0);
  octal(136, 12, 1_700_000_000);
  block.fill(0x20, 148, 156);
  block.write(fields.typeflag ?? '0', 156, 'latin1');
  block.write(fields.linkname ?? '', 157, 100, 'utf8');
  block.write('ustar\u000000', 257, 'latin1');
  block.write(fields.prefix ?? '', 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${(sum + (fields.checksumDelta ?? 0)).toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return block;
}

/** A file entry: its header, its data and the padding to a whole block. */
export function rawFile(name: string, data: Buffer | string, extra: Partial<RawHeader> = {}): Buffer {
  const bytes = Buffer.from(data);
  const pad = Buffer.alloc((512 - (bytes.length % 512)) % 512);
  return Buffer.concat([rawHeader({ name, size: bytes.length, ...extra }), bytes, pad]);
}

/** A pax extended header ('x') carrying the given records. */
export function rawPax(records: Record<string, string>): Buffer {
  const text = Object.entries(records)
    .map(([key, value]) => {
      const body = ` ${key}=${value}\n`;
      let length = Buffer.byteLength(body) + 1;
      while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
      return `${length}${body}`;
    })
    .join('');
  return rawFile('PaxHeader', text, { typeflag: 'x' });
}

export const END = Buffer.alloc(1024);

export const gzip = (tar: Buffer) => zlib.gzipSync(tar);
