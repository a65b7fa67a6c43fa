import Database from 'better-sqlite3';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../main/storage/database.js';
import { api } from './support/api.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { makeDataDir, startTestServer } from './support/server.js';
import { buildShop, sellMonth } from './support/settlement-shop.js';

const dataDir = makeDataDir();
let child: ChildServer | undefined;
afterAll(async () => {
  await child?.crash();
});

/** What the data folder holds of settlements, read with a connection of the test's own while no server runs. */
function settledRows() {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    return {
      settlements: count('settlements'),
      amounts: count('settlement_amounts'),
      lines: count('settlement_lines'),
      orders: count('settled_orders'),
      twice: db.prepare("SELECT count(*) FROM (SELECT 1 FROM settlement_lines WHERE kind = 'sale' GROUP BY order_id, line HAVING count(*) > 1)").pluck().get(),
    };
  } finally {
    db.close();
  }
}

describe('a power cut during POST /settlements', () => {
  it('leaves no settlement, and the next one takes every line once', async () => {
    const setup = await startTestServer({ dataDir });
    const writeKey = setup.createOrg().writeKey;
    const shop = await buildShop(api(setup.url, writeKey));
    await sellMonth(api(setup.url, writeKey), shop);
    await setup.stop();

    child = await startChildServer(dataDir, undefined, { STORE_SERVER_CRASH_AT: 'settlement-half-written' });
    const dying = child.child;
    const answer = await api(child.url, writeKey).post('/settlements', { to: new Date().toISOString() }).then(
      (res) => res.status,
      () => 'no answer',
    );
    expect(answer).toBe('no answer');
    if (dying.exitCode === null && dying.signalCode === null) await once(dying, 'exit');
    expect(dying.signalCode).toBe('SIGKILL');
    child = undefined;
    expect(settledRows()).toEqual({ settlements: 0, amounts: 0, lines: 0, orders: 0, twice: 0 });

    child = await startChildServer(dataDir);
    const write = api(child.url, writeKey);
    const settled = await write.post('/settlements', { to: new Date().toISOString() });
    expect(settled.status).toBe(201);
    expect((await write.get(`/settlements/${settled.body.id}`)).body.data).toMatchObject({ number: 1, totals: { gross: 9501, margin: 2050, payout: 7451 } });
    expect((await write.post('/settlements', { to: new Date().toISOString() })).status).toBe(409);
    await child.crash();
    child = undefined;
    // Six lines with a supplier in the four sales taken; the pending and the deleted order are not looked at.
    expect(settledRows()).toEqual({ settlements: 1, amounts: 5, lines: 6, orders: 4, twice: 0 });
  });
});
