import { codeCandidatesOf, indexTermsOf, queryTermsOf, splitWords, typoToleranceOf } from '../rules/search-terms.js';
import { normalizeCode } from '../services/products.js';
import type { IndexedProduct } from '../storage/search-sources.js';
import { CompoundParts } from './compound-parts.js';
import { HitCache } from './hit-cache.js';
import { RankedHits, type Ranked } from './ranked-hits.js';
import { TextIndex, type TextField } from './text-index.js';
import { rankText, Scoreboard, type IndexedHit, type SearchHit, type TextSources } from './text-ranking.js';

export type { SearchHit };

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

/** A product's hit, with its codes to take them out again. */
interface ProductHit extends IndexedHit {
  codes: string[];
}

const NO_MATCHES: Ranked<IndexedHit> = { items: [], groups: new Uint8Array(0), scores: new Float64Array(0), keys: new Float64Array(0) };

/** Ranked text matches less the products already found by a code. */
function withoutHits(ranked: Ranked<IndexedHit>, found: readonly IndexedHit[]): Ranked<IndexedHit> {
  const kept = ranked.items.map((hit, i) => (found.includes(hit) ? -1 : i)).filter((i) => i >= 0);
  return {
    items: kept.map((i) => ranked.items[i] as IndexedHit),
    groups: Uint8Array.from(kept, (i) => ranked.groups[i] as number),
    scores: Float64Array.from(kept, (i) => ranked.scores[i] as number),
    keys: Float64Array.from(kept, (i) => ranked.keys[i] as number),
  };
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
 * The search index of one organization's active products: a text index over
 * name, description and declarations, a map for exact codes. Holds ids,
 * categories and codes only; the products served are read from SQLite.
 */
export class ProductIndex {
  private readonly text = new TextIndex<IndexedHit>({
    tokenize: (text) => splitWords(text.toLowerCase()),
    termsOf: (word, field) => this.termsOf(word, field),
  });
  /** Index terms of words with accents; a catalog repeats few of them many times. */
  private readonly accentedTerms = new Map<string, string | string[]>();
  /** Code -> product id, or ids when several products share a code. */
  private readonly codes = new Map<string, string | string[]>();
  /** Product id -> its hit, made once per write instead of once per search that finds it. */
  private readonly hits = new Map<string, ProductHit>();
  /** One string per category id, instead of one copy per product. */
  private readonly categories = new Map<string, string>();
  private readonly recent = new HitCache<RankedHits<SearchHit>>(CACHED_SEARCHES, CACHED_HITS);
  private readonly sources: TextSources = { text: this.text, parts: new CompoundParts(), board: new Scoreboard() };

  has(id: string): boolean {
    return this.hits.has(id);
  }

  /** Adds or replaces a product. */
  put(product: IndexedProduct): void {
    this.remove(product.id);
    this.recent.clear();
    const category = product.category === undefined ? undefined : this.internCategory(product.category);
    const codes = codesOf(product);
    const hit: ProductHit = { id: product.id, category, doc: -1, codes };
    hit.doc = this.text.add(hit, [product.name, product.description, product.declarations]);
    this.hits.set(product.id, hit);
    for (const code of codes) this.addCode(code, product.id);
  }

  remove(id: string): void {
    const hit = this.hits.get(id);
    if (hit === undefined) return;
    this.recent.clear();
    for (const code of hit.codes) this.removeCode(code, id);
    this.hits.delete(id);
    this.text.remove(hit.doc);
  }

  /**
   * Every match, best first: products whose code equals the text, then text
   * matches by relevance. The list is shared with later calls: do not change it.
   */
  search(text: string): RankedHits<SearchHit> {
    const key = text.toLowerCase();
    let hits = this.recent.get(key);
    if (hits === undefined) {
      hits = this.rank(key);
      this.recent.set(key, hits);
    }
    return hits;
  }

  private rank(text: string): RankedHits<SearchHit> {
    const byCode: IndexedHit[] = [];
    for (const code of codeCandidatesOf(normalizeCode(text))) {
      const owners = this.codes.get(code);
      for (const id of owners === undefined ? [] : typeof owners === 'string' ? [owners] : owners) {
        const hit = this.hits.get(id);
        if (hit !== undefined && !byCode.includes(hit)) byCode.push(hit);
      }
    }
    const terms = [...new Set(queryTermsOf(text))];
    if (terms.length === 0) return new RankedHits(byCode, NO_MATCHES);
    let matches = rankText(this.sources, terms, false);
    if (matches.items.length < FEW_MATCHES && terms.some((term) => typoToleranceOf(term) > 0)) {
      matches = rankText(this.sources, terms, true);
    }
    return new RankedHits(byCode, byCode.length === 0 ? matches : withoutHits(matches, byCode));
  }

  private termsOf(word: string, field: TextField): string | string[] {
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
      if (typeof terms === 'string') this.sources.parts.add(terms);
      else for (const term of terms) this.sources.parts.add(term);
    }
    return terms;
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
