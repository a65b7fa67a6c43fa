/**
 * How product text becomes search terms. Catalogs here are written in German,
 * French and Italian, while a kiosk keyboard or a hurried cashier often types
 * plain letters: `café` must find `cafe`, `Müesli` must find `muesli`.
 */

/** A word: a run of anything but whitespace, punctuation and symbols (`°`, `+`, `€`). */
const WORD = /[^\n\r\p{Z}\p{P}\p{S}]+/gu;
const COMBINING_MARKS = /\p{M}+/gu;
/** Letters that Unicode decomposition leaves alone but that have a plain spelling. */
const LIGATURES: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l' };
const LIGATURE_PATTERN = /[ßæœøđł]/g;
/** German spelling without umlauts writes them as two letters. */
const UMLAUTS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue' };
const UMLAUT_PATTERN = /[äöü]/g;
const HAS_UMLAUT = /[äöü]/;

/** Lowercases and removes accents: `Crème Brûlée` -> `creme brulee`, `Straße` -> `strasse`. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(LIGATURE_PATTERN, (letter) => LIGATURES[letter] ?? letter)
    .normalize('NFD')
    .replace(COMBINING_MARKS, '');
}

/** Words of a text, before folding. */
export function splitWords(text: string): string[] {
  return text.match(WORD) ?? [];
}

/**
 * Terms one indexed word is stored under: its folded form, and for German
 * umlauts also the two-letter spelling, so `Müller` is found by `muller`,
 * `müller` and `mueller` alike.
 */
export function indexTermsOf(word: string): string[] {
  const lower = word.toLowerCase();
  const folded = foldText(lower);
  if (!HAS_UMLAUT.test(lower)) return [folded];
  const spelledOut = foldText(lower.replace(UMLAUT_PATTERN, (letter) => UMLAUTS[letter] ?? letter));
  return spelledOut === folded ? [folded] : [folded, spelledOut];
}

/** Terms of a search text, each folded once. */
export function queryTermsOf(text: string): string[] {
  return splitWords(foldText(text));
}

/** Names match word starts from two letters on: one letter would match most of a catalog. */
export function prefixAllowed(term: string): boolean {
  return term.length >= 2;
}

/** Shortest word part a search finds inside a compound word: `milch` finds *Vollmilch*, `tee` does not find *Eistee*. */
export const MIN_COMPOUND_PART = 4;
/** Letters before the first part of a compound that can be found: Vollmilch's parts start at `llmilch`. */
export const COMPOUND_HEAD = 2;

/**
 * The inner parts of a folded name word that a search can find: every tail of
 * at least `MIN_COMPOUND_PART` letters that is not the word itself or its
 * first letter off (`vollmilch` -> `llmilch`, `lmilch`, `milch`, `ilch`). Words
 * with digits are sizes or codes, not compounds.
 */
export function compoundTailsOf(word: string): string[] {
  if (/\d/.test(word)) return [];
  const tails: string[] = [];
  for (let at = COMPOUND_HEAD; word.length - at >= MIN_COMPOUND_PART; at += 1) tails.push(word.slice(at));
  return tails;
}

/** Whether a query term is looked for inside compound words: long enough, and no size or code. */
export function compoundPartAllowed(term: string): boolean {
  return term.length >= MIN_COMPOUND_PART && !/\d/.test(term);
}

/**
 * Edits tolerated when a query term is matched against names: none for short
 * terms (too many false friends) or terms with digits (sizes, codes), one from
 * four letters, two from nine.
 */
export function typoToleranceOf(term: string): number {
  if (term.length < 4 || /\d/.test(term)) return 0;
  return term.length < 9 ? 1 : 2;
}

/**
 * Code candidates of a search text, normalized like stored codes: the whole
 * text (a code may hold a space) and each of its space-separated pieces
 * (several scanned codes).
 */
export function codeCandidatesOf(normalizedText: string): string[] {
  const pieces = normalizedText.split(/\s+/).filter((piece) => piece.length > 0);
  return [...new Set([normalizedText, ...pieces])].filter((code) => code.length > 0);
}
