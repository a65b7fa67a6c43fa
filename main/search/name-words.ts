import { prefixAllowed } from '../rules/search-terms.js';

/**
 * The index terms of a product's name as one string (` word word `), kept
 * with the product's hit, to tell whether the product has a name word
 * starting with a few letters without looking those letters up over the
 * whole catalog.
 */
export function joinNameWords(terms: readonly string[]): string {
  return ` ${terms.join(' ')} `;
}

/** Test of whether joined name words match `term` as the name index does: a word start from two letters, else a whole word. */
export function nameWordMatcher(term: string): (nameWords: string) => boolean {
  const needle = prefixAllowed(term) ? ` ${term}` : ` ${term} `;
  return (nameWords) => nameWords.includes(needle);
}
