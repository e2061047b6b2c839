/**
 * A bounded map of values, each kept with the version of the data it was made from. A value is
 * reused only for the same key and version; any other version makes it again. Versions come from
 * the database (users.data_version), so every process of a deployment agrees on them.
 *
 * A value made for version v is made after v was read, so it holds data at least as new as v:
 * whoever asks with version v never gets older data than v promises.
 */
export class VersionedCache<V> {
  private readonly entries = new Map<string, { version: string; value: V }>();

  constructor(private readonly maxEntries = 1000) {}

  async get(key: string, version: string, make: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      // Most recently used last: the first entry is the one to drop.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = await make();
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
