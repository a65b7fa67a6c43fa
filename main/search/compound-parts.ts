import { COMPOUND_HEAD, compoundPartAllowed, compoundTailsOf, MIN_COMPOUND_PART } from '../rules/search-terms.js';

/**
 * The words of product names by their inner parts, so that `milch` finds
 * *Vollmilch* and `schoggi` *Milchschoggi*. Kept per distinct word, not per
 * product: a catalog repeats its words, so this stays small, and a search
 * turns a part into the few whole words that contain it, which the text index
 * then looks up as usual.
 *
 * Words are not taken out when their last product goes: a word without
 * products finds nothing in the text index, and the vocabulary of a catalog
 * grows slowly.
 */
export class CompoundParts {
  /**
   * The first letters of each tail -> the words with such a tail. Hashing a
   * few letters per tail keeps adding a word cheap (the index build adds tens
   * of thousands); a search checks the few words found there.
   */
  private readonly wordsByTailStart = new Map<string, string[]>();
  private readonly known = new Set<string>();

  /** Records a folded word of a product name. */
  add(word: string): void {
    if (this.known.has(word)) return;
    this.known.add(word);
    const starts = new Set(compoundTailsOf(word).map((tail) => tail.slice(0, MIN_COMPOUND_PART)));
    for (const start of starts) {
      const words = this.wordsByTailStart.get(start);
      if (words === undefined) this.wordsByTailStart.set(start, [word]);
      else words.push(word);
    }
  }

  /**
   * Words in which `term` starts an inner part, leaving out those it starts
   * (the index finds those as word starts already).
   */
  wordsContaining(term: string): string[] {
    if (!compoundPartAllowed(term)) return [];
    const words = this.wordsByTailStart.get(term.slice(0, MIN_COMPOUND_PART)) ?? [];
    return words.filter((word) => !word.startsWith(term) && word.indexOf(term, COMPOUND_HEAD) !== -1);
  }
}
