import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageOfHits } from '../main/rules/search-page.js';
import { ProductIndex } from '../main/search/product-index.js';
import { RankedHits } from '../main/search/ranked-hits.js';
import { random } from './bench/catalog.js';

interface Entry {
  group: number;
  score: number;
  key: number;
}

/** The order RankedHits promises, by a full sort. */
const oracleOrder = (entries: readonly Entry[]) =>
  entries
    .map((entry, i) => ({ ...entry, i }))
    .sort((a, b) => a.group - b.group || b.score - a.score || a.key - b.key)
    .map((entry) => entry.i);

const rankedOf = (leading: readonly number[], entries: readonly Entry[]) =>
  new RankedHits(leading, {
    items: entries.map((_, i) => i),
    groups: Uint8Array.from(entries, (entry) => entry.group),
    scores: Float64Array.from(entries, (entry) => entry.score),
    keys: Float64Array.from(entries, (entry) => entry.key),
  });

/** Entries with few distinct scores, so ties are common, and distinct keys; more than are sorted at a time. */
const entriesArbitrary = fc
  .array(fc.record({ group: fc.integer({ min: 0, max: 1 }), score: fc.integer({ min: 0, max: 20 }).map((s) => s / 4) }), {
    minLength: 200,
    maxLength: 1500,
  })
  .chain((entries) =>
    fc.shuffledSubarray([...Array(entries.length).keys()], { minLength: entries.length, maxLength: entries.length }).map((keys) =>
      entries.map((entry, i) => ({ ...entry, key: keys[i] as number })),
    ),
  );

describe('RankedHits', () => {
  it('reads like the fully sorted list, whatever pages are read first (property)', () => {
    fc.assert(
      fc.property(
        entriesArbitrary,
        fc.array(fc.tuple(fc.nat(1600), fc.integer({ min: 1, max: 300 })), { maxLength: 6 }),
        (entries, pages) => {
          const leading = [-1, -2];
          const expected = [...leading, ...oracleOrder(entries)];
          const ranked = rankedOf(leading, entries);
          expect(ranked.length).toBe(expected.length);
          for (const [offset, limit] of pages) expect(ranked.slice(offset, offset + limit)).toEqual(expected.slice(offset, offset + limit));
          expect([...ranked]).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('pages a store-filtered list as the sorted array would', () => {
    fc.assert(
      fc.property(entriesArbitrary, fc.nat(400), fc.integer({ min: 1, max: 200 }), (entries, offset, limit) => {
        const visible = (item: number) => item % 3 !== 0;
        const expected = pageOfHits([-1, ...oracleOrder(entries)], { offset, limit, visible });
        expect(pageOfHits(rankedOf([-1], entries), { offset, limit, visible })).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });
});

describe('ProductIndex after many renames', () => {
  const WORDS = ['apfel', 'birne', 'kiwi', 'mango', 'zitrone', 'traube', 'banane', 'pflaume'];

  it('finds exactly the current names once removed documents are cleaned up and their numbers reused', () => {
    const index = new ProductIndex();
    const names = new Map<string, string>();
    const rnd = random(7);
    const nameOf = () => `${rnd.pick(WORDS)} ${rnd.pick(WORDS)} ${rnd.int(1000)}`;
    const put = (id: string) => {
      const name = nameOf();
      names.set(id, name);
      index.put({ id, name, barcode: id });
    };
    for (let i = 0; i < 300; i++) put(`p${i}`);
    // More renames than the 10,000 removals after which the index cleans up and gives numbers again.
    for (let i = 0; i < 12_000; i++) put(`p${rnd.int(300)}`);
    for (let i = 0; i < 40; i++) index.remove(`p${i}`);
    for (let i = 0; i < 40; i++) names.delete(`p${i}`);

    for (const word of WORDS) {
      const expected = [...names].filter(([, name]) => name.split(' ').includes(word)).map(([id]) => id);
      expect([...index.search(word)].map((hit) => hit.id).sort()).toEqual(expected.sort());
    }
  });
});
