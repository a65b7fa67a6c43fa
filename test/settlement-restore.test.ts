import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { runCli } from './support/cli.js';
import { startTestServer, type TestServer } from './support/server.js';
import { IBANS, buildShop, sell, sellMonth } from './support/settlement-shop.js';

const folders: string[] = [];
let server: TestServer | undefined;
let key: string;
afterAll(async () => {
  await server?.destroy();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('settlements across a restore, and from the CLI', () => {
  it('keeps a settlement made after the backup when the backup is restored: no line is settled again', async () => {
    server = await startTestServer();
    const org = server.createOrg();
    key = org.writeKey;
    let write = api(server.url, org.writeKey);
    const shop = await buildShop(write);
    await sellMonth(write, shop);
    const backupDir = join(mkdtempSync(join(tmpdir(), 'settlement-backup-')), 'backup');
    folders.push(backupDir);
    expect((await runCli(server.dataDir, ['backup', backupDir, '--json'])).status).toBe(0);

    const settled = await write.post('/settlements', { to: new Date().toISOString() });
    expect(settled.status).toBe(201);
    const before = (await write.get(`/settlements/${settled.body.id}`)).body.data;

    await server.stop();
    const restore = await runCli(server.dataDir, ['restore', backupDir, '--replace', '--json']);
    expect(restore.status, restore.stderr).toBe(0);
    server = await server.restart();
    write = api(server.url, org.writeKey);

    expect((await write.get(`/settlements/${settled.body.id}`)).body.data).toEqual(before);
    const again = await write.post('/settlements', { to: new Date().toISOString() });
    expect(again.status).toBe(409);
    await sell(write, shop.stores.dorf, [[shop.products.saft, 1]]);
    const next = await write.post('/settlements', { to: new Date().toISOString() });
    expect(next.status).toBe(201);
    expect((await write.get(`/settlements/${next.body.id}`)).body.data).toMatchObject({ number: 2, totals: { gross: 450, margin: 68, payout: 382 } });
    const twice = server.sqlite().prepare("SELECT order_id, line FROM settlement_lines WHERE kind = 'sale' GROUP BY order_id, line HAVING count(*) > 1").all();
    expect(twice).toEqual([]);

    // The CLI: a settlement, the list, and the payout file on standard output.
    await sell(write, shop.stores.markt, [[shop.products.kaese, 2]]);
    await write.post('/payout-account', { name: 'Hofladen Dorf AG', iban: IBANS.shop });
    await server.stop();
    const future = await runCli(server.dataDir, ['settlement', 'create', org.id, '--to', '2999-01-01T00:00:00Z']);
    expect(future.status).toBe(1);
    expect(future.stderr).toMatch(/in the future/);
    const created = await runCli(server.dataDir, ['settlement', 'create', org.id, '--to', new Date().toISOString(), '--json']);
    expect(created.status, created.stderr).toBe(0);
    // 2 kg x 28.90 at the Markt, 25 %: 57.80 - 14.45.
    expect(created.json).toMatchObject({ number: 3, totals: { gross: 5780, margin: 1445, payout: 4335 } });
    const text = await runCli(server.dataDir, ['settlement', 'list', org.id]);
    expect(text.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/)[0])).toEqual(['3', '2', '1']);
    const file = await runCli(server.dataDir, ['settlement', 'payout-file', org.id, created.json.id]);
    expect(file.status, file.stderr).toBe(0);
    expect(file.stdout).toMatch(/^<\?xml/);
    expect(file.stdout).toContain('<InstdAmt Ccy="CHF">43.35</InstdAmt>');
    expect((await runCli(server.dataDir, ['settlement', 'payout-file', org.id, 'nothing'])).status).not.toBe(0);
  });

  it('restores a backup that already holds some of the settlements without doubling their lines', async () => {
    const backupDir = join(mkdtempSync(join(tmpdir(), 'settlement-backup-')), 'backup');
    folders.push(backupDir);
    expect((await runCli(server!.dataDir, ['backup', backupDir, '--json'])).status).toBe(0);
    server = await server!.restart();
    const store = (server.sqlite().prepare('SELECT store FROM settlement_lines LIMIT 1').get() as { store: string }).store;
    const product = (server.sqlite().prepare('SELECT product_id FROM settlement_lines LIMIT 1').get() as { product_id: string }).product_id;
    await sell(api(server.url, key), store, [[product, 1]]);
    expect((await api(server.url, key).post('/settlements', { to: new Date().toISOString() })).status).toBe(201);
    const count = () => server!.sqlite().prepare('SELECT settlement_id, count(*) AS n FROM settlement_lines GROUP BY settlement_id ORDER BY settlement_id').all();
    const before = count();
    await server.stop();
    expect((await runCli(server.dataDir, ['restore', backupDir, '--replace', '--json'])).status).toBe(0);
    server = await server.restart();
    expect(count()).toEqual(before);
    expect(server.sqlite().prepare('SELECT number FROM settlements ORDER BY number').pluck().all()).toEqual([1, 2, 3, 4]);
  });
});
