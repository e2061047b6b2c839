import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * What a backup archive holds. One gzip-compressed tar file:
 *
 *   manifest.json     always first: format and version, creation time, product version, contents
 *   app-secret        DATA_DIR/app-secret (or APP_SECRET, only with --include-env-secret)
 *   pgdata.tar.gz     the embedded database, dumped through PGlite (dumpDataDir): consistent
 *   media/...         every file and folder of MEDIA_DIR
 */

export const BACKUP_FORMAT = 'story-video-console-backup';
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  format_version: number;
  created_at: string;
  product: { name: string; version: string };
  database: { kind: 'pglite'; entry: 'pgdata.tar.gz'; bytes: number; sha256: string } | { kind: 'postgres'; included: false };
  media: { entry: 'media/'; files: number; folders: number; bytes: number };
  secret: {
    /** Where the server took it from: DATA_DIR/app-secret, APP_SECRET, or nowhere (never started). */
    source: 'file' | 'environment' | 'none';
    included: boolean;
    /** HMAC of a fixed text under the secret: tells a restore whether an APP_SECRET is the same one. */
    fingerprint?: string;
  };
}

export const MANIFEST = 'manifest.json';
export const SECRET = 'app-secret';
export const DUMP = 'pgdata.tar.gz';
export const MEDIA = 'media';
export const MAX_MANIFEST_BYTES = 1 << 20;
export const MAX_SECRET_BYTES = 4096;
/**
 * The largest database dump a backup writes and a restore takes: PGlite dumps it, and loads it
 * again, whole in memory (and unpacks it there), so a larger one could not be restored anyway. A
 * restore refuses a manifest that claims more before reading anything, streams the dump to a file
 * (never into memory) and stops at the size its manifest gives.
 */
export const MAX_DUMP_BYTES = 2 * 1024 * 1024 * 1024;

export function secretFingerprint(secret: string): string {
  return crypto.createHmac('sha256', secret).update('story-video-console backup fingerprint v1').digest('hex').slice(0, 16);
}

export function productVersion(): { name: string; version: string } {
  try {
    // server/src/backup and server/dist/backup are both three folders below the package root.
    const file = path.resolve(__dirname, '..', '..', '..', 'package.json');
    const { name, version } = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
    return { name: name ?? 'story-video-console', version: version ?? 'unknown' };
  } catch {
    return { name: 'story-video-console', version: 'unknown' };
  }
}
