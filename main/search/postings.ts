/**
 * The documents one word occurs in, within one field, with how often: two
 * plain arrays that a build appends to. A catalog has words in nearly every
 * product (`zutaten`, `aus`), and appending to an array costs a fraction of
 * inserting into a map per document.
 *
 * Removed documents stay until the next pass over the list drops them
 * (`dropRemoved`), so a removal costs nothing up front.
 */
export class Postings {
  readonly docs: number[] = [];
  readonly counts: number[] = [];
  /** The index's removal count when this list last dropped its removed documents. */
  checkedAt: number;

  constructor(removals: number) {
    this.checkedAt = removals;
  }

  /**
   * Records one occurrence in `doc`; the occurrences of one document are
   * added one after the other. True for the document's first occurrence.
   */
  add(doc: number): boolean {
    const last = this.docs.length - 1;
    if (last >= 0 && this.docs[last] === doc) {
      this.counts[last] = (this.counts[last] as number) + 1;
      return false;
    }
    this.docs.push(doc);
    this.counts.push(1);
    return true;
  }

  get size(): number {
    return this.docs.length;
  }

  /** Drops the documents no longer live, keeping the order of the rest. */
  dropRemoved(isLive: (doc: number) => boolean): void {
    const { docs, counts } = this;
    let kept = 0;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i] as number;
      if (!isLive(doc)) continue;
      docs[kept] = doc;
      counts[kept] = counts[i] as number;
      kept += 1;
    }
    docs.length = kept;
    counts.length = kept;
  }
}
