import type MiniSearch from 'minisearch';
import type { Query, SearchResult } from 'minisearch';
import { prefixAllowed, typoToleranceOf } from '../rules/search-terms.js';
import type { CompoundParts } from './compound-parts.js';

/** Terms come in folded already: MiniSearch must take them as they are. */
const AS_IS = { tokenize: (text: string) => [text], processTerm: (term: string) => term };
/** Weight of a name word found by a part inside it; such matches rank after the others anyway. */
const COMPOUND_BOOST = { name: 1 };

/** A text match: its score, and whether every word matched as a word (not only inside a compound). */
export interface TextMatch {
  id: string;
  category: string | undefined;
  score: number;
  direct: boolean;
}

/**
 * Query for one word of a search: in the name as a word start (with `typos`
 * also as a look-alike), as a whole word in the description or declarations,
 * or inside a compound word of the name.
 */
function wordQuery(term: string, typos: boolean, parts: CompoundParts): Query {
  const queries: Query[] = [
    { ...AS_IS, queries: [term], fields: ['name'], prefix: prefixAllowed(term), fuzzy: typos ? typoToleranceOf(term) : false },
    { ...AS_IS, queries: [term], fields: ['description', 'declarations'], prefix: false, fuzzy: false },
  ];
  const compounds = parts.wordsContaining(term);
  if (compounds.length > 0) queries.push({ ...AS_IS, queries: compounds, fields: ['name'], prefix: false, fuzzy: false, boost: COMPOUND_BOOST });
  return { combineWith: 'OR', queries };
}

/**
 * Products matching every word, best first: those where each word matched as
 * a word or a word start, then those that needed a part inside a compound,
 * each group by relevance.
 */
export function rankText(text: MiniSearch, terms: string[], typos: boolean, parts: CompoundParts): TextMatch[] {
  const query: Query = { combineWith: 'AND', queries: terms.map((term) => wordQuery(term, typos, parts)) };
  const results: SearchResult[] = text.search(query);
  const direct: TextMatch[] = [];
  const inCompounds: TextMatch[] = [];
  for (const result of results) {
    // A word found only inside a compound is a query term of its own (the whole compound word), not the word typed.
    const isDirect = terms.every((term) => result.queryTerms.includes(term));
    const match = { id: result.id as string, category: result.category as string | undefined, score: result.score, direct: isDirect };
    (isDirect ? direct : inCompounds).push(match);
  }
  return inCompounds.length === 0 ? direct : direct.concat(inCompounds);
}
