import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Writing a file so that readers never see half of it: everything is written into a temporary file
 * beside the target (same folder, so the same file system), which is then renamed over it. When
 * anything fails the temporary file is removed and the target is left as it was.
 */

export interface AtomicWriteOptions {
  /** Mode of a file written from bytes or a text (fs.writeFile's `mode`), e.g. 0o600 for a private one. */
  mode?: number;
  /**
   * How the temporary file's name ends; default `.tmp`. A tool that picks the format by the
   * extension (ffmpeg) needs the target's: `.partial.mp4`.
   */
  suffix?: string;
}

/** Writes the temporary file itself (ffmpeg, a stream pipeline, a speech engine); what it answers is answered. */
export type WriteTemporary<T> = (temporary: string) => Promise<T>;

/** A fresh name for a temporary file beside `file`: hidden, with the process and a random part. */
function temporaryBeside(file: string, suffix: string): string {
  return path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(6).toString('hex')}${suffix}`,
  );
}

/**
 * Replaces `file` whole or not at all. `source` is the content (bytes or a UTF-8 text), or a
 * function that writes the temporary file it is given (and may read it back, check it, refuse it
 * by throwing); its answer is answered once the rename is done. The folder must exist.
 */
export async function writeFileAtomic(file: string, source: string | Uint8Array, options?: AtomicWriteOptions): Promise<void>;
export async function writeFileAtomic<T>(file: string, source: WriteTemporary<T>, options?: AtomicWriteOptions): Promise<T>;
export async function writeFileAtomic<T>(
  file: string,
  source: string | Uint8Array | WriteTemporary<T>,
  options: AtomicWriteOptions = {},
): Promise<T | void> {
  const temporary = temporaryBeside(file, options.suffix ?? '.tmp');
  try {
    let result: T | undefined;
    if (typeof source === 'function') result = await source(temporary);
    else await fs.writeFile(temporary, source, options.mode === undefined ? {} : { mode: options.mode });
    await fs.rename(temporary, file);
    return result;
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
