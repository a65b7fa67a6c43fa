import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, createApp } from '../main/app.js';
import { IMAGES_DIR, openImageStore } from '../main/images/store.js';
import { localNames } from '../main/security/local-names.js';
import { systemClock } from '../main/services/clock.js';
import { DATABASE_FILE, openDatabase, type Db } from '../main/storage/database.js';
import { api, type Api } from './support/api.js';
import { makeDataDir } from './support/server.js';
import { standardError } from './support/shapes.js';
import { openSecretBox } from '../main/security/secret-box.js';

// The server is built over a database handle the test holds, so that SQLite's
// own limits (max_page_count, query_only) can make its disk full or read-only.
let dataDir: string;
let db: Db;
let server: Server;
let write: Api;
let productCount: () => number;
let outboxCount: () => number;

beforeAll(async () => {
  dataDir = makeDataDir();
  db = openDatabase(join(dataDir, DATABASE_FILE));
  const { app, services } = createApp({
    db,
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    images: openImageStore(join(dataDir, IMAGES_DIR)),
    secrets: openSecretBox(dataDir),
    localNames: localNames({ host: '127.0.0.1', allowedHosts: [], allowedOrigins: [] }),
  });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const org = services.organizations.create({ name: 'Disk test' });
  write = api(`http://127.0.0.1:${(server.address() as AddressInfo).port}${API_PREFIX}`, org.writeKey);
  productCount = () => db.prepare('SELECT count(*) FROM products').pluck().get() as number;
  outboxCount = () => db.prepare("SELECT count(*) FROM outbox WHERE resource = 'product'").pluck().get() as number;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const product = (i: number) => ({ name: `Artikel ${i} ${'x'.repeat(400)}`, price: 100 + i, taxCategory: '8.1' });

describe('a full disk', () => {
  it('answers writes 503 in the standard shape, keeps serving reads and recovers once space is back', async () => {
    expect((await write.post('/products', product(0))).status).toBe(200);
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);

    let acknowledged = 1;
    let refused: Awaited<ReturnType<Api['post']>> | undefined;
    for (let i = 1; i < 500 && refused === undefined; i += 1) {
      const res = await write.post('/products', product(i));
      if (res.status === 200) acknowledged += 1;
      else refused = res;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.body).toEqual(standardError(503, /^The change was not saved: the disk of the store PC is full\. Reading still works/));
    expect(productCount()).toBe(acknowledged);
    expect(outboxCount()).toBe(acknowledged);

    const list = await write.get('/products?limit=5000');
    expect(list.status).toBe(200);
    expect(list.body.meta.returned).toBe(acknowledged);
    expect((await write.get('/health')).status).toBe(200);

    db.pragma(`max_page_count = ${pages * 100}`);
    expect((await write.post('/products', product(1000))).status).toBe(200);
    expect(productCount()).toBe(acknowledged + 1);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

describe('a full disk under concurrent writes', () => {
  it('answers each write of a group that cannot be stored 503 and stores exactly the acknowledged ones', async () => {
    const before = productCount();
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 2}`);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => write.post('/products', product(3000 + i))));
    db.pragma(`max_page_count = ${pages * 100}`);

    const acknowledged = answers.filter((res) => res.status === 200).length;
    const refused = answers.filter((res) => res.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual(standardError(503, /^The change was not saved: the disk of the store PC is full\. Reading still works/));
    }
    expect(productCount()).toBe(before + acknowledged);
    expect(outboxCount()).toBe(before + acknowledged);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

describe('a read-only data folder', () => {
  it('answers writes 503 saying so, serves reads and recovers', async () => {
    const before = productCount();
    db.pragma('query_only = 1');
    const res = await write.post('/products', product(2000));
    expect(res.status).toBe(503);
    expect(res.body).toEqual(standardError(503, /^The change was not saved: the data folder of the store PC is read-only\. Reading still works/));
    expect((await write.get('/products')).status).toBe(200);
    expect(productCount()).toBe(before);
    db.pragma('query_only = 0');
    expect((await write.post('/products', product(2001))).status).toBe(200);
  });
});
