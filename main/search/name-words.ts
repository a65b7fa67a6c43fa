import { prefixAllowed } from '../rules/search-terms.js';

/**
 * The index terms of each product's name, as one string per product
 * (` word word `), to tell whether a given product has a name word starting
 * with a few letters without looking those letters up over the whole catalog.
 */
export class NameWords {
  private readonly byId = new Map<string, string>();

  set(id: string, terms: readonly string[]): void {
    this.byId.set(id, ` ${terms.join(' ')} `);
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  /** Whether the name matches `term` as the name index does: a word start from two letters, else a whole word. */
  matches(id: string, term: string): boolean {
    const words = this.byId.get(id);
    if (words === undefined) return false;
    return words.includes(prefixAllowed(term) ? ` ${term}` : ` ${term} `);
  }
}
