/**
 * Rows kept in memory while a change feed says they have not changed. Until `follow` is called
 * (and after it stops) every read goes to `load`. A load that was under way when any change came
 * in is answered but not kept, so a row read before a write never outlives that write.
 * Rows are frozen: whoever reads one shares it.
 */
export class WatchedRows<Row extends object> {
  private readonly rows = new Map<string, Readonly<Row>>();
  /** Moves on every change; a load keeps its row only if it did not move meanwhile. */
  private generation = 0;
  private following = false;

  constructor(
    private readonly load: (id: string) => Promise<Row | undefined>,
    private readonly maxRows = 10_000,
  ) {}

  async get(id: string): Promise<Row | undefined> {
    const hit = this.rows.get(id);
    if (hit) return hit as Row;
    const started = this.generation;
    const row = await this.load(id);
    if (row && this.following && this.generation === started) {
      if (this.rows.size >= this.maxRows) this.rows.clear();
      this.rows.set(id, Object.freeze(row));
    }
    return row;
  }

  /** Starts keeping rows; `watch` calls back with the id of every row that changes. */
  async follow(watch: (onChange: (id: string) => void) => Promise<() => Promise<void>>): Promise<() => Promise<void>> {
    const stop = await watch((id) => {
      this.generation += 1;
      this.rows.delete(id);
    });
    this.following = true;
    return async () => {
      this.following = false;
      this.generation += 1;
      this.rows.clear();
      await stop();
    };
  }

  /** Drops a row this process changed itself (where no change feed tells of it). */
  forget(id: string): void {
    this.generation += 1;
    this.rows.delete(id);
  }

  get size(): number {
    return this.rows.size;
  }
}
