import { random } from './catalog.js';
import type { SoakCatalog } from './soak-seed.js';

/** One request of a kind: where it goes, with which key, carrying what. */
export interface SoakRequest {
  path: string;
  key?: string;
  body?: unknown;
}

export interface SoakKind {
  name: string;
  method: 'GET' | 'POST';
  connections: number;
  /** Requests per second over all its connections; without it, each connection sends its next request as soon as the last is answered. */
  rate?: number;
  /** The one status every answer of this kind must have; any other counts as an error. */
  expected: number;
  next(): SoakRequest;
  /** Reads what the kind's next request depends on (a list walk's cursor); a kind that needs it runs on one connection. */
  answered?(body: string): void;
}

/** Words a customer types into a kiosk's search: starts of words, typos, several words. */
const TYPED = [
  'schok', 'bergk', 'caff', 'froma', 'past', 'vollm', 'brot', 'müesli', 'muesli', 'cafe',
  'schokolde', 'formagio', 'chocolat', 'lemonde', 'fromge', 'yoghrt',
  'bio milch', 'alpin käse', 'dolce pasta', 'fresh bread 1l', 'premium caffè 500g',
];

/**
 * The load a store PC carries in opening hours, all at once: self-checkout
 * kiosks and the scale scanning and looking up products with their device
 * keys, tills doing the same with the write key, customers searching at a
 * kiosk, and sales recorded by kiosks and tills, each on connections that
 * send their next request as soon as the last is answered. A till's catalog
 * download walking list pages, new products, price changes and the devices'
 * health polls come at a fixed pace, as staff and devices make them: cheap
 * ones would otherwise drown the rest in requests no store sends that often,
 * and an endless walk of 100-product pages would outweigh everything a till
 * does. Scans outnumber everything else, as at a till.
 */
export function soakMix(seeded: SoakCatalog, runTag: string): SoakKind[] {
  const { catalog, writeKey, kiosks, scaleKey } = seeded;
  const rnd = random(32);
  const deviceKeys = [...kiosks.map((k) => k.key), scaleKey];
  const productId = () => catalog.productIds[rnd.int(catalog.productIds.length)]!;
  const code = () => (rnd.next() < 0.2 && catalog.aliasCodes.length > 0 ? rnd.pick(catalog.aliasCodes) : rnd.pick(catalog.barcodes));
  const query = () => (rnd.next() < 0.25 ? rnd.pick(catalog.barcodes) : rnd.pick(TYPED));
  let sale = 0;
  let created = 0;
  let cursor: string | undefined;
  /** A sale of one to five lines, by a kiosk for its own store or by a till with the write key for any store. */
  const saleRequest = (): SoakRequest => {
    const kiosk = rnd.next() < 0.5 ? rnd.pick(kiosks) : undefined;
    const store = kiosk?.store ?? rnd.pick(catalog.storeIds);
    const products = Array.from({ length: 1 + rnd.int(5) }, () => ({ productId: productId(), quantity: 1 + rnd.int(3) }));
    return { path: '/api/v1/orders', key: kiosk?.key ?? writeKey, body: { store, orderId: `soak-${runTag}-${++sale}`, products } };
  };
  return [
    { name: 'scan, device key', method: 'GET', connections: 3, expected: 200, next: () => ({ path: `/api/v1/products?barcode=${code()}`, key: rnd.pick(deviceKeys) }) },
    { name: 'scan, write key', method: 'GET', connections: 2, expected: 200, next: () => ({ path: `/api/v1/products?barcode=${code()}`, key: writeKey }) },
    { name: 'read by id, device key', method: 'GET', connections: 1, expected: 200, next: () => ({ path: `/api/v1/products/${productId()}`, key: rnd.pick(deviceKeys) }) },
    { name: 'read by id, write key', method: 'GET', connections: 1, expected: 200, next: () => ({ path: `/api/v1/products/${productId()}`, key: writeKey }) },
    {
      name: 'search, kiosk key',
      method: 'GET',
      connections: 1,
      expected: 200,
      next: () => ({ path: `/api/v1/products?q=${encodeURIComponent(query())}&limit=20`, key: rnd.pick(kiosks).key }),
    },
    {
      name: 'list page of 100, write key',
      method: 'GET',
      connections: 1,
      rate: 20,
      expected: 200,
      next: () => ({ path: `/api/v1/products?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key: writeKey }),
      // The walk starts again from the first page after the last one.
      answered: (body) => {
        cursor = (JSON.parse(body) as { meta?: { nextCursor?: string } }).meta?.nextCursor;
      },
    },
    { name: 'POST /orders (sale)', method: 'POST', connections: 1, expected: 200, next: saleRequest },
    {
      name: 'POST /products (new product)',
      method: 'POST',
      connections: 1,
      rate: 2,
      expected: 200,
      next: () => {
        created += 1;
        return { path: '/api/v1/products', key: writeKey, body: { name: `Soak Artikel ${created}`, price: 250 + created, taxCategory: '2.6', barcode: `soak-${runTag}-${created}` } };
      },
    },
    {
      name: 'POST /products/{id} (price)',
      method: 'POST',
      connections: 1,
      rate: 10,
      expected: 200,
      next: () => ({ path: `/api/v1/products/${productId()}`, key: writeKey, body: { price: 50 + rnd.int(5000) } }),
    },
    { name: 'health poll', method: 'GET', connections: 1, rate: 5, expected: 200, next: () => ({ path: '/api/v1/health' }) },
  ];
}
