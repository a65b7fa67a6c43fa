import { prefixAllowed, typoToleranceOf } from '../rules/search-terms.js';
import type { CompoundParts } from './compound-parts.js';
import type { Postings } from './postings.js';
import type { Ranked } from './ranked-hits.js';
import type { TextField, TextIndex } from './text-index.js';

/** One ranked match: the product id, and the category that decides store visibility. */
export interface SearchHit {
  id: string;
  category: string | undefined;
}

/** A hit as the index keeps it, one per product. */
export interface IndexedHit extends SearchHit {
  /** Its document number in the text index. */
  doc: number;
}

/** Relative weight of each text field: a word in the name counts most. */
const FIELD_BOOST: Record<TextField, number> = { name: 3, description: 1, declarations: 0.5 };
/** Weight of a name word found by a part inside it, a third of a whole word's; such matches rank after the others anyway. */
const COMPOUND_WEIGHT = 1;
/** Weights of a longer word a search word starts, and of a look-alike word, before their length discount (MiniSearch's defaults). */
const PREFIX_WEIGHT = 0.375;
const TYPO_WEIGHT = 0.45;
/** Longest word that only narrows the matches of longer words of the same search. */
const NARROWING_LENGTH = 3;
/** Marks stay below this, so they never overflow their array. */
const MAX_MARK = 2 ** 30;

/** Where a search looks (the text index, the compound words by their parts) and the scoreboard it adds its scores into. */
export interface TextSources {
  text: TextIndex<IndexedHit>;
  parts: CompoundParts;
  board: Scoreboard;
}

/**
 * Scores of the products a search is matching, in arrays by document number,
 * reused from search to search. Each word of a search gets a new mark: a
 * product carries the mark of the last word that matched it, so checking
 * whether every word so far matched costs one array read.
 */
export class Scoreboard {
  score = new Float64Array(0);
  /** The mark of the last word that matched the product. */
  matched = new Int32Array(0);
  /** The mark of the last word that matched the product as typed (not only inside a compound). */
  matchedAsTyped = new Int32Array(0);
  /** Whether every word so far matched the product as typed. */
  allAsTyped = new Uint8Array(0);
  private mark = 0;

  /** Readies the arrays for a search over `capacity` documents. */
  begin(capacity: number): void {
    if (this.score.length < capacity) {
      const size = Math.max(capacity, this.score.length * 2, 1024);
      this.score = new Float64Array(size);
      this.matched = new Int32Array(size);
      this.matchedAsTyped = new Int32Array(size);
      this.allAsTyped = new Uint8Array(size);
      this.mark = 0;
    }
    if (this.mark >= MAX_MARK) {
      this.matched.fill(0);
      this.matchedAsTyped.fill(0);
      this.mark = 0;
    }
  }

  /** A mark for the next word of the search. */
  nextMark(): number {
    return ++this.mark;
  }
}

/** One list of products a search word matches: a term's postings in a field, with the weight of such a match (0 for a word that only narrows). */
interface WordSource {
  postings: Postings;
  field: TextField;
  weight: number;
  /** False for a whole word found by a part inside it. */
  asTyped: boolean;
}

/**
 * Where one word of a search matches: in the name as a whole word, as a word
 * start (with `typos` also as a look-alike), as a whole word in the
 * description or declarations, or inside a compound word of the name.
 */
function sourcesOf(sources: TextSources, term: string, typos: boolean): WordSource[] {
  const { text, parts } = sources;
  const found: WordSource[] = [];
  const add = (postings: Postings | undefined, field: TextField, weight: number, asTyped = true) => {
    if (postings !== undefined) found.push({ postings, field, weight, asTyped });
  };
  add(text.postingsOf('name', term), 'name', FIELD_BOOST.name);
  const started = new Set<string>();
  if (prefixAllowed(term)) {
    for (const [word, postings] of text.nameTermsStarting(term)) {
      if (word === term) continue;
      started.add(word);
      add(postings, 'name', (FIELD_BOOST.name * PREFIX_WEIGHT * word.length) / (word.length + 0.3 * (word.length - term.length)));
    }
  }
  const tolerance = typos ? typoToleranceOf(term) : 0;
  if (tolerance > 0) {
    for (const [word, [postings, distance]] of text.nameTermsNear(term, tolerance)) {
      if (distance > 0 && !started.has(word)) add(postings, 'name', (FIELD_BOOST.name * TYPO_WEIGHT * word.length) / (word.length + distance));
    }
  }
  add(text.postingsOf('description', term), 'description', FIELD_BOOST.description);
  add(text.postingsOf('declarations', term), 'declarations', FIELD_BOOST.declarations);
  for (const word of parts.wordsContaining(term)) add(text.postingsOf('name', word), 'name', COMPOUND_WEIGHT, false);
  return found;
}

/**
 * Words of the search that rank its matches, and words that only narrow
 * them. A word of up to three letters next to longer ones (`salami st`, the
 * next word still being typed) matches thousands of products, mostly as a
 * start of unrelated words: it must match, but leaves the order alone, and
 * is not looked for with typos or inside compounds.
 */
function splitDriving(terms: string[]): { driving: string[]; narrowing: string[] } {
  if (terms.length < 2) return { driving: terms, narrowing: [] };
  let driving = terms.filter((term) => term.length > NARROWING_LENGTH);
  if (driving.length === 0) driving = [terms.reduce((a, b) => (b.length > a.length ? b : a))];
  return { driving, narrowing: terms.filter((term) => !driving.includes(term)) };
}

/**
 * Where a narrowing word matches, adding nothing to the score: in the name as
 * a word start (or whole word when it has one letter), as a whole word in the
 * description or declarations.
 */
function narrowingSourcesOf(sources: TextSources, term: string): WordSource[] {
  const { text } = sources;
  const found: WordSource[] = [];
  const add = (postings: Postings | undefined, field: TextField) => {
    if (postings !== undefined) found.push({ postings, field, weight: 0, asTyped: true });
  };
  if (prefixAllowed(term)) for (const [, postings] of text.nameTermsStarting(term)) add(postings, 'name');
  else add(text.postingsOf('name', term), 'name');
  add(text.postingsOf('description', term), 'description');
  add(text.postingsOf('declarations', term), 'declarations');
  return found;
}

const listSize = (found: readonly WordSource[]) => found.reduce((sum, source) => sum + source.postings.size, 0);

/**
 * Scores the products matching every word. The word with the shortest lists
 * goes first and alone decides which products are candidates; each later
 * word only adds to the products every word before it matched. Returns the
 * document numbers of the products the last word matched.
 */
function scoreAll(sources: TextSources, words: WordSource[][]): number[] {
  const { text, board } = sources;
  const ordered = [...words].sort((a, b) => listSize(a) - listSize(b));
  let matched: number[] = [];
  let previous = 0;
  board.begin(text.capacity);
  ordered.forEach((found, i) => {
    const mark = board.nextMark();
    const { score, matched: marks, matchedAsTyped } = board;
    const first = i === 0;
    const touched: number[] = [];
    for (const { postings, field, weight, asTyped } of found) {
      text.score(postings, field, weight, (doc, points) => {
        const last = marks[doc];
        if (last === mark) score[doc] = (score[doc] as number) + points;
        else if (first || last === previous) {
          marks[doc] = mark;
          score[doc] = first ? points : (score[doc] as number) + points;
          touched.push(doc);
        } else return;
        if (asTyped) matchedAsTyped[doc] = mark;
      });
    }
    const { allAsTyped } = board;
    for (const doc of touched) {
      const asTyped = matchedAsTyped[doc] === mark;
      if (first) allAsTyped[doc] = Number(asTyped);
      else if (!asTyped) allAsTyped[doc] = 0;
    }
    matched = touched;
    previous = mark;
  });
  return matched;
}

/**
 * The products matching every word, with what ranks them: first those where
 * each word matched as a word or a word start (group 0), then those that
 * needed a part inside a compound (group 1), each group by relevance, ties by
 * document number for a stable order.
 */
export function rankText(sources: TextSources, terms: string[], typos: boolean): Ranked<IndexedHit> {
  const { driving, narrowing } = splitDriving(terms);
  const words = [
    ...driving.map((term) => sourcesOf(sources, term, typos)),
    ...narrowing.map((term) => narrowingSourcesOf(sources, term)),
  ];
  const matched = scoreAll(sources, words);
  const { score, allAsTyped } = sources.board;
  const ranked: Ranked<IndexedHit> = {
    items: [],
    groups: new Uint8Array(matched.length),
    scores: new Float64Array(matched.length),
    keys: new Float64Array(matched.length),
  };
  for (const doc of matched) {
    const hit = sources.text.docOf(doc);
    if (hit === undefined) continue;
    const at = ranked.items.length;
    ranked.items.push(hit);
    ranked.groups[at] = 1 - (allAsTyped[doc] as number);
    ranked.scores[at] = score[doc] as number;
    ranked.keys[at] = doc;
  }
  return ranked;
}
