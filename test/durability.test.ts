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

describe('kill -9 under concurrent writes', () => {
  it(`loses no acknowledged write nor its outbox entry, and leaves a sound database, over ${ROUNDS} rounds`, async () => {
    const setup = openDatabase(join(dataDir, DATABASE_FILE));
    const { writeKey } = createServices({ db: setup, clock: systemClock }).organizations.create({ name: 'Durability' });
    setup.close();
    const acknowledged = new Map<string, string>();

    for (let round = 0; round < ROUNDS; round += 1) {
      const server = await startChildServer(dataDir);
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(server.url, writeKey, `round ${round} writer ${w}`));
      // Kill at a different moment each round, while the writers are busy.
      await new Promise((r) => setTimeout(r, 300 + round * 150));
      await server.crash();
      for (const acks of await Promise.all(writers)) for (const [id, name] of acks) acknowledged.set(id, name);

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
      } finally {
        db.close();
      }
    }
    expect(acknowledged.size).toBeGreaterThan(ROUNDS * WRITERS);
  }, 120_000);
});
