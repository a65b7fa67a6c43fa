import MiniSearch from 'minisearch';

/**
 * MiniSearch with a count of a word's index entries, to tell which word of a
 * search matches fewest products before any of them is scored.
 */
export class TextIndex<T> extends MiniSearch<T> {
  /**
   * Index entries of `term` over all fields, plus with `prefixField` those of
   * the longer words it starts in that field: about the number of products a
   * search for it matches (a product counts once per field it matches in),
   * read from the sizes of the entries without visiting them.
   */
  entriesOf(term: string, prefixField: string | undefined): number {
    let count = 0;
    for (const products of this._index.get(term)?.values() ?? []) count += products.size;
    if (prefixField === undefined) return count;
    const fieldId = this._fieldIds[prefixField];
    for (const [word, fields] of this._index.atPrefix(term)) {
      if (word !== term && fieldId !== undefined) count += fields.get(fieldId)?.size ?? 0;
    }
    return count;
  }
}
