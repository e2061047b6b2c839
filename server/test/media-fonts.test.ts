import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundledFonts, chooseFonts, drawnCodePoints, fontFolder, readFontFile } from '../src/media/fonts';

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-fonts-'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A minimal TrueType file: the three tables the chooser reads (cmap format 4 over `ranges`, name
 * with `family`, OS/2 with `weight`). Enough to be found and chosen; not enough to draw with.
 */
function syntheticFont(family: string, ranges: Array<[number, number]>, weight = 400): Buffer {
  const segments = [...ranges, [0xffff, 0xffff] as [number, number]];
  const count = segments.length;
  const format4 = Buffer.alloc(16 + count * 8);
  format4.writeUInt16BE(4, 0);
  format4.writeUInt16BE(format4.length, 2);
  format4.writeUInt16BE(count * 2, 6);
  segments.forEach(([start, end], i) => {
    format4.writeUInt16BE(end, 14 + i * 2);
    format4.writeUInt16BE(start, 16 + count * 2 + i * 2);
    // Glyph = code + delta: 1 for the first code of every segment, never 0.
    format4.writeInt16BE(start === 0xffff ? 1 : ((1 - start) << 16) >> 16, 16 + count * 4 + i * 2);
  });
  const cmap = Buffer.concat([Buffer.from([0, 0, 0, 1, 0, 3, 0, 1, 0, 0, 0, 12]), format4]);
  const nameText = Buffer.from(family, 'utf16le').swap16();
  const name = Buffer.alloc(18);
  name.writeUInt16BE(1, 2);
  name.writeUInt16BE(18, 4);
  [3, 1, 0x409, 1, nameText.length, 0].forEach((value, i) => name.writeUInt16BE(value, 6 + i * 2));
  const os2 = Buffer.alloc(8);
  os2.writeUInt16BE(weight, 4);
  const tables: Array<[string, Buffer]> = [
    ['OS/2', os2],
    ['cmap', cmap],
    ['name', Buffer.concat([name, nameText])],
  ];
  const header = Buffer.alloc(12 + tables.length * 16);
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(tables.length, 4);
  let offset = header.length;
  tables.forEach(([tag, data], i) => {
    header.write(tag, 12 + i * 16, 'latin1');
    header.writeUInt32BE(offset, 12 + i * 16 + 8);
    header.writeUInt32BE(data.length, 12 + i * 16 + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...tables.map(([, data]) => data)]);
}

describe('fonts', () => {
  it('ships DejaVu Sans and reads what it covers from its character map', async () => {
    const { bold, regular } = bundledFonts();
    const [face] = await readFontFile(regular);
    expect(face).toMatchObject({ family: 'DejaVu Sans', bold: false });
    expect((await readFontFile(bold))[0]).toMatchObject({ family: 'DejaVu Sans', bold: true });
    for (const char of 'AzãçéЖжΩمπ€') expect(face.covers(char.codePointAt(0)!)).toBe(true);
    for (const char of '从あ한न') expect(face.covers(char.codePointAt(0)!)).toBe(false);
  });

  it('draws the 16 languages DejaVu covers with DejaVu alone, whatever the system has', async () => {
    const samples = [
      'Olá, coração! Ação e emoção.',
      'The keeper’s daughter — “quietly”.',
      '¡Había una vez! ¿Quién?',
      'Ça s’est passé à Noël, où l’été…',
      'Größe, Übermut, Straße',
      'Perché così è',
      'Жили-были дед и баба',
      'كان يا ما كان',
      'Bir varmış, bir yokmuş: ğüşıöç',
      'Er was eens een ĳsbeer',
      'Det var en gång, på ön',
      'Det var en gang, blåbær og ærfugl',
      'Der var engang en sø',
      'Olipa kerran äiti',
      'Dawno, dawno temu: źdźbło',
      'Kdysi dávno, řeka a ůl',
    ];
    const choice = await chooseFonts(samples.join('\n'), [path.join(dir, 'nothing-here')]);
    expect(choice).toMatchObject({ family: 'DejaVu Sans', source: 'bundled', missing: [] });
    expect(choice.files).toEqual([bundledFonts().regular, bundledFonts().bold]);
  });

  it('uses a system font for a script DejaVu lacks, when the system has one', async () => {
    const system = path.join(dir, 'system');
    fs.mkdirSync(path.join(system, 'cjk'), { recursive: true });
    fs.writeFileSync(
      path.join(system, 'cjk', 'Fake-CJK-Regular.ttf'),
      syntheticFont('Fake CJK', [
        [0x20, 0x7e],
        [0x3000, 0x303f],
        [0x4e00, 0x9fff],
      ]),
    );
    fs.writeFileSync(
      path.join(system, 'cjk', 'Fake-CJK-Bold.ttf'),
      syntheticFont(
        'Fake CJK',
        [
          [0x20, 0x7e],
          [0x3000, 0x303f],
          [0x4e00, 0x9fff],
        ],
        700,
      ),
    );
    fs.writeFileSync(path.join(system, 'Latin-Only.ttf'), syntheticFont('Latin Only', [[0x20, 0x7e]]));
    fs.writeFileSync(path.join(system, 'broken.ttf'), 'not a font');
    const choice = await chooseFonts('从前有一个小男孩。He lived by the river.', [system]);
    expect(choice).toMatchObject({
      family: 'Fake CJK',
      source: 'system',
      bold: path.join(system, 'cjk', 'Fake-CJK-Bold.ttf'),
      regular: path.join(system, 'cjk', 'Fake-CJK-Regular.ttf'),
      missing: [],
    });
  });

  it('names what nothing on the machine can draw (a bare server and a Hindi story)', async () => {
    const choice = await chooseFonts('नमस्ते दुनिया — hello', [path.join(dir, 'nothing-here')]);
    expect(choice.source).toBe('bundled');
    expect(choice.missing).toEqual(expect.arrayContaining(['न', 'म', 'स']));
    expect(choice.missing).not.toContain('h');
    expect(drawnCodePoints('a a\tb\n')).toEqual([0x61, 0x62]);
  });

  it('gathers the chosen files in a folder of links with a name that needs no escaping', async () => {
    const work = path.join(dir, 'work with spaces');
    fs.mkdirSync(work);
    const name = await fontFolder([bundledFonts().regular, bundledFonts().bold], work);
    expect(name).toBe('fonts');
    expect(fs.readdirSync(path.join(work, 'fonts')).sort()).toEqual(['0-DejaVuSans.ttf', '1-DejaVuSans-Bold.ttf']);
    expect(fs.readFileSync(path.join(work, 'fonts', '0-DejaVuSans.ttf')).equals(fs.readFileSync(bundledFonts().regular))).toBe(
      true,
    );
  });
});
