import { execFile, type ExecFileException } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Speech synthesis with espeak-ng (offline, free). Used for the samples of espeak voices and,
 * later, by the video engine for narration. espeak-ng is always started with an argument array
 * (execFile, no shell), so neither the voice nor the text can inject anything.
 */

/** An espeak-ng voice: a language (`pt`, `pt-br`, `en-us`, ...) and optionally a variant (`+f3`). */
export const ESPEAK_VOICE = /^[a-z]{2,3}(-[a-z0-9]+)*(\+[a-z0-9]+)?$/i;

export const ESPEAK_BINARY = 'espeak-ng';
export const DEFAULT_SPEAK_TIMEOUT_MS = 60_000;
export const ESPEAK_MISSING_MESSAGE = 'espeak-ng is not installed: apt-get install espeak-ng';

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

/** The espeak-ng voice to speak with: the voice's own one, else its language's default, else English. */
export function espeakVoiceFor(voice: { providerVoiceId: string; language: string | null }): string {
  const own = voice.providerVoiceId.trim();
  if (own) return own;
  return (voice.language && DEFAULT_ESPEAK_VOICES[voice.language]) || 'en-us';
}

export type SpeechErrorCode = 'missing' | 'invalidVoice' | 'invalidText' | 'timeout' | 'failed';

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
  /** The WAV file to write; removed again when synthesis fails. */
  outFile: string;
  /** Words per minute (espeak-ng's `-s`, 80-450); espeak-ng's default (175) when absent. */
  wordsPerMinute?: number;
  timeoutMs?: number;
  /** The program to run; `espeak-ng` from PATH unless told otherwise (tests). */
  binary?: string;
}

interface ExecResult {
  error: ExecFileException | null;
  stderr: string;
}

function run(binary: string, args: string[], timeoutMs: number): Promise<ExecResult> {
  return new Promise((resolve) => {
    execFile(
      binary,
      args,
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, windowsHide: true, encoding: 'utf8' },
      (error, _stdout, stderr) => resolve({ error, stderr: String(stderr ?? '') }),
    );
  });
}

/**
 * Speaks `text` with espeak-ng into `outFile` (WAV, 22 050 Hz mono):
 * `espeak-ng -b 1 -v <voice> [-s <wpm>] -w <outFile> -- <text>`.
 * Throws SpeechError: `missing` when espeak-ng is not installed, `invalidVoice`, `timeout`, `failed`.
 */
export async function espeakSpeak(options: EspeakOptions): Promise<void> {
  const { voice, text } = options;
  if (!ESPEAK_VOICE.test(voice)) throw new SpeechError('invalidVoice', `Invalid espeak-ng voice "${voice}"`);
  if (!text.trim()) throw new SpeechError('invalidText', 'Nothing to say: the text is empty');
  if (text.includes('\0')) throw new SpeechError('invalidText', 'The text contains a NUL character');
  const outFile = path.resolve(options.outFile);
  const timeoutMs = options.timeoutMs ?? DEFAULT_SPEAK_TIMEOUT_MS;

  const args = ['-b', '1', '-v', voice];
  if (options.wordsPerMinute !== undefined) {
    const wpm = Math.round(options.wordsPerMinute);
    if (!Number.isFinite(wpm) || wpm < 80 || wpm > 450) {
      throw new SpeechError('failed', `Words per minute must be between 80 and 450 (got ${options.wordsPerMinute})`);
    }
    args.push('-s', String(wpm));
  }
  // `--` ends the options, so a text starting with '-' is spoken, not parsed.
  args.push('-w', outFile, '--', text);

  const { error, stderr } = await run(options.binary ?? ESPEAK_BINARY, args, timeoutMs);
  if (!error) {
    const written = await fs.stat(outFile).catch(() => null);
    if (written && written.size > 44) return;
    await fs.rm(outFile, { force: true });
    throw new SpeechError('failed', `espeak-ng wrote no audio${stderr.trim() ? `: ${stderr.trim()}` : ''}`);
  }
  await fs.rm(outFile, { force: true });
  if (error.code === 'ENOENT') throw new SpeechError('missing', ESPEAK_MISSING_MESSAGE);
  if (error.killed || error.signal === 'SIGKILL') {
    throw new SpeechError('timeout', `espeak-ng took longer than ${Math.round(timeoutMs / 1000)} s`);
  }
  const reason = stderr.trim() || error.message;
  if (/voice does not exist/i.test(reason)) throw new SpeechError('invalidVoice', `Unknown espeak-ng voice "${voice}"`);
  throw new SpeechError('failed', `espeak-ng failed: ${reason}`);
}

/** True when espeak-ng can be started (`espeak-ng --version` succeeds). */
export async function espeakAvailable(binary: string = ESPEAK_BINARY): Promise<boolean> {
  const { error } = await run(binary, ['--version'], 10_000);
  return error === null;
}
