import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../main/services/clock.js';
import { createServices } from '../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { startChildServer } from './support/child-server.js';
import { makeDataDir } from './support/server.js';

const ROWS = 20_000;
const dataDir = makeDataDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function productCount(orgId: string): number {
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  try {
    return (db.prepare('SELECT count(*) AS n FROM products WHERE org_id = ?').get(orgId) as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('a power cut while an import writes', () => {
  it('leaves none of its products, though reads saw them being written', async () => {
    const db = openDatabase(join(dataDir, DATABASE_FILE));
    const org = createServices({ db, clock: systemClock }).organizations.create({ name: 'Hofladen', features: [] });
    db.close();
    const server = await startChildServer(dataDir);
    const file = ['externalId,name,price,taxCategory', ...Array.from({ length: ROWS }, (_, i) => `B-${i},Artikel ${i},2.50,8.1`)].join('\n');
    let settled = false;
    const importing = fetch(`${server.url}/catalog/import`, { method: 'POST', headers: { authorization: `Bearer ${org.writeKey}`, 'content-type': 'text/csv' }, body: file }).then(
      (res) => res.status,
      () => 'cut off' as const,
    ).finally(() => (settled = true));
    // Reads go on while the import writes, and show its first products: that is the moment to cut the power.
    let seen = 0;
    while (seen === 0 && !settled) {
      const res = await fetch(`${server.url}/products?limit=1`, { headers: { authorization: `Bearer ${org.readKey}` } });
      seen = ((await res.json()) as { data: unknown[] }).data.length;
    }
    await server.crash();
    const outcome = await importing;
    // Products show only while the rows are written, and the answer comes after the commit: the cut came first.
    expect(outcome).toBe('cut off');
    expect(productCount(org.id)).toBe(0);
  });
});
