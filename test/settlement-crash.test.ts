import Database from 'better-sqlite3';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../main/storage/database.js';
import { api } from './support/api.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { runCli } from './support/cli.js';
import { makeDataDir, startTestServer } from './support/server.js';
import { buildShop, sellMonth } from './support/settlement-shop.js';

const dataDir = makeDataDir();
const backups = mkdtempSync(join(tmpdir(), 'settlement-crash-backups-'));
let child: ChildServer | undefined;
afterAll(async () => {
  await child?.crash();
  rmSync(backups, { recursive: true, force: true });
});

/** What the data folder holds of settlements, read with a connection of the test's own while no server runs. */
function settledRows(folder = dataDir) {
  const db = new Database(join(folder, DATABASE_FILE), { readonly: true });
  try {
    const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    return {
      settlements: count('settlements'),
      amounts: count('settlement_amounts'),
      lines: count('settlement_lines'),
      orders: count('settled_orders'),
      unfinished: db.prepare('SELECT count(*) FROM settlements WHERE unfinished = 1').pluck().get(),
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
    expect(settledRows()).toEqual({ settlements: 0, amounts: 0, lines: 0, orders: 0, unfinished: 0, twice: 0 });

    child = await startChildServer(dataDir);
    const write = api(child.url, writeKey);
    const settled = await write.post('/settlements', { to: new Date().toISOString() });
    expect(settled.status).toBe(201);
    expect((await write.get(`/settlements/${settled.body.id}`)).body.data).toMatchObject({ number: 1, totals: { gross: 9501, margin: 2050, payout: 7451 } });
    expect((await write.post('/settlements', { to: new Date().toISOString() })).status).toBe(409);
    await child.crash();
    child = undefined;
    // Six lines with a supplier in the four sales taken; the pending and the deleted order are not looked at.
    expect(settledRows()).toEqual({ settlements: 1, amounts: 5, lines: 6, orders: 4, unfinished: 0, twice: 0 });
  });
});

/** Starts a server on `folder` that SIGKILLs itself at `instant` during a settlement, and waits for it to die. */
async function settleUntilCrash(folder: string, writeKey: string, instant: string) {
  const dying = await startChildServer(folder, undefined, { STORE_SERVER_CRASH_AT: instant });
  const answer = await api(dying.url, writeKey).post('/settlements', { to: new Date().toISOString() }).then(
    (res) => res.status,
    () => 'no answer',
  );
  if (dying.child.exitCode === null && dying.child.signalCode === null) await once(dying.child, 'exit');
  return { answer, signal: dying.child.signalCode };
}

const backup = async (folder: string, name: string) => {
  const target = join(backups, name);
  const made = await runCli(folder, ['backup', target, '--json']);
  expect(made.status, made.stderr).toBe(0);
  return target;
};

const restore = async (folder: string, from: string) => {
  const restored = await runCli(folder, ['restore', from, '--replace', '--json']);
  expect(restored.status, restored.stderr).toBe(0);
};

describe('a power cut after a settlement\'s parts were committed, before it was finished', () => {
  it('drops the unfinished settlement at the next start and across restores, and the next one takes every line once', async () => {
    const folder = makeDataDir();
    const setup = await startTestServer({ dataDir: folder });
    const org = setup.createOrg();
    const shop = await buildShop(api(setup.url, org.writeKey));
    await sellMonth(api(setup.url, org.writeKey), shop);
    await setup.stop();
    const beforeSettling = await backup(folder, 'before-settling');

    expect(await settleUntilCrash(folder, org.writeKey, 'settlement-part-committed')).toEqual({ answer: 'no answer', signal: 'SIGKILL' });
    // Its lines and orders are on disk, under a settlement no one sees.
    expect(settledRows(folder)).toEqual({ settlements: 1, amounts: 0, lines: 6, orders: 4, unfinished: 1, twice: 0 });
    const listed = await runCli(folder, ['settlement', 'list', org.id, '--json']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.json).toEqual([]);
    const holdingUnfinished = await backup(folder, 'holding-unfinished');

    // Restored over the cut-off folder: the unfinished settlement is not kept, so its sales are not settled.
    await restore(folder, beforeSettling);
    expect(settledRows(folder)).toEqual({ settlements: 0, amounts: 0, lines: 0, orders: 0, unfinished: 0, twice: 0 });

    // Cut off again, then started: the start drops it and gives its sales back.
    expect(await settleUntilCrash(folder, org.writeKey, 'settlement-part-committed')).toEqual({ answer: 'no answer', signal: 'SIGKILL' });
    expect(settledRows(folder)).toMatchObject({ settlements: 1, lines: 6, unfinished: 1 });
    child = await startChildServer(folder);
    let write = api(child.url, org.writeKey);
    expect((await write.get('/settlements')).body.data).toEqual([]);
    const settled = await write.post('/settlements', { to: new Date().toISOString() });
    expect(settled.status).toBe(201);
    const whole = (await write.get(`/settlements/${settled.body.id}`)).body.data;
    expect(whole).toMatchObject({ number: 1, totals: { gross: 9501, margin: 2050, payout: 7451 } });
    expect((await write.post('/settlements', { to: new Date().toISOString() })).status).toBe(409);
    await child.crash();
    child = undefined;

    // A backup taken while a settlement was written, restored after one was finished: the finished one stays, whole and once.
    await restore(folder, holdingUnfinished);
    expect(settledRows(folder)).toEqual({ settlements: 1, amounts: 5, lines: 6, orders: 4, unfinished: 0, twice: 0 });
    child = await startChildServer(folder);
    write = api(child.url, org.writeKey);
    expect((await write.get(`/settlements/${settled.body.id}`)).body.data).toEqual(whole);
    expect((await write.post('/settlements', { to: new Date().toISOString() })).status).toBe(409);
  });
});
