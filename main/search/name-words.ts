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

  /** Test of whether a product's name matches `term` as the name index does: a word start from two letters, else a whole word. */
  matcher(term: string): (id: string) => boolean {
    const needle = prefixAllowed(term) ? ` ${term}` : ` ${term} `;
    return (id) => this.byId.get(id)?.includes(needle) ?? false;
  }
}
