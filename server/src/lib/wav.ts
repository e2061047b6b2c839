/**
 * WAV files: parsing one (its format and samples, wherever the chunks are), wrapping raw PCM in
 * one, joining several of one format, and how long one lasts. Pure: buffers in, buffers out.
 */

export interface WavFormat {
  /** 1 PCM, 3 IEEE float, 0xFFFE extensible. */
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
}

export interface ParsedWav {
  format: WavFormat;
  /** The body of the `fmt ` chunk, as found (kept whole when joining). */
  fmtChunk: Buffer;
  /** The samples: the body of the `data` chunk. */
  data: Buffer;
}

/**
 * Parses a RIFF/WAVE file: finds the `fmt ` and `data` chunks wherever they are, skipping others
 * (LIST, fact, ...). A `data` size that is 0 or runs past the end (streamed WAVs leave it unknown,
 * e.g. 0xFFFFFFFF) means "up to the end of the file", cut to whole frames. Throws on anything else.
 */
export function parseWav(buffer: Buffer): ParsedWav {
  if (buffer.length < 12 || buffer.toString('ascii', 0, 4) !== 'RIFF' || buffer.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a WAV file');
  }
  let fmtChunk: Buffer | undefined;
  let data: Buffer | undefined;
  let offset = 12;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString('ascii', offset, offset + 4);
    const size = buffer.readUInt32LE(offset + 4);
    const start = offset + 8;
    if (id === 'data') {
      const end = size === 0 || start + size > buffer.length ? buffer.length : start + size;
      data = buffer.subarray(start, end);
      if (fmtChunk) break;
      offset = end + (end % 2);
      continue;
    }
    if (start + size > buffer.length) throw new Error(`truncated WAV chunk '${id}'`);
    if (id === 'fmt ') fmtChunk = buffer.subarray(start, start + size);
    offset = start + size + (size % 2);
  }
  if (!fmtChunk || fmtChunk.length < 16) throw new Error("WAV without a 'fmt ' chunk");
  if (!data) throw new Error("WAV without a 'data' chunk");
  const format: WavFormat = {
    audioFormat: fmtChunk.readUInt16LE(0),
    channels: fmtChunk.readUInt16LE(2),
    sampleRate: fmtChunk.readUInt32LE(4),
    blockAlign: fmtChunk.readUInt16LE(12),
    bitsPerSample: fmtChunk.readUInt16LE(14),
  };
  if (format.channels < 1 || format.sampleRate < 1 || format.blockAlign < 1) throw new Error('invalid WAV format');
  const whole = data.length - (data.length % format.blockAlign);
  return { format, fmtChunk, data: data.subarray(0, whole) };
}

/** Seconds of audio in a parsed WAV. */
export function wavDurationSeconds(wav: ParsedWav): number {
  return wav.data.length / wav.format.blockAlign / wav.format.sampleRate;
}

function riff(fmtChunk: Buffer, data: Buffer): Buffer {
  const fmtPadded = fmtChunk.length + (fmtChunk.length % 2);
  const riffSize = 4 + 8 + fmtPadded + 8 + data.length + (data.length % 2);
  if (riffSize > 0xffffffff) throw new Error('audio too long for one WAV file');
  const header = Buffer.alloc(12 + 8 + fmtPadded + 8);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(riffSize, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(fmtChunk.length, 16);
  fmtChunk.copy(header, 20);
  const dataAt = 20 + fmtPadded;
  header.write('data', dataAt, 'ascii');
  header.writeUInt32LE(data.length, dataAt + 4);
  return Buffer.concat(data.length % 2 ? [header, data, Buffer.alloc(1)] : [header, data]);
}

/** A WAV file around raw little-endian integer PCM. */
export function pcmToWav(pcm: Buffer, format: { sampleRate: number; channels?: number; bitsPerSample?: number }): Buffer {
  const channels = format.channels ?? 1;
  const bitsPerSample = format.bitsPerSample ?? 16;
  const blockAlign = channels * (bitsPerSample / 8);
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(format.sampleRate, 4);
  fmt.writeUInt32LE(format.sampleRate * blockAlign, 8);
  fmt.writeUInt16LE(blockAlign, 12);
  fmt.writeUInt16LE(bitsPerSample, 14);
  return riff(fmt, pcm.subarray(0, pcm.length - (pcm.length % blockAlign)));
}

/** Joins WAV files that share one format into one, back to back. Throws when formats differ. */
export function concatWav(parts: Buffer[]): Buffer {
  if (parts.length === 0) throw new Error('no audio to join');
  const parsed = parts.map(parseWav);
  const first = parsed[0]!;
  for (const part of parsed) {
    const a = first.format;
    const b = part.format;
    if (
      a.audioFormat !== b.audioFormat ||
      a.channels !== b.channels ||
      a.sampleRate !== b.sampleRate ||
      a.bitsPerSample !== b.bitsPerSample ||
      a.blockAlign !== b.blockAlign
    ) {
      throw new Error('the audio parts have different formats');
    }
  }
  return riff(first.fmtChunk, Buffer.concat(parsed.map((p) => p.data)));
}
