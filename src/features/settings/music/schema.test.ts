import { fileSize, hasMusicExtension, musicSchema, trackLength } from './schema';

const file = (name: string, size: number) => {
  const made = new File(['x'], name);
  Object.defineProperty(made, 'size', { value: size });
  return made;
};

describe('the music form', () => {
  it('takes MP3, WAV and Ogg files by name, whatever the case', () => {
    expect(['a.mp3', 'B.WAV', 'c.ogg', 'd.oga'].map(hasMusicExtension)).toEqual([true, true, true, true]);
    expect(['cover.png', 'song.flac', 'noextension', 'mp3'].map(hasMusicExtension)).toEqual([false, false, false, false]);
  });

  it('needs a file to upload, of a known kind and at most 20 MB; an edit needs none', async () => {
    const upload = musicSchema(false);
    const errors = async (values: object) =>
      upload.validate(values, { abortEarly: false }).then(
        () => [],
        (error: { errors: string[] }) => error.errors,
      );
    expect(await errors({ name: 'A', mood: 'calm', file: null })).toEqual(['validation.fillAllFields']);
    expect(await errors({ name: 'A', mood: 'calm', file: file('a.png', 10) })).toEqual(['validation.musicType']);
    expect(await errors({ name: 'A', mood: 'calm', file: file('a.mp3', 20 * 1024 * 1024 + 1) })).toEqual([
      'validation.musicTooLarge',
    ]);
    expect(await errors({ name: 'A', mood: 'calm', file: file('a.mp3', 20 * 1024 * 1024) })).toEqual([]);
    expect(await errors({ name: ' ', mood: '', file: file('a.mp3', 10) })).toEqual([
      'validation.fillAllFields',
      'validation.fillAllFields',
    ]);
    await expect(musicSchema(true).validate({ name: 'A', mood: 'epic', file: null })).resolves.toBeTruthy();
  });

  it('says sizes and lengths as people read them', () => {
    expect(fileSize(3 * 1024 * 1024, 'en-US')).toBe('3 MB');
    expect(fileSize(1536 * 1024, 'pt-BR')).toBe('1,5 MB');
    expect(fileSize(840 * 1024, 'en-US')).toBe('840 KB');
    expect(trackLength(154.3)).toBe('2:34');
    expect(trackLength(59.6)).toBe('1:00');
  });
});
