import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../main/services/index.js';
import { systemClock } from '../main/services/clock.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { startChildServer } from './support/child-server.js';
import { makeDataDir } from './support/server.js';

const ROUNDS = 4;
const WRITERS = 4;

const dataDir = makeDataDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function createStore(url: string, key: string): Promise<string> {
  const res = await fetch(`${url}/stores`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"name":"Filiale"}' });
  return ((await res.json()) as { id: string }).id;
}

/** Creates products until the server stops answering; returns the id and name of each acknowledged one. */
async function writer(url: string, key: string, tag: string): Promise<Map<string, string>> {
  const acknowledged = new Map<string, string>();
  for (let i = 0; ; i += 1) {
    const name = `${tag} #${i}`;
    try {
      const res = await fetch(`${url}/products`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, price: 100 + i, taxCategory: '8.1' }),
      });
      if (res.status !== 200) throw new Error(`answered ${res.status}: ${await res.text()}`);
      acknowledged.set(((await res.json()) as { id: string }).id, name);
    } catch (err) {
      // The server was killed: an answer that never came is no acknowledgement.
      if ((err as Error).message.startsWith('answered')) throw err;
      return acknowledged;
    }
  }
}

/** Sends keyed sales (as a store PC's sync worker does) until the server stops answering; returns each acknowledged one's id by key. */
async function seller(url: string, key: string, store: string, tag: string): Promise<Map<string, string>> {
  const acknowledged = new Map<string, string>();
  for (let i = 0; ; i += 1) {
    const idempotencyKey = `${tag}-${i}`;
    try {
      const res = await fetch(`${url}/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify({ store, products: [{ productId: `p-${i}`, quantity: 1, title: 'Brot', price: 350, taxRate: 0.026, deposit: 0 }] }),
      });
      if (res.status !== 200) throw new Error(`answered ${res.status}: ${await res.text()}`);
      acknowledged.set(idempotencyKey, ((await res.json()) as { id: string }).id);
    } catch (err) {
      if ((err as Error).message.startsWith('answered')) throw err;
      return acknowledged;
    }
  }
}

describe('kill -9 under concurrent writes', () => {
  it(`loses no acknowledged write, sale, outbox entry or kept answer, and leaves a sound database, over ${ROUNDS} rounds`, async () => {
    const setup = openDatabase(join(dataDir, DATABASE_FILE));
    const { writeKey } = createServices({ db: setup, clock: systemClock }).organizations.create({ name: 'Durability' });
    setup.close();
    const acknowledged = new Map<string, string>();
    const sold = new Map<string, string>();
    let store: string | undefined;

    for (let round = 0; round < ROUNDS; round += 1) {
      const server = await startChildServer(dataDir);
      store ??= await createStore(server.url, writeKey);
      // Products and keyed sales at once: the server groups their commits.
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(server.url, writeKey, `round ${round} writer ${w}`));
      const sellers = Array.from({ length: WRITERS }, (_, w) => seller(server.url, writeKey, store!, `round-${round}-seller-${w}`));
      // Kill at a different moment each round, while the writers are busy.
      await new Promise((r) => setTimeout(r, 300 + round * 150));
      await server.crash();
      for (const acks of await Promise.all(writers)) for (const [id, name] of acks) acknowledged.set(id, name);
      for (const acks of await Promise.all(sellers)) for (const [key, id] of acks) sold.set(key, id);

      const db = openDatabase(join(dataDir, DATABASE_FILE));
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const rows = db.prepare('SELECT id, name FROM products').all() as { id: string; name: string }[];
        const stored = new Map(rows.map((row) => [row.id, row.name]));
        const queued = new Set(db.prepare("SELECT resource_id FROM outbox WHERE resource = 'product' AND operation = 'create'").pluck().all() as string[]);
        for (const [id, name] of acknowledged) {
          expect(stored.get(id), `acknowledged product ${id}`).toBe(name);
          expect(queued.has(id), `outbox entry of ${id}`).toBe(true);
        }
        // Nothing stored without its entry either: write and entry share one transaction.
        for (const id of stored.keys()) expect(queued.has(id), `outbox entry of stored ${id}`).toBe(true);
        const orders = new Set(db.prepare('SELECT id FROM orders').pluck().all() as string[]);
        const kept = db.prepare('SELECT body FROM idempotency_keys WHERE key = ?').pluck();
        for (const [key, id] of sold) {
          expect(orders.has(id), `acknowledged sale ${id}`).toBe(true);
          // The answer kept for the key commits with the sale: a repeat replays it instead of selling twice.
          expect(JSON.parse(kept.get(key) as string), `answer kept for ${key}`).toEqual({ success: true, id });
        }
      } finally {
        db.close();
      }
    }
    expect(acknowledged.size).toBeGreaterThan(ROUNDS * WRITERS);
    expect(sold.size).toBeGreaterThan(ROUNDS * WRITERS);
  }, 120_000);
});
