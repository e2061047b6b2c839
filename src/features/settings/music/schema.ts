/**
 * The music forms (docs/api-catalogue.md, "Background music"): a new track needs a name, a mood
 * and its file (MP3, WAV or Ogg, at most 20 MB); an existing one changes only its name and mood
 * (another file is another track).
 */
import { mixed, object, string, type ObjectSchema } from 'yup';
import type { MusicTrack } from '../../../api';
import type { ValidationKey } from '../../../components';
import { MUSIC_FILE_EXTENSIONS, MUSIC_MAX_BYTES, MUSIC_MOODS, type MusicMood } from '../../../lib/constants';

const required: ValidationKey = 'validation.fillAllFields';

export interface MusicFormValues {
  name: string;
  mood: MusicMood | '';
  /** The chosen file; null when editing (or before one is chosen). */
  file: File | null;
}

/** What the file's name says it is: the server reads its bytes anyway. */
export function hasMusicExtension(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot < 1) return false;
  return (MUSIC_FILE_EXTENSIONS as readonly string[]).includes(name.slice(dot + 1).toLowerCase());
}

export function musicSchema(editing: boolean): ObjectSchema<MusicFormValues> {
  return object({
    name: string().trim().required(required),
    mood: string<MusicMood | ''>()
      .oneOf(['', ...MUSIC_MOODS])
      .required(required),
    file: mixed<File>()
      .nullable()
      .defined()
      .test('required', required, (file) => editing || file instanceof File)
      .test('type', 'validation.musicType' satisfies ValidationKey, (file) => !file || hasMusicExtension(file.name))
      .test('size', 'validation.musicTooLarge' satisfies ValidationKey, (file) => !file || file.size <= MUSIC_MAX_BYTES),
  });
}

export function formValuesOf(track?: MusicTrack): MusicFormValues {
  return { name: track?.name ?? '', mood: track?.mood ?? '', file: null };
}

/** 3.1 MB, 820 KB: a file's size for a person. */
export function fileSize(bytes: number, locale: string): string {
  const format = (value: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);
  return bytes >= 1024 * 1024 ? `${format(bytes / 1024 / 1024)} MB` : `${format(Math.max(1, Math.round(bytes / 1024)))} KB`;
}

/** 2:34 for 154.3 seconds. */
export function trackLength(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
