import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createdId, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

/**
 * docs/sync.md promises that reads see only what is durable. Here prices
 * change all the time (each product's price only ever rises, one write after
 * the other), while reads of those products go through the hot path and
 * through Express; right after each answer, a second connection to the file
 * reads the committed price. A read that showed a price above the committed
 * one showed a write of a group that had not committed yet.
 *
 * Groups stay open 20 ms here, so that the next group is open while the
 * previous one is flushed, and a read shown too early is still uncommitted
 * when the second connection looks.
 */

const WINDOW_MS = 20;
const WRITERS = 8;
const READS = 150;

let server: TestServer;
let org: TestOrg;
let write: Api;
let products: string[];
/** The last price written to each product. */
const lastPrice = new Map<string, number>();

beforeAll(async () => {
  server = await startTestServer({ groupCommitMs: WINDOW_MS });
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  products = [];
  for (let i = 0; i < WRITERS; i += 1) products.push(await createdId(write, '/products', { name: `Brot ${i}`, price: 1, taxCategory: '2.6' }));
});
afterAll(async () => {
  await server.destroy();
});

/**
 * Raises each product's price one write after the other until `done`, so
 * that a product's committed price only grows. Each writer pauses a random
 * part of a group's window between its writes, so that writes arrive at any
 * moment of a group's life, its flush included, as a hub's stores' do;
 * writers answered together would otherwise go on in step.
 */
async function raisePrices(done: () => boolean): Promise<void> {
  await Promise.all(
    products.map(async (id) => {
      // Each run goes on from the price the last one left, so that a price rises across runs too.
      for (let price = (lastPrice.get(id) ?? 1) + 1; !done(); price += 1) {
        const answer = await write.post(`/products/${id}`, { price });
        if (answer.status !== 200) throw new Error(`price update answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        lastPrice.set(id, price);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * WINDOW_MS));
      }
    }),
  );
}

/** Reads the products `READS` times (`headers` choose the path) and returns every answered price above what was committed right after. */
async function readAgainstCommitted(headers: Record<string, string>): Promise<string[]> {
  const committed = server.sqlite().prepare('SELECT price FROM products WHERE id = ?').pluck();
  const read = api(server.url, org.readKey);
  const early: string[] = [];
  let finished = false;
  const writing = raisePrices(() => finished);
  try {
    for (let i = 0; i < READS; i += 1) {
      const id = products[i % products.length]!;
      const answer = await read.request('GET', `/products/${id}`, { headers });
      expect(answer.status).toBe(200);
      const stored = committed.get(id) as number;
      if (answer.body.data.price > stored) early.push(`read ${i}: answered ${answer.body.data.price}, committed ${stored}`);
    }
  } finally {
    finished = true;
    await writing;
  }
  return early;
}

describe('reads under concurrent writes', () => {
  it('show on the hot path only prices that are committed', async () => {
    expect(await readAgainstCommitted({})).toEqual([]);
  });

  it('show through Express only prices that are committed', async () => {
    // A request with an Origin is never taken by the hot path; the server's own origin is allowed.
    expect(await readAgainstCommitted({ origin: new URL(server.url).origin })).toEqual([]);
  });
});
