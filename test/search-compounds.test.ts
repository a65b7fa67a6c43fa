import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;
let read: Api;
const ids: Record<string, string> = {};

const NAMES = [
  // German
  'Vollmilch 1l', 'Magermilch 0.5l', 'Milchschoggi 100g', 'Milch Drink Erdbeer', 'Schoggi Stängeli', 'Bergkäse rezent', 'Eistee Pfirsich',
  // French
  'Millefeuille vanille', 'Feuille de brick', 'Portefeuille cuir',
  // Italian
  'Olio di girasole', 'Sole dei Campi pomodori', 'Caffèlatte freddo', 'Latte intero',
];

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  for (const name of NAMES) {
    const res = await write.post('/products', { name, price: 100, taxCategory: '2.6' });
    ids[name] = res.body.id;
  }
});
afterAll(async () => {
  await server.destroy();
});

const namesFound = async (text: string) => {
  const res = await read.get(`/products?q=${encodeURIComponent(text)}`);
  expect(res.status).toBe(200);
  return (res.body.data as { name: string }[]).map((p) => p.name);
};
/** The names found, as groups whose order inside is up to relevance. */
const inGroups = async (text: string, sizes: number[]) => {
  const found = await namesFound(text);
  let at = 0;
  return sizes.map((size) => found.slice(at, (at += size)).sort());
};

describe('GET /products?q= finds word parts inside compound words', () => {
  it('German: milch finds Vollmilch and Magermilch, after the names where it starts a word', async () => {
    expect(await inGroups('milch', [2, 2])).toEqual([
      ['Milch Drink Erdbeer', 'Milchschoggi 100g'],
      ['Magermilch 0.5l', 'Vollmilch 1l'],
    ]);
  });

  it('German: schoggi finds Milchschoggi after Schoggi Stängeli, and a part being typed finds it too', async () => {
    expect(await namesFound('schoggi')).toEqual(['Schoggi Stängeli', 'Milchschoggi 100g']);
    expect(await namesFound('schog')).toEqual(['Schoggi Stängeli', 'Milchschoggi 100g']);
  });

  it('German: a part with an umlaut is found typed either way', async () => {
    expect(await namesFound('käse')).toEqual(['Bergkäse rezent']);
    expect(await namesFound('kase')).toEqual(['Bergkäse rezent']);
    expect(await namesFound('kaese')).toEqual(['Bergkäse rezent']);
  });

  it('French: feuille finds Millefeuille and Portefeuille after Feuille de brick', async () => {
    expect(await inGroups('feuille', [1, 2])).toEqual([['Feuille de brick'], ['Millefeuille vanille', 'Portefeuille cuir']]);
  });

  it('Italian: sole finds Olio di girasole after Sole dei Campi; latte finds Caffèlatte after Latte intero', async () => {
    expect(await namesFound('sole')).toEqual(['Sole dei Campi pomodori', 'Olio di girasole']);
    expect(await namesFound('latte')).toEqual(['Latte intero', 'Caffèlatte freddo']);
  });

  it('combines a part with other words: every word must match, parts rank after whole words', async () => {
    expect(await namesFound('milch erdbeer')).toEqual(['Milch Drink Erdbeer']);
    expect(await namesFound('girasole olio')).toEqual(['Olio di girasole']);
    expect(await namesFound('olio sole')).toEqual(['Olio di girasole']);
  });

  it('looks inside compounds from four letters on: tee finds Eistee only as a word', async () => {
    expect(await namesFound('tee')).toEqual([]);
    expect(await namesFound('eistee')).toEqual(['Eistee Pfirsich']);
  });

  it('follows renames and deletions', async () => {
    const id = (await write.post('/products', { name: 'Haselnussschokolade', price: 100, taxCategory: '2.6' })).body.id;
    expect(await namesFound('schokolade')).toEqual(['Haselnussschokolade']);
    await write.post(`/products/${id}`, { name: 'Mandelschokolade' });
    expect(await namesFound('nuss')).toEqual([]);
    expect(await namesFound('schokolade')).toEqual(['Mandelschokolade']);
    await write.delete(`/products/${id}`);
    expect(await namesFound('schokolade')).toEqual([]);
  });
});

describe('GET /products?q= against a brute-force oracle', () => {
  const VOCABULARY = ['milch', 'vollmilch', 'milchschoggi', 'schoggi', 'kase', 'bergkase', 'tee', 'eistee', 'sole', 'girasole', 'st', 'stk', '4', '500g', 'latte', 'caffelatte', 'brot'];

  /** How one word of a search matches one word of a text: 'word' (whole word or word start), 'part' (inside a compound) or not. */
  const nameMatch = (term: string, word: string): 'word' | 'part' | undefined => {
    if (term.length >= 2 ? word.startsWith(term) : word === term) return 'word';
    if (term.length >= 4 && !/\d/.test(term) && !/\d/.test(word) && word.indexOf(term, 2) !== -1) return 'part';
    return undefined;
  };

  it('finds exactly the products whose words match every word of the search, parts inside compounds last', async () => {
    const shop = server.createOrg();
    const shopWrite = api(server.url, shop.writeKey);
    const shopRead = api(server.url, shop.readKey);
    const catalog = fc.sample(
      fc.record({ name: fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 3 }), description: fc.array(fc.constantFrom(...VOCABULARY), { maxLength: 2 }) }),
      { numRuns: 60, seed: 11 },
    );
    const products = await Promise.all(
      catalog.map(async (p) => {
        const body = { name: p.name.join(' '), description: p.description.join(' '), price: 100, taxCategory: '0' };
        return { ...p, id: (await shopWrite.post('/products', body)).body.id as string };
      }),
    );
    const term = fc.constantFrom(...VOCABULARY).chain((word) => fc.integer({ min: 1, max: word.length }).map((n) => word.slice(0, n)));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(term, { minLength: 1, maxLength: 3 }), async (terms) => {
        const expected = new Map<string, boolean>();
        for (const p of products) {
          const how = terms.map((t) => {
            const inName = p.name.map((w) => nameMatch(t, w));
            if (inName.includes('word') || p.description.includes(t)) return 'word';
            return inName.includes('part') ? 'part' : undefined;
          });
          if (how.every((h) => h !== undefined)) expected.set(p.id, how.every((h) => h === 'word'));
        }
        const res = await shopRead.get(`/products?q=${encodeURIComponent(terms.join(' '))}&limit=250`);
        const found: string[] = res.body.data.map((p: { id: string }) => p.id);
        // Fewer than 5 matches let look-alikes in (typos); then the oracle's matches are a subset.
        if (expected.size >= 5) expect(new Set(found)).toEqual(new Set(expected.keys()));
        else for (const id of expected.keys()) expect(found).toContain(id);
        const kinds = found.filter((id) => expected.has(id)).map((id) => expected.get(id));
        expect(kinds).toEqual([...kinds].sort((a, b) => Number(b) - Number(a)));
      }),
      { numRuns: 150 },
    );
  });
});
