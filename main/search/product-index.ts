import { codeCandidatesOf, indexTermsOf, queryTermsOf, splitWords, typoToleranceOf } from '../rules/search-terms.js';
import { normalizeCode } from '../services/products.js';
import type { IndexedProduct } from '../storage/search-sources.js';
import { CompoundParts } from './compound-parts.js';
import { HitCache } from './hit-cache.js';
import { joinNameWords } from './name-words.js';
import { TextIndex } from './text-index.js';
import { rankText, type IndexedHit, type SearchHit, type TextSources } from './text-ranking.js';

export type { SearchHit };

interface IndexedDocument {
  /** The product's hit itself, so that a search result is a hit without a lookup; the product id is `id.id`. */
  id: IndexedHit;
  name: string;
  description: string | undefined;
  declarations: string | undefined;
}

/** Relative weight of each text field: a word in the name counts most. */
const FIELD_BOOST = { name: 3, description: 1, declarations: 0.5 } as const;
const PLAIN_ASCII = /^[\x00-\x7f]*$/;
/**
 * Typos are tolerated when the words as typed find fewer products than this:
 * a word typed right needs no look-alikes, and looking them up is most of the
 * cost of a search.
 */
const FEW_MATCHES = 5;
/** Search texts whose ranking is kept, and how many hits all of them may hold together. */
const CACHED_SEARCHES = 64;
const CACHED_HITS = 200_000;

function codesOf(product: IndexedProduct): string[] {
  const codes = [product.barcode, product.externalId];
  for (const alias of product.barcodeAliases ?? []) codes.push(alias.code, alias.externalId);
  const normalized = codes.filter((code): code is string => code !== undefined).map(normalizeCode);
  return [...new Set(normalized.filter((code) => code.length > 0))];
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * Whether two versions of a product differ in anything the index holds, so a
 * price change costs no re-indexing.
 */
export function changesIndexedFields(before: IndexedProduct, after: IndexedProduct): boolean {
  return (
    before.name !== after.name ||
    before.description !== after.description ||
    before.declarations !== after.declarations ||
    before.category !== after.category ||
    !sameList(codesOf(before), codesOf(after))
  );
}

/**
 * The search index of one organization's active products: MiniSearch over the
 * texts, a map for exact codes. Holds ids, categories and codes only; the
 * products served are read from SQLite.
 */
export class ProductIndex {
  private readonly text = new TextIndex<IndexedDocument>({
    fields: ['name', 'description', 'declarations'],
    tokenize: (text) => splitWords(text.toLowerCase()),
    processTerm: (word, field) => this.termsOf(word, field),
    searchOptions: { boost: FIELD_BOOST },
  });
  /** Index terms of words with accents; a catalog repeats few of them many times. */
  private readonly accentedTerms = new Map<string, string | string[]>();
  /** Code -> product id, or ids when several products share a code. */
  private readonly codes = new Map<string, string | string[]>();
  /** Product id -> its codes, to take them out again. */
  private readonly codesOfProduct = new Map<string, string[]>();
  /** Product id -> its hit, made once per write instead of once per search that finds it, and its document id in the text index. */
  private readonly hits = new Map<string, IndexedHit>();
  /** One string per category id, instead of one copy per product. */
  private readonly categories = new Map<string, string>();
  private readonly recent = new HitCache<SearchHit>(CACHED_SEARCHES, CACHED_HITS);
  private readonly sources: TextSources = { text: this.text, parts: new CompoundParts() };
  /** Index terms of the name being added, collected as MiniSearch hands its words over. */
  private nameTerms: string[] = [];

  has(id: string): boolean {
    return this.hits.has(id);
  }

  /** Adds or replaces a product. */
  put(product: IndexedProduct): void {
    this.remove(product.id);
    this.recent.clear();
    const category = product.category === undefined ? undefined : this.internCategory(product.category);
    const codes = codesOf(product);
    this.nameTerms = [];
    const hit: IndexedHit = { id: product.id, category, nameWords: '', step: 0 };
    this.text.add({ id: hit, name: product.name, description: product.description, declarations: product.declarations });
    hit.nameWords = joinNameWords(this.nameTerms);
    this.hits.set(product.id, hit);
    this.codesOfProduct.set(product.id, codes);
    for (const code of codes) this.addCode(code, product.id);
  }

  remove(id: string): void {
    const hit = this.hits.get(id);
    if (hit === undefined) return;
    this.recent.clear();
    for (const code of this.codesOfProduct.get(id) ?? []) this.removeCode(code, id);
    this.codesOfProduct.delete(id);
    this.hits.delete(id);
    this.text.discard(hit);
  }

  /**
   * Every match, best first: products whose code equals the text, then text
   * matches by relevance. The list is shared with later calls: do not change it.
   */
  search(text: string): readonly SearchHit[] {
    const key = text.toLowerCase();
    let hits = this.recent.get(key);
    if (hits === undefined) {
      hits = this.rank(key);
      this.recent.set(key, hits);
    }
    return hits;
  }

  private rank(text: string): SearchHit[] {
    const hits: SearchHit[] = [];
    const seen = new Set<string>();
    for (const code of codeCandidatesOf(normalizeCode(text))) {
      const owners = this.codes.get(code);
      for (const id of owners === undefined ? [] : typeof owners === 'string' ? [owners] : owners) {
        const hit = this.hits.get(id);
        if (hit === undefined || seen.has(id)) continue;
        seen.add(id);
        hits.push(hit);
      }
    }
    const terms = [...new Set(queryTermsOf(text))];
    if (terms.length === 0) return hits;
    let matches = rankText(this.sources, terms, false);
    if (matches.length < FEW_MATCHES && terms.some((term) => typoToleranceOf(term) > 0)) {
      matches = rankText(this.sources, terms, true);
    }
    if (hits.length === 0) return matches;
    for (const hit of matches) if (!seen.has(hit.id)) hits.push(hit);
    return hits;
  }

  private termsOf(word: string, field: string | undefined): string | string[] {
    let terms: string | string[] | undefined = word;
    if (!PLAIN_ASCII.test(word)) {
      terms = this.accentedTerms.get(word);
      if (terms === undefined) {
        const all = indexTermsOf(word);
        terms = all.length === 1 ? (all[0] as string) : all;
        this.accentedTerms.set(word, terms);
      }
    }
    if (field === 'name') {
      if (typeof terms === 'string') this.addNameTerm(terms);
      else for (const term of terms) this.addNameTerm(term);
    }
    return terms;
  }

  private addNameTerm(term: string): void {
    this.sources.parts.add(term);
    this.nameTerms.push(term);
  }

  private internCategory(category: string): string {
    const known = this.categories.get(category);
    if (known !== undefined) return known;
    this.categories.set(category, category);
    return category;
  }

  private addCode(code: string, id: string): void {
    const owners = this.codes.get(code);
    if (owners === undefined) this.codes.set(code, id);
    else if (typeof owners === 'string') this.codes.set(code, [owners, id]);
    else owners.push(id);
  }

  private removeCode(code: string, id: string): void {
    const owners = this.codes.get(code);
    if (owners === id) this.codes.delete(code);
    else if (Array.isArray(owners)) {
      const rest = owners.filter((owner) => owner !== id);
      this.codes.set(code, rest.length === 1 ? (rest[0] as string) : rest);
    }
  }
}
