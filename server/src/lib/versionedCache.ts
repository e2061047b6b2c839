/**
 * A map of values bounded in bytes, each kept with the version of the data it was made from. A
 * value is reused only for the same key and version; any other version makes it again. Versions
 * come from the database (users.data_version), so every process of a deployment agrees on them.
 *
 * A value made for version v is made after v was read, so it holds data at least as new as v:
 * whoever asks with version v never gets older data than v promises.
 *
 * The least recently used values go first once the values (as `sizeOf` counts them, keys
 * included) pass `maxBytes`; a value larger than the whole budget is answered and not kept.
 */
export interface VersionedCacheOptions<V> {
  maxBytes: number;
  sizeOf: (value: V) => number;
}

/** A JSON text's size in memory: V8 keeps non-Latin-1 strings at two bytes a character. */
export const stringBytes = (value: string): number => value.length * 2;

export class VersionedCache<V> {
  private readonly entries = new Map<string, { version: string; value: V; bytes: number }>();
  private used = 0;

  constructor(private readonly options: VersionedCacheOptions<V>) {}

  async get(key: string, version: string, make: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      // Most recently used last: the first entry is the one to drop.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = await make();
    this.drop(key);
    const bytes = this.options.sizeOf(value) + key.length * 2;
    if (bytes > this.options.maxBytes) return value;
    this.entries.set(key, { version, value, bytes });
    this.used += bytes;
    while (this.used > this.options.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    return value;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the kept values count, in bytes. */
  get bytes(): number {
    return this.used;
  }
}
