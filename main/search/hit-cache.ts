/**
 * Recent ranked hit lists of one index, by search text. Paging through a
 * search with `offset` and a kiosk's type-ahead repeat the same text; serving
 * them from here costs a slice instead of a full ranking. The owner clears it
 * on every change of the index, so an entry is never stale.
 */
export class HitCache<Hits extends { readonly length: number }> {
  private readonly entries = new Map<string, Hits>();
  private heldHits = 0;

  /**
   * @param maxEntries most search texts kept
   * @param maxHits most hits kept over all entries, which bounds the memory
   */
  constructor(
    private readonly maxEntries: number,
    private readonly maxHits: number,
  ) {}

  get(text: string): Hits | undefined {
    const hits = this.entries.get(text);
    if (hits !== undefined) {
      // Map order is the eviction order: move a used entry to the back.
      this.entries.delete(text);
      this.entries.set(text, hits);
    }
    return hits;
  }

  set(text: string, hits: Hits): void {
    if (hits.length > this.maxHits) return;
    const previous = this.entries.get(text);
    if (previous !== undefined) {
      this.entries.delete(text);
      this.heldHits -= previous.length;
    }
    this.entries.set(text, hits);
    this.heldHits += hits.length;
    for (const [oldest, oldHits] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.heldHits <= this.maxHits) break;
      this.entries.delete(oldest);
      this.heldHits -= oldHits.length;
    }
  }

  clear(): void {
    this.entries.clear();
    this.heldHits = 0;
  }
}
