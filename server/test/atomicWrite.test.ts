import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../src/lib/atomicWrite';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atomic-write-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic with the content', () => {
  test('writes bytes or a text, leaving no temporary file', async () => {
    const file = path.join(dir, 'out.bin');
    await writeFileAtomic(file, Buffer.from('hello'));
    expect(fs.readFileSync(file, 'utf8')).toBe('hello');
    await writeFileAtomic(file, 'olá de novo');
    expect(fs.readFileSync(file, 'utf8')).toBe('olá de novo');
    expect(fs.readdirSync(dir)).toEqual(['out.bin']);
  });

  test('gives a new file the mode asked for', async () => {
    const file = path.join(dir, 'secret');
    await writeFileAtomic(file, 'x', { mode: 0o600 });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  test('refuses a folder that does not exist, leaving nothing', async () => {
    await expect(writeFileAtomic(path.join(dir, 'missing', 'x.bin'), Buffer.from('x'))).rejects.toThrow();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('writeFileAtomic with a writer', () => {
  const target = () => path.join(dir, 'video.mp4');

  test('the writer writes a fresh hidden file beside the target, with the suffix asked for; its answer is answered', async () => {
    let seen = '';
    const answer = await writeFileAtomic(
      target(),
      async (temporary) => {
        seen = temporary;
        await fs.promises.writeFile(temporary, 'whole');
        return 42;
      },
      { suffix: '.partial.mp4' },
    );
    expect(answer).toBe(42);
    expect(path.dirname(seen)).toBe(dir);
    expect(path.basename(seen)).toMatch(/^\.video\.mp4\..+\.partial\.mp4$/);
    expect(fs.readFileSync(target(), 'utf8')).toBe('whole');
    expect(fs.readdirSync(dir)).toEqual(['video.mp4']);
  });

  test('the target keeps its old content while the writer runs, and is then replaced whole', async () => {
    fs.writeFileSync(target(), 'old');
    await writeFileAtomic(target(), async (temporary) => {
      await fs.promises.writeFile(temporary, 'new, first half');
      expect(fs.readFileSync(target(), 'utf8')).toBe('old');
      await fs.promises.appendFile(temporary, ', second half');
      expect(fs.readFileSync(target(), 'utf8')).toBe('old');
    });
    expect(fs.readFileSync(target(), 'utf8')).toBe('new, first half, second half');
  });

  test('a writer that fails halfway leaves the target as it was and no temporary file', async () => {
    fs.writeFileSync(target(), 'old');
    const failure = new Error('ffmpeg died');
    await expect(
      writeFileAtomic(target(), async (temporary) => {
        await fs.promises.writeFile(temporary, 'half of it');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(fs.readFileSync(target(), 'utf8')).toBe('old');
    expect(fs.readdirSync(dir)).toEqual(['video.mp4']);
  });

  test('a writer that refuses what it wrote (a check after writing) leaves no target at all when there was none', async () => {
    await expect(
      writeFileAtomic(target(), async (temporary) => {
        await fs.promises.writeFile(temporary, 'no picture');
        throw new Error('a video without a picture');
      }),
    ).rejects.toThrow('a video without a picture');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('a writer that fails before writing anything answers its own error', async () => {
    await expect(writeFileAtomic(target(), () => Promise.reject(new Error('no ffmpeg')))).rejects.toThrow('no ffmpeg');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('a writer that wrote nothing but did not fail is an error, not an empty target', async () => {
    await expect(writeFileAtomic(target(), async () => 'done')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('writers of one target at once each get their own temporary file; the target is one of them whole', async () => {
    const contents = Array.from({ length: 8 }, (_, i) => `writer ${i} `.repeat(1000));
    const temporaries = new Set<string>();
    await Promise.all(
      contents.map((content) =>
        writeFileAtomic(target(), async (temporary) => {
          temporaries.add(temporary);
          await fs.promises.writeFile(temporary, content);
        }),
      ),
    );
    expect(temporaries.size).toBe(contents.length);
    expect(contents).toContain(fs.readFileSync(target(), 'utf8'));
    expect(fs.readdirSync(dir)).toEqual(['video.mp4']);
  });
});
