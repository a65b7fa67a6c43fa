import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../main/config.js';
import { PROJECT_ROOT } from '../main/version.js';
import { runCli } from './support/cli.js';
import { compiled } from './support/compiled-product.js';
import { runProcess } from './support/processes.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { DEFAULT_GROUP_COMMIT } from '../main/storage/group-commit.js';
import { api, type Api, type ApiResponse } from './support/api.js';
import { imageForm, makeImage, nameOf } from './support/images.js';
import { makeDataDir, startTestServer, type TestOrg, type TestServer } from './support/server.js';

// A long window, so that writes sent together surely share a group on a busy machine.
const WINDOW_MS = 300;

let grouped: TestServer;
let org: TestOrg;
let write: Api;
let store: string;

beforeAll(async () => {
  grouped = await startTestServer({ groupCommitMs: WINDOW_MS });
  org = grouped.createOrg();
  write = api(grouped.url, org.writeKey);
  store = (await write.post('/stores', { name: 'Filiale Thun' })).body.id as string;
});
afterAll(async () => {
  await grouped.destroy();
});

const sale = (n: number, storeId = store) => ({ store: storeId, products: [{ productId: `p-${n}`, quantity: 1, title: 'Brot', price: 350, taxRate: 0.026, deposit: 0 }] });
const keyed = (client: Api, path: string, body: unknown, key: string) =>
  client.request('POST', path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'idempotency-key': key } });
const walBytes = (server: TestServer) => statSync(join(server.dataDir, `${DATABASE_FILE}-wal`)).size;
/** An answer without the instant it was given, to compare two answers to the same request. */
const comparable = (res: ApiResponse) => ({ status: res.status, body: { ...res.body, timestamp: undefined } });

describe('group commit', () => {
  it('stores and answers every one of many concurrent writes, in far fewer commits than writes', async () => {
    const single = await startTestServer({ groupCommitMs: 0 });
    try {
      const writes = async (server: TestServer, tag: string) => {
        const owner = server === grouped ? org : server.createOrg();
        const client = api(server.url, owner.writeKey);
        const storeId = server === grouped ? store : ((await client.post('/stores', { name: 'Filiale Biel' })).body.id as string);
        const walBefore = walBytes(server);
        const answers = await Promise.all([
          ...Array.from({ length: 30 }, (_, n) => keyed(client, '/orders', sale(n, storeId), `${tag}-sale-${n}`)),
          ...Array.from({ length: 10 }, (_, n) => client.post('/products', { name: `${tag} Artikel ${n}`, price: 100 + n, taxCategory: '8.1' })),
        ]);
        return { client, answers, walGrowth: walBytes(server) - walBefore };
      };
      const together = await writes(grouped, 'grouped');
      const alone = await writes(single, 'single');

      for (const { client, answers } of [together, alone]) {
        expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));
        for (const res of answers.slice(0, 30)) expect((await client.get(`/orders/${res.body.id}`)).status).toBe(200);
        for (const res of answers.slice(30)) expect((await client.get(`/products/${res.body.id}`)).status).toBe(200);
      }
      const db = grouped.sqlite();
      const ids = together.answers.map((res) => res.body.id as string);
      expect(db.prepare(`SELECT count(*) FROM orders WHERE id IN (${ids.map(() => '?').join(',')})`).pluck().get(...ids)).toBe(30);
      expect(db.prepare(`SELECT count(*) FROM products WHERE id IN (${ids.map(() => '?').join(',')})`).pluck().get(...ids)).toBe(10);
      // Each commit appends its changed pages to the WAL: one commit per write appends many times more.
      expect(together.walGrowth * 4).toBeLessThan(alone.walGrowth);
    } finally {
      await single.destroy();
    }
  });

  it('answers a failing write in a busy group as if it had been alone, and stores the others', async () => {
    const failing = {
      unknownStore: () => keyed(write, '/orders', sale(1, 'no-such-store'), 'fails-unknown-store'),
      invalidBody: () => write.post('/orders', { store, products: [] }),
      unknownOrder: () => write.post('/orders/no-such-order', { paymentState: 'paid' }),
      invalidProduct: () => write.post('/products', { name: 'Ohne Preis', taxCategory: '8.1' }),
    };
    const [answers, refusals] = await Promise.all([
      Promise.all(Array.from({ length: 30 }, (_, n) => keyed(write, '/orders', sale(n), `busy-${n}`))),
      Promise.all(Object.values(failing).map((send) => send())),
    ]);
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));
    const ids = answers.map((res) => res.body.id as string);
    expect(grouped.sqlite().prepare(`SELECT count(*) FROM orders WHERE id IN (${ids.map(() => '?').join(',')})`).pluck().get(...ids)).toBe(30);
    expect(refusals.map((res) => res.status)).toEqual([400, 400, 404, 400]);

    // The same requests, one at a time: the same answers. The keyed refusal is replayed, as it was kept with its group.
    for (const [index, send] of Object.values(failing).entries()) {
      const again = await send();
      expect(comparable(again)).toEqual(comparable(refusals[index]!));
      if (index === 0) expect(again.headers.get('idempotent-replayed')).toBe('true');
    }
    const alone = await keyed(write, '/orders', sale(1, 'no-such-store'), 'fails-unknown-store-alone');
    expect(comparable(alone)).toEqual(comparable(refusals[0]!));
  });

  it('refuses to start on a window that is not a whole number of ms, saying so in one line', async () => {
    const dataDir = makeDataDir();
    const started = await runProcess(process.execPath, [compiled('main/start.js')], { cwd: PROJECT_ROOT, env: { DATA_DIR: dataDir, PORT: '0', SYNC_GROUP_COMMIT_MS: 'soon' } });
    rmSync(dataDir, { recursive: true, force: true });
    expect(started.status).toBe(1);
    expect(started.stderr.trim()).toBe('Not started: SYNC_GROUP_COMMIT_MS must be a whole number of milliseconds from 0 to 1000, not "soon"');
  });

  it('takes its windows from GROUP_COMMIT_MS and SYNC_GROUP_COMMIT_MS and refuses a value that is not a whole number of ms', () => {
    expect(readConfig({ GROUP_COMMIT_MS: '0' }).groupCommitMs).toBe(0);
    expect(readConfig({ SYNC_GROUP_COMMIT_MS: '25' }).syncGroupCommitMs).toBe(25);
    expect(readConfig({})).toMatchObject({ groupCommitMs: undefined, syncGroupCommitMs: undefined });
    for (const name of ['GROUP_COMMIT_MS', 'SYNC_GROUP_COMMIT_MS']) {
      for (const value of ['-1', '2.5', 'soon', '5000']) {
        expect(() => readConfig({ [name]: value })).toThrow(new RegExp(`^${name} must be a whole number of milliseconds from 0 to 1000`));
      }
    }
  });

  it('lets a read answer only once the writes it shows are committed', async () => {
    const name = 'Zopf nur nach dem Commit';
    const created = write.post('/products', { name, price: 480, taxCategory: '2.6' });
    const db = grouped.sqlite();
    const committed = db.prepare('SELECT count(*) FROM products WHERE name = ?').pluck();
    for (;;) {
      const list = await write.get(`/products?limit=1000`);
      expect(list.status).toBe(200);
      if ((list.body.data as { name: string }[]).some((product) => product.name === name)) break;
    }
    // Another connection sees what that read showed: it was durable before it was shown.
    expect(committed.get(name)).toBe(1);
    expect((await created).status).toBe(200);
  });

  it('lets a change-feed page and a product by id show a change only once it is committed, and answers an unknown id after the wait', async () => {
    const product = (await write.post('/products', { name: 'Weggli', price: 90, taxCategory: '2.6' })).body.id as string;
    const since = new Date(Date.now() - 60_000).toISOString();
    const db = grouped.sqlite();
    const stored = db.prepare('SELECT price FROM products WHERE id = ?').pluck();
    const priceIn = (page: ApiResponse) => (page.body.data as { id: string; price: number }[]).find((p) => p.id === product)?.price;

    const changed = write.post(`/products/${product}`, { price: 95 });
    for (;;) {
      const [byId, feed] = await Promise.all([write.get(`/products/${product}`), write.get(`/products?updatedSince=${since}&limit=1000`)]);
      expect([byId.status, feed.status]).toEqual([200, 200]);
      if (byId.body.price === 95 || priceIn(feed) === 95) break;
    }
    expect(stored.get(product)).toBe(95);
    expect((await changed).status).toBe(200);

    // A read held for a group that then finds no such product is answered as any read of an unknown id.
    const again = write.post(`/products/${product}`, { price: 99 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const missing = await Promise.all([1, 2, 3].map(() => write.get('/products/doesnotexist00000000')));
    for (const answer of missing) expect(answer.body).toMatchObject({ statusCode: 404, path: '/api/v1/products/doesnotexist00000000' });
    expect((await again).status).toBe(200);
  });

  it("keeps a replaced image's file when the group it was replaced in fails to commit, and deletes it after a commit", async () => {
    const id = (await write.post('/products', { name: 'Bergkäse', price: 890, taxCategory: '2.6' })).body.id as string;
    const uploaded = await write.request('POST', `/products/${id}/image`, { body: imageForm(await makeImage('png'), 'image/png') });
    expect(uploaded.status).toBe(200);
    const url = uploaded.body.data.url as string;
    const file = join(grouped.dataDir, 'images', nameOf(url));
    // A constraint SQLite checks only at COMMIT makes the group's commit fail, as a full disk would.
    const db = openDatabase(join(grouped.dataDir, DATABASE_FILE));
    db.exec(`CREATE TABLE commit_check_parent (id TEXT PRIMARY KEY);
      CREATE TABLE commit_check (ref TEXT REFERENCES commit_check_parent(id) DEFERRABLE INITIALLY DEFERRED);
      CREATE TRIGGER commit_fails_on_image AFTER UPDATE OF image_url ON products BEGIN INSERT INTO commit_check VALUES ('none'); END;`);
    try {
      const cleared = await write.post(`/products/${id}`, { imageUrl: '' });
      // Not stored, and not answered as stored.
      expect(cleared.status).toBeGreaterThanOrEqual(500);
      expect((await write.get(`/products/${id}`)).body.data.imageUrl).toBe(url);
      expect(existsSync(file)).toBe(true);
      expect((await fetch(url)).status).toBe(200);
    } finally {
      db.exec('DROP TRIGGER commit_fails_on_image; DROP TABLE commit_check; DROP TABLE commit_check_parent;');
      db.close();
    }
    expect((await write.post(`/products/${id}`, { imageUrl: '' })).status).toBe(200);
    expect(existsSync(file)).toBe(false);
  });
});

describe("a store PC's pushed sales and heartbeats at its upstream", () => {
  // A window no run of this test reaches by chance, so what closes a group early is what the test did.
  const SYNC_WINDOW_MS = 1000;
  let hub: TestServer;
  let hubOrg: TestOrg;
  let door: string;

  beforeAll(async () => {
    hub = await startTestServer({ groupCommitMs: 2, syncGroupCommitMs: SYNC_WINDOW_MS });
    hubOrg = hub.createOrg();
    door = (await api(hub.url, hubOrg.writeKey).post('/stores', { name: 'Filiale Aarau' })).body.id as string;
  });
  afterAll(async () => {
    await hub.destroy();
  });

  /** As a store PC's sync worker pushes an outbox entry: a sync key and `Sync-Acknowledged-Below`. */
  const push = (entry: number) =>
    api(hub.url, hubOrg.writeKey).request('POST', '/orders', {
      body: JSON.stringify(sale(entry, door)),
      headers: { 'content-type': 'application/json', 'idempotency-key': `sync-kasse-aarau-${entry}`, 'sync-acknowledged-below': String(entry) },
    });
  const heartbeat = () => {
    const now = new Date().toISOString();
    const state = { device: 'kasse-aarau', name: 'kasse', version: '0.1.0', stores: [door], lastPushAt: now, lastPullAt: now, pending: 0, parked: 0, oldestPendingAt: null, lastSaleAt: now, printers: [], diskFreeBytes: 5e10, databaseBytes: 7e7 };
    return api(hub.url, hubOrg.writeKey).post('/fleet/heartbeat', state);
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const answeredAt = async (answer: Promise<ApiResponse>) => {
    const res = await answer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return performance.now();
  };

  it('wait for company in SYNC_GROUP_COMMIT_MS: a push and a heartbeat are answered only after a push sent later', async () => {
    let entry = 1;
    for (const first of [() => push(entry++), heartbeat]) {
      const firstAnswered = answeredAt(first());
      await pause(200);
      const laterSent = performance.now();
      const laterAnswered = answeredAt(push(entry++));
      expect(await firstAnswered).toBeGreaterThan(laterSent);
      await laterAnswered;
    }
  });

  it("let a till's sale that joins their group close it within the till's own window", async () => {
    const pushed = answeredAt(push(100));
    await pause(100);
    const tillSale = answeredAt(api(hub.url, hubOrg.writeKey).post('/orders', sale(7, door)));
    const windowEnd = pause(SYNC_WINDOW_MS - 300).then(() => 'the push group window ended first');
    expect(await Promise.race([Promise.all([pushed, tillSale]).then(() => 'both answered'), windowEnd])).toBe('both answered');
  });
  it('leave the CLI writing to the same database meanwhile: it waits for a moment between groups instead of failing', async () => {
    const busy = await startTestServer({ syncGroupCommitMs: DEFAULT_GROUP_COMMIT.unattendedWindowMs });
    try {
      const owner = busy.createOrg();
      const client = api(busy.url, owner.writeKey);
      const storeId = (await client.post('/stores', { name: 'Filiale Olten' })).body.id as string;
      let pushing = true;
      let entry = 0;
      // Four store PCs pushing back to back: the hub's groups follow one another with no pause.
      const pushers = Array.from({ length: 4 }, async () => {
        while (pushing) {
          const n = entry++;
          const res = await client.request('POST', '/orders', {
            body: JSON.stringify(sale(n, storeId)),
            headers: { 'content-type': 'application/json', 'idempotency-key': `sync-kasse-olten-${n}`, 'sync-acknowledged-below': String(n) },
          });
          expect(res.status).toBe(200);
        }
      });
      try {
        for (const [flag, expected] of [['--enable', ['barcode-aliases']], ['--disable', []]] as const) {
          const changed = await runCli(busy.dataDir, ['org', 'features', owner.id, flag, 'barcode-aliases', '--json']);
          expect(changed.status, changed.stderr).toBe(0);
          expect(changed.json).toMatchObject({ id: owner.id, features: expected });
        }
      } finally {
        pushing = false;
        await Promise.all(pushers);
      }
      expect(entry).toBeGreaterThan(10);
    } finally {
      await busy.destroy();
    }
  });
});
