import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where executions keep their files: one folder per execution, named by its id. The engine works
 * on local paths (ffmpeg, espeak-ng and the speech clients write files), so a store hands out a
 * local working folder; a shared object store would sync that folder up after each step and down
 * before a resumed run on another worker, behind this same interface.
 */
export interface MediaStorage {
  /** A local folder for the execution's files, created when missing. */
  workDir(executionId: string): Promise<string>;
  /** Size of a stored file, or undefined when it does not exist. */
  size(executionId: string, file: string): Promise<number | undefined>;
  /** Reads a stored file, or the inclusive byte range [start, end] of it. */
  read(executionId: string, file: string, range?: { start: number; end: number }): Readable;
  /** Removes everything the execution stored (nothing when it stored nothing). */
  remove(executionId: string): Promise<void>;
  /** Removes the files (and folders) of the execution that `keep` does not name; answers what went. */
  prune(executionId: string, keep: (name: string) => boolean): Promise<{ files: number; bytes: number }>;
}

/** Execution ids are uuids; file names are plain names: nothing can climb out of the media folder. */
const SAFE_ID = /^[0-9a-f-]{36}$/i;
const SAFE_FILE = /^[a-z0-9][a-z0-9._-]*$/i;

export function isSafeMediaName(executionId: string, file?: string): boolean {
  return SAFE_ID.test(executionId) && (file === undefined || (SAFE_FILE.test(file) && !file.includes('..')));
}

/** Files in MEDIA_DIR/<execution id>/ on the local disk. */
export function localMediaStorage(root: string): MediaStorage {
  const folder = (executionId: string): string => {
    if (!isSafeMediaName(executionId)) throw new Error(`unsafe execution id: ${executionId}`);
    return path.join(root, executionId);
  };
  const file = (executionId: string, name: string): string => {
    if (!isSafeMediaName(executionId, name)) throw new Error(`unsafe media file name: ${name}`);
    return path.join(folder(executionId), name);
  };
  return {
    async workDir(executionId) {
      const dir = folder(executionId);
      await fsp.mkdir(dir, { recursive: true });
      return dir;
    },
    async size(executionId, name) {
      const stat = await fsp.stat(file(executionId, name)).catch(() => undefined);
      return stat?.isFile() ? stat.size : undefined;
    },
    read(executionId, name, range) {
      return fs.createReadStream(file(executionId, name), range ? { start: range.start, end: range.end } : {});
    },
    async remove(executionId) {
      await fsp.rm(folder(executionId), { recursive: true, force: true });
    },
    async prune(executionId, keep) {
      const dir = folder(executionId);
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
      let files = 0;
      let bytes = 0;
      for (const entry of entries) {
        if (keep(entry.name)) continue;
        const full = path.join(dir, entry.name);
        if (entry.isFile()) bytes += (await fsp.stat(full).catch(() => undefined))?.size ?? 0;
        await fsp.rm(full, { recursive: true, force: true });
        files += 1;
      }
      return { files, bytes };
    },
  };
}
