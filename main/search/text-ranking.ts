import type { Query, QueryCombination, SearchResult } from 'minisearch';
import { prefixAllowed, typoToleranceOf } from '../rules/search-terms.js';
import type { CompoundParts } from './compound-parts.js';
import { nameWordMatcher } from './name-words.js';
import type { TextIndex } from './text-index.js';

/** One ranked match: the product id, and the category that decides store visibility. */
export interface SearchHit {
  id: string;
  category: string | undefined;
}

/** A hit as the index keeps it, one per product: the text index's document id. */
export interface IndexedHit extends SearchHit {
  /** The name's index terms, joined (see `joinNameWords`), to check a narrowing word against. */
  nameWords: string;
  /** The last search step that found this product (see `intersectingQueries`). */
  step: number;
}

/** Terms come in folded already: MiniSearch must take them as they are. */
const AS_IS = { tokenize: (text: string) => [text], processTerm: (term: string) => term };

/** Weight of a name word found by a part inside it; such matches rank after the others anyway. */
const COMPOUND_BOOST = { name: 1 };
/** Longest word that only narrows the matches of longer words of the same search. */
const NARROWING_LENGTH = 3;

/**
 * Query for one word of a search: in the name as a word start (with `typos`
 * also as a look-alike), as a whole word in the description or declarations,
 * or inside a compound word of the name.
 */
function wordQuery(term: string, typos: boolean, parts: CompoundParts): QueryCombination {
  const queries: Query[] = [
    { ...AS_IS, queries: [term], fields: ['name'], prefix: prefixAllowed(term), fuzzy: typos ? typoToleranceOf(term) : false },
    { ...AS_IS, queries: [term], fields: ['description', 'declarations'], prefix: false, fuzzy: false },
  ];
  const compounds = parts.wordsContaining(term);
  if (compounds.length > 0) queries.push({ ...AS_IS, queries: compounds, fields: ['name'], prefix: false, fuzzy: false, boost: COMPOUND_BOOST });
  return { combineWith: 'OR', queries };
}

/** Numbers the steps of all searches, so that a hit's `step` tells whether the current step found it. */
let lastStep = 0;

/** Which products a query may score; MiniSearch skips a product whose document boost is 0. */
type Admits = (hit: IndexedHit) => boolean;

/**
 * The queries of all driving words, each scoring only the products that can
 * still match the whole search: the first word those the narrowing words
 * admit, each later word those every word before it matched. An AND would
 * drop the others after scoring them; skipping them keeps the same scores.
 * The word with the fewest index entries goes first: the fewer products it
 * scores, the fewer the later words score. A word marks the products it
 * found on their hits (`step`): reading a mark costs less than a lookup in a
 * set of thousands of hits.
 */
function intersectingQueries(sources: TextSources, driving: readonly string[], typos: boolean, admits: Admits | undefined): Query[] {
  let ordered = driving;
  if (driving.length > 1) {
    const entries = new Map(driving.map((term) => [term, sources.text.entriesOf(term, prefixAllowed(term) ? 'name' : undefined)]));
    ordered = [...driving].sort((a, b) => (entries.get(a) ?? 0) - (entries.get(b) ?? 0));
  }
  let admitted = admits;
  return ordered.map((term, i) => {
    const query = wordQuery(term, typos, sources.parts);
    const admitsHere = admitted;
    if (i === ordered.length - 1) return admitsHere === undefined ? query : { ...query, boostDocument: (hit: IndexedHit) => Number(admitsHere(hit)) };
    const step = ++lastStep;
    admitted = (hit) => hit.step === step;
    const boostDocument = (hit: IndexedHit) => {
      if (admitsHere !== undefined && !admitsHere(hit)) return 0;
      hit.step = step;
      return 1;
    };
    return { ...query, boostDocument };
  });
}

/** Where a search looks: the text index and the compound words by their parts. */
export interface TextSources {
  text: Pick<TextIndex<unknown>, 'search' | 'entriesOf'>;
  parts: CompoundParts;
}

/**
 * Words of the search looked up in the index. A word of up to three letters
 * next to longer ones (`salami st`, the next word still being typed) matches
 * thousands of products alone; it only narrows the matches of the longer
 * words, checked against each of their names, and leaves their order alone.
 */
function splitDriving(terms: string[]): { driving: string[]; narrowing: string[] } {
  if (terms.length < 2) return { driving: terms, narrowing: [] };
  let driving = terms.filter((term) => term.length > NARROWING_LENGTH);
  if (driving.length === 0) driving = [terms.reduce((a, b) => (b.length > a.length ? b : a))];
  return { driving, narrowing: terms.filter((term) => !driving.includes(term)) };
}

/** Whether a product also matches a narrowing word: in its name, or as a whole word of description or declarations. */
function narrowingTest(sources: TextSources, term: string): Admits {
  const inTexts = new Set<IndexedHit>();
  // Collects the hits while MiniSearch walks the word's postings, and has it score and return none of them.
  const collect = (hit: IndexedHit) => {
    inTexts.add(hit);
    return 0;
  };
  sources.text.search({ ...AS_IS, queries: [term], fields: ['description', 'declarations'], prefix: false, fuzzy: false, boostDocument: collect });
  const inName = nameWordMatcher(term);
  if (inTexts.size === 0) return (hit) => inName(hit.nameWords);
  return (hit) => inName(hit.nameWords) || inTexts.has(hit);
}

/**
 * The products matching every word, best first: those where each word matched as
 * a word or a word start, then those that needed a part inside a compound,
 * each group by relevance.
 */
export function rankText(sources: TextSources, terms: string[], typos: boolean): SearchHit[] {
  const { driving, narrowing } = splitDriving(terms);
  const tests = narrowing.map((term) => narrowingTest(sources, term));
  const admits = tests.length <= 1 ? tests[0] : (hit: IndexedHit) => tests.every((test) => test(hit));
  const queries = intersectingQueries(sources, driving, typos, admits);
  const results: SearchResult[] = sources.text.search({ combineWith: 'AND', queries });
  const direct: SearchHit[] = [];
  const inCompounds: SearchHit[] = [];
  for (const result of results) {
    // A word found only inside a compound is a query term of its own (the whole compound word), not the word typed.
    const isDirect = driving.every((term) => result.queryTerms.includes(term));
    (isDirect ? direct : inCompounds).push(result.id as SearchHit);
  }
  return inCompounds.length === 0 ? direct : direct.concat(inCompounds);
}
