import SearchableMap from 'minisearch/SearchableMap';
import { Postings } from './postings.js';

/** The texts of a product the index holds, in the order of their field numbers. */
export const TEXT_FIELDS = ['name', 'description', 'declarations'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
const NAME = 0;

/** BM25+ parameters, the ones MiniSearch uses by default. */
const K = 1.2;
const B = 0.7;
const D = 0.5;

/**
 * Removed documents leave their entries in the word lists until one of
 * these many removals (or as many as there are live documents) has
 * accumulated; then every list is cleaned at once and their numbers reused.
 */
const MIN_REMOVALS_BEFORE_CLEANUP = 10_000;

export interface TextIndexOptions {
  /** The words of one field's text, before they become index terms. */
  tokenize: (text: string) => string[];
  /** The index terms of one word of a field. */
  termsOf: (word: string, field: TextField) => string | string[];
}

/**
 * A full-text index of documents with a name, a description and
 * declarations: per field a map from each term to its postings, scored with
 * BM25+. Names are also kept in MiniSearch's radix tree, which finds the
 * words starting with a few letters or within a few typos of a word; the
 * other fields are matched as whole words only, which a hash map serves best.
 *
 * Documents are numbered from 0 up; a removed document's number is given
 * again once the word lists hold no entry of it any more.
 */
export class TextIndex<Doc> {
  private readonly docs: (Doc | undefined)[] = [];
  /** Per field and document: its number of distinct words (0 without the field). */
  private readonly lengths: number[][] = TEXT_FIELDS.map(() => []);
  private readonly totalLengths: number[] = TEXT_FIELDS.map(() => 0);
  private readonly terms: Map<string, Postings>[] = TEXT_FIELDS.map(() => new Map());
  private readonly nameTerms = new SearchableMap<Postings>();
  private live = 0;
  private removals = 0;
  /** Numbers of removed documents that may still have entries in the word lists. */
  private removedSinceCleanup: number[] = [];
  /** Numbers free to give again. */
  private readonly free: number[] = [];

  constructor(private readonly options: TextIndexOptions) {}

  readonly isLive = (doc: number): boolean => this.docs[doc] !== undefined;

  /** Highest document number plus one: the size of an array indexed by document. */
  get capacity(): number {
    return this.docs.length;
  }

  docOf(doc: number): Doc | undefined {
    return this.docs[doc];
  }

  /** Adds a document with its texts (by `TEXT_FIELDS` order) and returns its number. */
  add(document: Doc, texts: readonly (string | undefined)[]): number {
    if (this.removedSinceCleanup.length >= Math.max(MIN_REMOVALS_BEFORE_CLEANUP, this.live)) this.cleanUp();
    const doc = this.free.pop() ?? this.docs.length;
    this.docs[doc] = document;
    this.live += 1;
    TEXT_FIELDS.forEach((field, f) => {
      const text = texts[f];
      const length = text === undefined ? 0 : this.addText(doc, f, field, text);
      (this.lengths[f] as number[])[doc] = length;
      this.totalLengths[f] = (this.totalLengths[f] as number) + length;
    });
    return doc;
  }

  remove(doc: number): void {
    if (!this.isLive(doc)) return;
    this.docs[doc] = undefined;
    this.live -= 1;
    this.removals += 1;
    this.removedSinceCleanup.push(doc);
    this.lengths.forEach((lengths, f) => {
      this.totalLengths[f] = (this.totalLengths[f] as number) - (lengths[doc] ?? 0);
      lengths[doc] = 0;
    });
  }

  /** The postings of a whole term in a field. */
  postingsOf(field: TextField, term: string): Postings | undefined {
    return this.terms[TEXT_FIELDS.indexOf(field)]?.get(term);
  }

  /** Name terms starting with `prefix`, the prefix itself included when it is a term. */
  nameTermsStarting(prefix: string): Iterable<[string, Postings]> {
    return this.nameTerms.atPrefix(prefix);
  }

  /** Name terms within `maxDistance` edits of `term`, with their distance. */
  nameTermsNear(term: string, maxDistance: number): Map<string, [Postings, number]> {
    return this.nameTerms.fuzzyGet(term, maxDistance);
  }

  /**
   * Calls `visit` with every live document of `postings` (a term's postings in
   * `field`) and its BM25+ score for the term, times `weight`.
   */
  score(postings: Postings, field: TextField, weight: number, visit: (doc: number, score: number) => void): void {
    this.dropRemoved(postings);
    const matching = postings.size;
    if (matching === 0) return;
    const f = TEXT_FIELDS.indexOf(field);
    const lengths = this.lengths[f] as number[];
    const averageLength = (this.totalLengths[f] as number) / this.live;
    const inverseFrequency = Math.log(1 + (this.live - matching + 0.5) / (matching + 0.5));
    const { docs, counts } = postings;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i] as number;
      const count = counts[i] as number;
      const length = lengths[doc] as number;
      const saturated = (count * (K + 1)) / (count + K * (1 - B + (B * length) / averageLength));
      visit(doc, weight * inverseFrequency * (D + saturated));
    }
  }

  /** Adds the words of one field of `doc`; returns the field's length, its number of distinct words. */
  private addText(doc: number, f: number, field: TextField, text: string): number {
    let length = 0;
    for (const word of this.options.tokenize(text)) {
      const terms = this.options.termsOf(word, field);
      // A word counts once, by its first term.
      if (typeof terms === 'string') {
        if (this.postingsFor(f, terms).add(doc)) length += 1;
        continue;
      }
      terms.forEach((term, i) => {
        if (this.postingsFor(f, term).add(doc) && i === 0) length += 1;
      });
    }
    return length;
  }

  private postingsFor(f: number, term: string): Postings {
    const terms = this.terms[f] as Map<string, Postings>;
    let postings = terms.get(term);
    if (postings === undefined) {
      postings = new Postings(this.removals);
      terms.set(term, postings);
      if (f === NAME) this.nameTerms.set(term, postings);
    }
    return postings;
  }

  /** Drops every removed document from the word lists, and words left without documents, so their numbers can be given again. */
  private cleanUp(): void {
    this.terms.forEach((terms, f) => {
      for (const [term, postings] of terms) {
        this.dropRemoved(postings);
        if (postings.size > 0) continue;
        terms.delete(term);
        if (f === NAME) this.nameTerms.delete(term);
      }
    });
    for (const doc of this.removedSinceCleanup) this.free.push(doc);
    this.removedSinceCleanup = [];
  }

  private dropRemoved(postings: Postings): void {
    if (postings.checkedAt === this.removals) return;
    postings.dropRemoved(this.isLive);
    postings.checkedAt = this.removals;
  }
}
