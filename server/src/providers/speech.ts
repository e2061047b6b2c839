import path from 'node:path';
import { ESPEAK_VOICE, LocalVoiceError, synthesizeLocal, type TimedWord } from './localVoice';
import { writeFileAtomic } from '../lib/atomicWrite';
import { pcmToWav } from '../lib/wav';

/**
 * Speech synthesis with espeak-ng, offline and free: the samples of espeak voices and the video
 * engine's narration. It runs espeak-ng's WebAssembly build that ships in node_modules
 * (providers/localVoice.ts), never a system program, so nothing needs installing.
 */

export { ESPEAK_VOICE };

/**
 * The espeak-ng voice for each supported language code, used when a voice names none.
 * espeak-ng calls Mandarin `cmn` and Norwegian Bokmål `nb`.
 */
export const DEFAULT_ESPEAK_VOICES: Readonly<Record<string, string>> = {
  pt: 'pt-br',
  en: 'en-us',
  es: 'es',
  fr: 'fr',
  de: 'de',
  it: 'it',
  ja: 'ja',
  ko: 'ko',
  zh: 'cmn',
  ru: 'ru',
  ar: 'ar',
  hi: 'hi',
  tr: 'tr',
  nl: 'nl',
  sv: 'sv',
  no: 'nb',
  da: 'da',
  fi: 'fi',
  pl: 'pl',
  cs: 'cs',
};

/** espeak-ng's own spellings of voices people type otherwise (`zh` is `cmn`, `no` is `nb`). */
const VOICE_ALIASES: Readonly<Record<string, string>> = { zh: 'cmn', no: 'nb' };

/** The espeak-ng voice to speak with: the voice's own one, else its language's default, else English. */
export function espeakVoiceFor(voice: { providerVoiceId: string; language: string | null }): string {
  const own = voice.providerVoiceId.trim();
  if (own) {
    const [language, variant] = own.split('+');
    const alias = VOICE_ALIASES[language!.toLowerCase()];
    return alias ? `${alias}${variant ? `+${variant}` : ''}` : own;
  }
  return (voice.language && DEFAULT_ESPEAK_VOICES[voice.language]) || 'en-us';
}

export type SpeechErrorCode = 'invalidVoice' | 'invalidText' | 'timeout' | 'cancelled' | 'failed';

export class SpeechError extends Error {
  constructor(
    readonly code: SpeechErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SpeechError';
  }
}

export interface EspeakOptions {
  /** What to say (UTF-8). */
  text: string;
  /** An espeak-ng voice matching ESPEAK_VOICE, e.g. `pt-br+f3`. */
  voice: string;
  /** The WAV file to write (22 050 Hz mono 16-bit); only ever appears complete. */
  outFile: string;
  /** Words per minute (80-450); espeak-ng's default (175) when absent. */
  wordsPerMinute?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface EspeakResult {
  durationSeconds: number;
  /** Where each word of `text` starts in the audio (see localVoice.alignWords). */
  words: TimedWord[];
}

export const DEFAULT_SPEAK_TIMEOUT_MS = 5 * 60_000;

/**
 * Speaks `text` with espeak-ng into `outFile`. Throws SpeechError: `invalidVoice`, `invalidText`,
 * `timeout`, `failed` (and `cancelled` when `signal` aborts).
 */
export async function espeakSpeak(options: EspeakOptions): Promise<EspeakResult> {
  const { voice, text } = options;
  if (!ESPEAK_VOICE.test(voice)) throw new SpeechError('invalidVoice', `Invalid espeak-ng voice "${voice}"`);
  if (!text.trim()) throw new SpeechError('invalidText', 'Nothing to say: the text is empty');
  if (text.includes('\0')) throw new SpeechError('invalidText', 'The text contains a NUL character');
  try {
    const spoken = await synthesizeLocal({
      text,
      voice,
      timeoutMs: options.timeoutMs ?? DEFAULT_SPEAK_TIMEOUT_MS,
      ...(options.wordsPerMinute !== undefined ? { wordsPerMinute: options.wordsPerMinute } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const pcm = Buffer.from(spoken.samples.buffer, spoken.samples.byteOffset, spoken.samples.byteLength);
    await writeFileAtomic(path.resolve(options.outFile), pcmToWav(pcm, { sampleRate: spoken.sampleRate }));
    return { durationSeconds: spoken.durationSeconds, words: spoken.words };
  } catch (error) {
    if (error instanceof LocalVoiceError) {
      const code: SpeechErrorCode =
        error.code === 'invalidVoice' || error.code === 'invalidText' || error.code === 'timeout' || error.code === 'cancelled'
          ? error.code
          : 'failed';
      throw new SpeechError(code, error.message);
    }
    throw error;
  }
}
