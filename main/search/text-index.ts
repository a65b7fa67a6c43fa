import MiniSearch from 'minisearch';

/**
 * MiniSearch with a count of a word's index entries, to tell which word of a
 * search matches fewest products before any of them is scored.
 */
export class TextIndex<T> extends MiniSearch<T> {
  /**
   * Index entries of `term` (with `prefix`, of every word it starts) over all
   * fields: at least the number of products it matches as a word or word
   * start, read from the entries' sizes without visiting them.
   */
  entriesOf(term: string, prefix: boolean): number {
    let count = 0;
    const words = prefix ? this._index.atPrefix(term).values() : [this._index.get(term)];
    for (const fields of words) for (const products of fields?.values() ?? []) count += products.size;
    return count;
  }
}
