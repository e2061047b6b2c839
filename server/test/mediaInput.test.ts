import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { MediaInputError, inspectAudio, inspectImage } from '../src/lib/mediaInput';
import { createOpenAIMediaClient } from '../src/providers/openaiMedia';

/** A PNG header (signature + IHDR) claiming `width` x `height`. */
function pngHeader(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

/** A JPEG start: SOI, an APP0 segment, then SOF0 with the size. */
function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(9)]);
}

function wavHeader(format: number, channels: number, rate: number, bits: number): Buffer {
  const bytes = Buffer.alloc(48);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(40, 4);
  bytes.write('WAVE', 8, 'latin1');
  bytes.write('fmt ', 12, 'latin1');
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(format, 20);
  bytes.writeUInt16LE(channels, 22);
  bytes.writeUInt32LE(rate, 24);
  bytes.writeUInt32LE(rate * channels * (bits / 8), 28);
  bytes.writeUInt16LE(channels * (bits / 8), 32);
  bytes.writeUInt16LE(bits, 34);
  bytes.write('data', 36, 'latin1');
  bytes.writeUInt32LE(4, 40);
  return bytes;
}

describe('inspectImage', () => {
  it('tells PNG, JPEG and WebP by their first bytes, with their size', () => {
    expect(inspectImage(pngHeader(1536, 1024))).toEqual({ type: 'png', width: 1536, height: 1024 });
    expect(inspectImage(jpegHeader(1792, 1024))).toEqual({ type: 'jpeg', width: 1792, height: 1024 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(1023, 24, 3);
    webp.writeUIntLE(767, 27, 3);
    expect(inspectImage(webp)).toEqual({ type: 'webp', width: 1024, height: 768 });
  });

  it.each([
    ['an HTML error page', Buffer.from('<html><body>Internal error</body></html>')],
    ['an SVG (a script carrier)', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x</script></svg>')],
    ['a GIF', Buffer.from('GIF89a\x01\x00\x01\x00')],
    ['nothing', Buffer.alloc(0)],
    ['a decompression bomb header', pngHeader(100_000, 100_000)],
    ['a sliver', pngHeader(10, 4000)],
    ['a 40-megapixel-plus picture', pngHeader(8000, 8000)],
    ['a JPEG that never says its size', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xd9])])],
  ])('refuses %s', (_what, bytes) => {
    expect(() => inspectImage(bytes)).toThrow(MediaInputError);
  });

  it('refuses an image over the byte limit', () => {
    expect(() => inspectImage(pngHeader(100, 100), { maxBytes: 10, minSide: 1, maxSide: 10, maxPixels: 100 })).toThrow(
      /an image of 0 MB \(at most 0 MB\)/,
    );
  });

  it('answers a type or a MediaInputError for any bytes, never anything else (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }),
        fc.constantFrom(Buffer.alloc(0), pngHeader(800, 600), jpegHeader(800, 600)),
        (tail, head) => {
          const bytes = Buffer.concat([head.subarray(0, Math.max(0, head.length - ((tail[0] ?? 0) % 8))), Buffer.from(tail)]);
          try {
            const info = inspectImage(bytes);
            expect(['png', 'jpeg', 'webp']).toContain(info.type);
          } catch (error) {
            expect(error).toBeInstanceOf(MediaInputError);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('inspectAudio', () => {
  it('knows WAV, MP3, Ogg and FLAC', () => {
    expect(inspectAudio(wavHeader(1, 1, 24_000, 16))).toEqual({ type: 'wav' });
    expect(inspectAudio(Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00'))).toEqual({ type: 'mp3' });
    expect(inspectAudio(Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0]))).toEqual({ type: 'mp3' });
    expect(inspectAudio(Buffer.from('OggS\0\x02'))).toEqual({ type: 'ogg' });
    expect(inspectAudio(Buffer.from('fLaC\0\0'))).toEqual({ type: 'flac' });
  });

  it.each([
    ['JSON', Buffer.from('{"error":{"message":"quota"}}')],
    ['a WAV of 6 channels', wavHeader(1, 6, 48_000, 16)],
    ['a WAV in a compressed codec', wavHeader(0x55, 1, 22_050, 16)],
    ['a WAV at 1 Hz', wavHeader(1, 1, 1, 16)],
    ['a video', Buffer.from('\0\0\0\x18ftypmp42')],
  ])('refuses %s', (_what, bytes) => {
    expect(() => inspectAudio(bytes)).toThrow(MediaInputError);
  });

  it('answers a type or a MediaInputError for any bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (raw) => {
        try {
          inspectAudio(Buffer.from(raw));
        } catch (error) {
          expect(error).toBeInstanceOf(MediaInputError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('what an image API answers is checked before it is saved', () => {
  let server: http.Server;
  let url: string;
  let answer: Buffer;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-input-'));
    server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ data: [{ b64_json: answer.toString('base64') }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['an HTML page', Buffer.from('<!doctype html><h1>Gateway timeout</h1>')],
    ['a PNG header claiming 100000x100000 pixels', pngHeader(100_000, 100_000)],
  ])('refuses %s with a clear error and writes nothing', async (_what, bytes) => {
    answer = bytes;
    const client = createOpenAIMediaClient({ apiKey: 'sk-test', baseUrl: url, maxRetries: 0 });
    const outFile = path.join(dir, 'scene.png');
    await expect(client.image({ prompt: 'a lighthouse', outFile })).rejects.toMatchObject({
      kind: 'api_error',
      message: expect.stringMatching(
        /^the image API answered (something that is not a PNG, JPEG or WebP image|an image of 100000x100000 pixels)/,
      ),
    });
    expect(fs.existsSync(outFile)).toBe(false);
    await client.close();
  });
});
