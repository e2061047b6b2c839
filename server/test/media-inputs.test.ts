import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { concatAudio } from '../src/media/audio';
import { MediaError, inputArgs, probe, runFfmpeg, runnableShipped } from '../src/media/ffmpeg';
import { makeThumbnail, renderVideo } from '../src/media/render';
import { sniffMediaType } from '../src/lib/mediaInput';

/**
 * ffmpeg is told what each input is (docs/security.md, "Media from outside"): a file whose bytes
 * are a concat script or an HLS playlist (formats that name other files for ffmpeg to read) is
 * refused before ffmpeg runs, whatever its name, instead of being followed; real images and audio
 * still render. And a shipped binary is never run from a path another account could have planted.
 */

let dir: string;
let secret: string;
let tone: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-inputs-'));
  // What a hostile file would point at: a picture and a sound the console never meant to use.
  secret = path.join(dir, 'secret.png');
  await runFfmpeg(['-f', 'lavfi', '-i', 'color=red:size=320x240', '-frames:v', '1', secret]);
  tone = path.join(dir, 'tone.wav');
  await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1:sample_rate=24000', tone]);
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function rejection(promise: Promise<unknown>): Promise<MediaError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MediaError) return error;
    throw error;
  }
  throw new Error('expected a MediaError');
}

const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

describe('hostile inputs are not interpreted', () => {
  test('a "PNG" that is a concat script naming another file makes no thumbnail (ffmpeg 4.1 would have drawn that file)', async () => {
    const script = write('scene.png', 'ffconcat version 1.0\nfile secret.png\n');
    const thumbnail = path.join(dir, 'thumb-concat.jpg');
    const error = await rejection(makeThumbnail({ image: script, output: thumbnail, workDir: path.join(dir, 'work') }));
    expect(error.code).toBe('invalid');
    expect(error.message).toContain('scene.png is not a PNG, JPEG or WebP image');
    expect(fs.existsSync(thumbnail)).toBe(false);
  });

  test('a "WAV" that is an HLS playlist of a local file is refused by the narration, the probe and the render', async () => {
    const playlist = write('narration.wav', '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\ntone.wav\n#EXT-X-ENDLIST\n');
    const joined = path.join(dir, 'joined.wav');
    expect((await rejection(concatAudio([playlist], joined))).code).toBe('invalid');
    expect(fs.existsSync(joined)).toBe(false);
    const probed = await rejection(probe(playlist));
    expect(probed.code).toBe('invalid');
    expect(probed.message).toContain('narration.wav is not');

    const video = path.join(dir, 'never.mp4');
    const render = await rejection(
      renderVideo({
        workDir: path.join(dir, 'render'),
        output: video,
        thumbnail: path.join(dir, 'never.jpg'),
        segments: [{ image: secret, durationSeconds: 1 }],
        audio: playlist,
        cues: [],
      }),
    );
    expect(render.code).toBe('invalid');
    expect(fs.existsSync(video)).toBe(false);
  });

  test('a still that is really audio, or text, is refused before ffmpeg runs', async () => {
    await expect(inputArgs(tone, 'image')).rejects.toThrow('tone.wav is not a PNG, JPEG or WebP image (it is WAV)');
    await expect(inputArgs(write('notes.jpg', 'hello'), 'image')).rejects.toThrow('notes.jpg is not a PNG, JPEG or WebP image');
    expect(sniffMediaType(Buffer.from('#EXTM3U\n'))).toBeNull();
    expect(sniffMediaType(Buffer.from('ffconcat version 1.0\n'))).toBeNull();
  });

  test('every input is opened with its demuxer named and the file protocol alone', async () => {
    expect(await inputArgs(secret, 'image')).toEqual(['-f', 'png_pipe', '-protocol_whitelist', 'file', '-i', `file:${secret}`]);
    expect((await inputArgs(tone, 'audio')).slice(0, 4)).toEqual(['-f', 'wav', '-protocol_whitelist', 'file']);
  });

  test('real JPEG and WebP stills still make a thumbnail, and an MP3 still joins', async () => {
    for (const [name, codec] of [
      ['still.jpg', 'mjpeg'],
      ['still.webp', 'libwebp'],
    ]) {
      const still = path.join(dir, name);
      await runFfmpeg(['-f', 'lavfi', '-i', 'testsrc=size=640x360', '-frames:v', '1', '-c:v', codec, still]);
      const thumbnail = path.join(dir, `thumb-${name}.jpg`);
      await makeThumbnail({ image: still, output: thumbnail, workDir: path.join(dir, 'work'), width: 320, height: 180 });
      const info = await probe(thumbnail, { kind: 'image' });
      expect(info.streams[0]).toMatchObject({ type: 'video', width: 320, height: 180 });
    }
    const mp3 = path.join(dir, 'tone.mp3');
    await runFfmpeg(['-i', tone, '-c:a', 'libmp3lame', mp3]);
    const result = await concatAudio([mp3, tone], path.join(dir, 'joined-real.wav'), { normalize: false });
    expect(result.durationSeconds).toBeGreaterThan(1.5);
  });
});

describe('a shipped binary the console cannot make runnable', () => {
  test('is run from a private copy, never from the predictable path another account could have planted', () => {
    const source = path.join(dir, 'package', 'ffprobe');
    fs.mkdirSync(path.dirname(source), { recursive: true });
    fs.writeFileSync(source, '#!/bin/sh\necho shipped\n', { mode: 0o644 });
    fs.chmodSync(source, 0o644);
    const stat = fs.statSync(source);
    // Where the last release copied it, planted by "another account" first: a script that leaves a mark.
    const marker = path.join(dir, 'planted-ran');
    const planted = path.join(os.tmpdir(), `storyflow-ffprobe-${stat.size}-${Math.round(stat.mtimeMs)}`);
    fs.writeFileSync(planted, `#!/bin/sh\ntouch ${marker}\necho planted\n`, { mode: 0o755 });
    try {
      const refuse = () => {
        throw Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' });
      };
      const runnable = runnableShipped(source, refuse);
      expect(runnable).not.toBeNull();
      expect(runnable).not.toBe(planted);
      expect(spawnSync(runnable!, [], { encoding: 'utf8' }).stdout).toBe('shipped\n');
      expect(fs.existsSync(marker)).toBe(false);
      // Its folder is new, this account's, and closed to every other.
      const folder = fs.statSync(path.dirname(runnable!));
      expect(path.dirname(path.dirname(runnable!))).toBe(os.tmpdir());
      expect(folder.mode & 0o777).toBe(0o700);
      expect(folder.uid).toBe(process.getuid!());
      expect(fs.readFileSync(runnable!)).toEqual(fs.readFileSync(source));
      // The same binary again: the same private copy.
      expect(runnableShipped(source, refuse)).toBe(runnable);
      // (Removed on exit; jest ends its workers without one.)
      fs.rmSync(path.dirname(runnable!), { recursive: true, force: true });
    } finally {
      fs.rmSync(planted, { force: true });
    }
  });
});
