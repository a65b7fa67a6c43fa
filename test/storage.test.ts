import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { migrations } from '../main/storage/migrations/index.js';
import { api, type Api } from './support/api.js';
import { makeDataDir, startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  write = api(server.url, org.writeKey);
});
afterAll(async () => {
  await server.destroy();
});

/** A second, writable connection to the server's file, used to inject a storage fault. */
function withConnection<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(join(server.dataDir, DATABASE_FILE));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const count = (table: string) =>
  withConnection((db) => db.prepare(`SELECT count(*) AS n FROM ${table} WHERE org_id = ?`).get(org.id) as { n: number }).n;

describe('outbox', () => {
  it('records each write with operation, resource, id, the body as applied and the time', async () => {
    const id = (await write.post('/products', { name: 'Brot', price: 350, taxCategory: '2.6', barcode: 'BROT-1' })).body.id;
    await write.post(`/products/${id}`, { price: 390 });
    await write.delete(`/products/${id}`);
    const rows = withConnection((db) =>
      db.prepare('SELECT resource, resource_id, operation, body, created_at, state FROM outbox WHERE resource_id = ? ORDER BY seq').all(id),
    ) as { resource: string; resource_id: string; operation: string; body: string; created_at: string; state: string }[];
    expect(rows.map((r) => [r.resource, r.resource_id, r.operation, r.state])).toEqual([
      ['product', id, 'create', 'pending'],
      ['product', id, 'update', 'pending'],
      ['product', id, 'delete', 'pending'],
    ]);
    expect(JSON.parse(rows[0]!.body)).toMatchObject({ id, name: 'Brot', price: 350, taxCategory: '2.6', barcode: 'brot-1', imageUrl: '' });
    expect(JSON.parse(rows[1]!.body)).toEqual({ price: 390 });
    expect(JSON.parse(rows[2]!.body)).toEqual({});
    for (const row of rows) expect(row.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
  });

  it('stores neither the product nor the entry when the outbox insert fails', async () => {
    const products = count('products');
    const entries = count('outbox');
    withConnection((db) => db.exec("CREATE TRIGGER refuse_outbox BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'outbox refused'); END"));
    try {
      const res = await write.post('/products', { name: 'Lost', price: 1, taxCategory: '0' });
      expect(res.status).toBe(500);
      expect(res.body.message).toBe('Unknown Error');
    } finally {
      withConnection((db) => db.exec('DROP TRIGGER refuse_outbox'));
    }
    expect(count('products')).toBe(products);
    expect(count('outbox')).toBe(entries);
  });

  it('stores no entry when the product write fails, and keeps the old row on a failed update', async () => {
    const id = (await write.post('/products', { name: 'Stable', price: 10, taxCategory: '0' })).body.id;
    const entries = count('outbox');
    withConnection((db) => db.exec("CREATE TRIGGER refuse_update BEFORE UPDATE ON products BEGIN SELECT RAISE(ABORT, 'no'); END"));
    try {
      expect((await write.post(`/products/${id}`, { price: 99 })).status).toBe(500);
    } finally {
      withConnection((db) => db.exec('DROP TRIGGER refuse_update'));
    }
    expect(count('outbox')).toBe(entries);
    expect((await write.get(`/products/${id}`)).body.data.price).toBe(10);
    expect((await write.get('/health')).status).toBe(200);
  });
});

describe('durability', () => {
  it('keeps the data across a restart', async () => {
    const id = (await write.post('/products', { name: 'Persistent', price: 42, taxCategory: '3.8' })).body.id;
    server = await server.restart();
    const res = await api(server.url, org.readKey).get(`/products/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, name: 'Persistent', price: 42, taxCategory: '3.8' });
    write = api(server.url, org.writeKey);
  });

  it('runs in WAL mode with foreign keys on', () => {
    const db = openDatabase(join(makeDataDir(), DATABASE_FILE));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
    } finally {
      db.close();
    }
  });
});

describe('migrations', () => {
  it('are numbered in order and applied once each', () => {
    const versions = migrations.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    const file = join(makeDataDir(), DATABASE_FILE);
    openDatabase(file).close();
    const db = openDatabase(file);
    try {
      expect(db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all()).toEqual(versions);
    } finally {
      db.close();
    }
  });

  it('produce the committed schema', async () => {
    const db = openDatabase(join(makeDataDir(), DATABASE_FILE));
    try {
      const schema = db
        .prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type DESC, name")
        .pluck()
        .all()
        .join(';\n\n');
      await expect(schema + ';\n').toMatchFileSnapshot('./__snapshots__/schema.sql');
    } finally {
      db.close();
    }
  });
});
