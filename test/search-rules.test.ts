import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageOfHits } from '../main/rules/search-page.js';
import {
  codeCandidatesOf,
  foldText,
  indexTermsOf,
  prefixAllowed,
  queryTermsOf,
  typoToleranceOf,
} from '../main/rules/search-terms.js';
import { HitCache } from '../main/search/hit-cache.js';

describe('foldText', () => {
  it.each([
    ['Café Crème', 'cafe creme'],
    ['Müesli', 'muesli'],
    ['Crème Brûlée', 'creme brulee'],
    ['Straße', 'strasse'],
    ['Œufs frais', 'oeufs frais'],
    ['Caffè Lungo', 'caffe lungo'],
    ['Ærø Øl', 'aero ol'],
    ['PÂTES N°5', 'pates n°5'],
  ])('%s -> %s', (text, folded) => {
    expect(foldText(text)).toBe(folded);
  });
});

describe('indexTermsOf', () => {
  it.each([
    ['Milch', ['milch']],
    ['Café', ['cafe']],
    ['Müller', ['muller', 'mueller']],
    ['Bergkäse', ['bergkase', 'bergkaese']],
    ['Öl', ['ol', 'oel']],
    ['Thé', ['the']],
  ])('%s is stored under %j', (word, terms) => {
    expect(indexTermsOf(word)).toEqual(terms);
  });
});

describe('queryTermsOf', () => {
  it.each([
    ['  Bio  Vollmilch ', ['bio', 'vollmilch']],
    ['crème-brûlée', ['creme', 'brulee']],
    ["l'Eau minérale", ['l', 'eau', 'minerale']],
    ['Coca-Cola 0.5l', ['coca', 'cola', '0', '5l']],
    ['!!!', []],
  ])('%j -> %j', (text, terms) => {
    expect(queryTermsOf(text)).toEqual(terms);
  });
});

describe('typoToleranceOf and prefixAllowed', () => {
  it.each([
    ['m', 0, false],
    ['mi', 0, true],
    ['tee', 0, true],
    ['milk', 1, true],
    ['vollmich', 1, true],
    ['schokolde', 2, true],
    ['500g', 0, true],
    ['7610000000017', 0, true],
  ])('%s: %i edits, prefix %s', (term, edits, prefix) => {
    expect(typoToleranceOf(term)).toBe(edits);
    expect(prefixAllowed(term)).toBe(prefix);
  });
});

describe('codeCandidatesOf', () => {
  it.each([
    ['7610000000017', ['7610000000017']],
    ['art-0042', ['art-0042']],
    ['7610000000017 7610000000024', ['7610000000017 7610000000024', '7610000000017', '7610000000024']],
  ])('%j -> %j', (text, codes) => {
    expect(codeCandidatesOf(text)).toEqual(codes);
  });
});

describe('pageOfHits', () => {
  it('equals filtering every hit, then slicing (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.nat(), visible: fc.boolean() }), { maxLength: 60 }),
        fc.nat({ max: 70 }),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        (hits, offset, limit, filtered) => {
          const visible = filtered ? (hit: { visible: boolean }) => hit.visible : undefined;
          const oracle = hits.filter((hit) => !visible || visible(hit)).slice(offset, offset + limit);
          expect(pageOfHits(hits, { offset, limit, visible })).toEqual(oracle);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('HitCache', () => {
  it('keeps the most recently used texts within its entry and hit budgets', () => {
    const cache = new HitCache<number[]>(2, 5);
    cache.set('a', [1, 2]);
    cache.set('b', [3]);
    expect(cache.get('a')).toEqual([1, 2]);
    cache.set('c', [4]);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([[1, 2], undefined, [4]]);
    cache.set('d', [5, 6, 7, 8]);
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([undefined, [4], [5, 6, 7, 8]]);
    cache.set('e', [1, 2, 3, 4, 5, 6]);
    expect(cache.get('e')).toBeUndefined();
    cache.clear();
    expect(cache.get('d')).toBeUndefined();
  });
});
