/**
 * Media that comes from outside (an image API's picture, a speech API's audio, an admin's upload)
 * is checked here before any file reaches ffmpeg: its type by its first bytes (never by a name or
 * a Content-Type), its size, and for images the dimensions in the header. Anything else is refused
 * with a MediaInputError that says what was wrong, so an old decoder is never handed bytes as they
 * came. Pure functions over a Buffer: nothing is written or run.
 */

export class MediaInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MediaInputError';
  }
}

export type ImageType = 'png' | 'jpeg' | 'webp';
export type AudioType = 'wav' | 'mp3' | 'ogg' | 'flac';

export interface ImageInfo {
  type: ImageType;
  width: number;
  height: number;
}

export interface ImageLimits {
  maxBytes: number;
  minSide: number;
  maxSide: number;
  maxPixels: number;
}

export interface AudioLimits {
  maxBytes: number;
}

/** Scene images: a few MB in practice (gpt-image-1 at 1536x1024 is ~3 MB). */
export const IMAGE_LIMITS: ImageLimits = { maxBytes: 25 * 1024 * 1024, minSide: 64, maxSide: 8192, maxPixels: 40_000_000 };
/** Narration and music: a chapter's WAV at 24 kHz is ~3 MB a minute. */
export const AUDIO_LIMITS: AudioLimits = { maxBytes: 200 * 1024 * 1024 };

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** PNG: the signature, then IHDR first with the size. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || bytes.readUInt32BE(0) !== 0x89504e47 || bytes.readUInt32BE(4) !== 0x0d0a1a0a) return null;
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') throw new MediaInputError('a PNG image without its header');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** JPEG: walks the markers to the first start-of-frame, which holds the size. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) throw new MediaInputError('a JPEG image with a damaged header');
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) throw new MediaInputError('a JPEG image with a damaged header');
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (at + 9 > bytes.length) break;
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    if (marker === 0xd9 || marker === 0xda) break;
    at += 2 + length;
  }
  throw new MediaInputError('a JPEG image whose header says no size');
}

/** WebP: RIFF/WEBP with a VP8, VP8L or VP8X chunk first. */
function webpSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 16 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') return null;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && bytes.length >= 30) {
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L' && bytes.length >= 25) {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && bytes.length >= 30) {
    return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  throw new MediaInputError('a WebP image whose header says no size');
}

/**
 * What an image really is. Throws MediaInputError for anything but a PNG, JPEG or WebP image
 * within the limits (bytes, each side, total pixels).
 */
export function inspectImage(bytes: Buffer, limits: ImageLimits = IMAGE_LIMITS): ImageInfo {
  if (bytes.length === 0) throw new MediaInputError('an empty file instead of an image');
  if (bytes.length > limits.maxBytes)
    throw new MediaInputError(`an image of ${megabytes(bytes.length)} (at most ${megabytes(limits.maxBytes)})`);
  const found: Array<[ImageType, (b: Buffer) => { width: number; height: number } | null]> = [
    ['png', pngSize],
    ['jpeg', jpegSize],
    ['webp', webpSize],
  ];
  for (const [type, read] of found) {
    const size = read(bytes);
    if (!size) continue;
    const { width, height } = size;
    if (width < limits.minSide || height < limits.minSide || width > limits.maxSide || height > limits.maxSide) {
      throw new MediaInputError(
        `an image of ${width}x${height} pixels (each side must be ${limits.minSide} to ${limits.maxSide})`,
      );
    }
    if (width * height > limits.maxPixels) throw new MediaInputError(`an image of ${width}x${height} pixels is too large`);
    return { type, width, height };
  }
  throw new MediaInputError('something that is not a PNG, JPEG or WebP image');
}

/** True when `bytes` start an MPEG audio frame (sync word, a valid layer, bitrate and rate). */
function isMpegFrame(bytes: Buffer, at: number): boolean {
  if (at + 4 > bytes.length) return false;
  const header = bytes.readUInt32BE(at);
  const sync = header >>> 21 === 0x7ff;
  const version = (header >>> 19) & 3;
  const layer = (header >>> 17) & 3;
  const bitrate = (header >>> 12) & 0xf;
  const rate = (header >>> 10) & 3;
  return sync && version !== 1 && layer !== 0 && bitrate !== 0 && bitrate !== 0xf && rate !== 3;
}

/**
 * What an audio file really is: WAV (PCM or float, 1-2 channels, 8-192 kHz), MP3 (an ID3 tag or
 * an MPEG frame), Ogg or FLAC. Throws MediaInputError for anything else or a file over the limit.
 */
export function inspectAudio(bytes: Buffer, limits: AudioLimits = AUDIO_LIMITS): { type: AudioType } {
  if (bytes.length === 0) throw new MediaInputError('an empty file instead of audio');
  if (bytes.length > limits.maxBytes)
    throw new MediaInputError(`an audio file of ${megabytes(bytes.length)} (at most ${megabytes(limits.maxBytes)})`);
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE') {
    let at = 12;
    while (at + 8 <= bytes.length) {
      const id = bytes.toString('latin1', at, at + 4);
      const size = bytes.readUInt32LE(at + 4);
      if (id === 'fmt ') {
        if (size < 16 || at + 24 > bytes.length) break;
        const format = bytes.readUInt16LE(at + 8);
        const channels = bytes.readUInt16LE(at + 10);
        const rate = bytes.readUInt32LE(at + 12);
        const bits = bytes.readUInt16LE(at + 22);
        const known = format === 1 || format === 3 || format === 0xfffe;
        if (!known || channels < 1 || channels > 2 || rate < 8000 || rate > 192_000 || ![8, 16, 24, 32].includes(bits)) {
          throw new MediaInputError(
            `a WAV file in a form narration does not use (format ${format}, ${channels} channels, ${rate} Hz)`,
          );
        }
        return { type: 'wav' };
      }
      at += 8 + size + (size % 2);
    }
    throw new MediaInputError("a WAV file without its 'fmt ' header");
  }
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'ID3') return { type: 'mp3' };
  if (isMpegFrame(bytes, 0)) return { type: 'mp3' };
  if (bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'OggS') return { type: 'ogg' };
  if (bytes.length >= 4 && bytes.toString('latin1', 0, 4) === 'fLaC') return { type: 'flac' };
  throw new MediaInputError('something that is not WAV, MP3, Ogg or FLAC audio');
}

/** What a media file is by its first bytes: the still and audio types above, or an MP4/M4A container. */
export type MediaFileType = ImageType | AudioType | 'mp4';

/** How many first bytes sniffMediaType needs. */
export const SNIFF_BYTES = 16;

/**
 * What a file is by its first SNIFF_BYTES bytes alone (the signatures inspectImage and
 * inspectAudio recognise, and MP4's `ftyp` box); null for anything else: a playlist, a script, a
 * text. ffmpeg is told this type instead of guessing it (media/ffmpeg.ts, inputArgs).
 */
export function sniffMediaType(head: Buffer): MediaFileType | null {
  const text = (from: number, to: number) => (head.length >= to ? head.toString('latin1', from, to) : '');
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (text(0, 4) === 'RIFF' && text(8, 12) === 'WEBP') return 'webp';
  if (text(0, 4) === 'RIFF' && text(8, 12) === 'WAVE') return 'wav';
  if (text(0, 3) === 'ID3' || isMpegFrame(head, 0)) return 'mp3';
  if (text(0, 4) === 'OggS') return 'ogg';
  if (text(0, 4) === 'fLaC') return 'flac';
  if (text(4, 8) === 'ftyp') return 'mp4';
  return null;
}
