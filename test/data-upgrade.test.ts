import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashKey } from '../main/services/organizations.js';
import { applyMigrations } from '../main/storage/migrate.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { migrations } from '../main/storage/migrations/index.js';
import { PROJECT_ROOT, VERSION } from '../main/version.js';
import { api } from './support/api.js';
import { compiled } from './support/compiled-product.js';
import { runCli } from './support/cli.js';
import { freePort } from './support/processes.js';
import { makeDataDir, startTestServer, type TestServer } from './support/server.js';

/**
 * An app update opens the data folder of whatever release ran before it; a
 * downgrade must leave the folder as it found it.
 */

const folders: string[] = [];
const servers: TestServer[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  // A server that wrongly started on the newer database must not outlive its test.
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const server of servers.splice(0)) await server.stop();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = makeDataDir();
  folders.push(dir);
  return dir;
}

const READ_KEY = 'rk_written-by-the-first-release';
const CREATED = '2025-01-06T08:00:00.000Z';

/** A data folder as the first release left it: only migration 0001 applied, by the real migration code, with data in it. */
function firstReleaseFolder(): string {
  const dir = dataDir();
  const db = new Database(join(dir, DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  applyMigrations(db, migrations.slice(0, 1));
  db.prepare("INSERT INTO organizations (id, name, features, created_at) VALUES ('org-1', 'Bakery Meier', '[]', ?)").run(CREATED);
  db.prepare("INSERT INTO api_keys (id, org_id, kind, key_hash, active, created_at) VALUES ('key-1', 'org-1', 'read', ?, 1, ?)").run(hashKey(READ_KEY), CREATED);
  db.prepare("INSERT INTO categories (id, org_id, name, deleted, createdate, lastupdate) VALUES ('cat-1', 'org-1', 'Bread', 0, ?, ?)").run(CREATED, CREATED);
  db.prepare(
    `INSERT INTO products (id, org_id, name, price, tax_category, category, barcode, barcode_aliases, deleted, createdate, lastupdate)
     VALUES ('prod-1', 'org-1', 'Rye loaf', 450, '2.6', 'cat-1', '7610000000017', NULL, 0, ?, ?)`,
  ).run(CREATED, CREATED);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return dir;
}

describe('opening the data folder of an earlier release', () => {
  it('brings a database of the first release up to date and serves its data', async () => {
    const dir = firstReleaseFolder();
    const server = await startTestServer({ dataDir: dir });
    servers.push(server);
    const client = api(server.url, READ_KEY);

    const product = await client.get('/products/prod-1');
    expect(product.status).toBe(200);
    expect(product.body.data).toMatchObject({ id: 'prod-1', name: 'Rye loaf', price: 450, taxCategory: '2.6', category: 'cat-1', barcode: '7610000000017', deleted: false, createdate: CREATED });
    const byBarcode = await client.get('/products?barcode=7610000000017');
    expect(byBarcode.body.data.map((p: { id: string }) => p.id)).toEqual(['prod-1']);
    const categories = await client.get('/categories');
    expect(categories.body.data).toMatchObject([{ id: 'cat-1', name: 'Bread' }]);

    const versions = server.sqlite().prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
    expect(versions).toEqual(migrations.map((m) => m.version));
  });
});

/** Kept answers as release 32 stored them: in key order, a WITHOUT ROWID table; the rows stay as they are. */
function keptAnswersAsRelease32(file: string): void {
  const db = new Database(file);
  db.exec(`
    CREATE TABLE idempotency_keys_v32 (
      org_id TEXT NOT NULL, api_key_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER NOT NULL,
      body TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT, sender TEXT, entry_seq INTEGER,
      PRIMARY KEY (org_id, api_key_id, key)
    ) WITHOUT ROWID;
    INSERT INTO idempotency_keys_v32 SELECT org_id, api_key_id, key, fingerprint, status, body, created_at, expires_at, sender, entry_seq FROM idempotency_keys;
    DROP TABLE idempotency_keys;
    ALTER TABLE idempotency_keys_v32 RENAME TO idempotency_keys;
    CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
    CREATE INDEX idempotency_keys_sender ON idempotency_keys (org_id, sender, entry_seq) WHERE sender IS NOT NULL;
    -- What later releases added, which release 32 did not have.
    DROP TABLE catalog_column_maps;
    DELETE FROM schema_migrations WHERE version > 32;
  `);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

describe('opening the data folder of release 32, whose kept answers were stored in key order', () => {
  it('keeps every answer: a repeat is still replayed, another body with the same key still refused', async () => {
    const dir = dataDir();
    const first = await startTestServer({ dataDir: dir });
    const org = first.createOrg();
    first.createStores(org.id, ['door']);
    const sale = (price: number) => ({ store: 'door', products: [{ productId: 'p-1', quantity: 1, title: 'Brot', price, taxRate: 0.026, deposit: 0 }] });
    const send = (url: string, key: string, body: unknown) =>
      api(url, org.writeKey).request('POST', '/orders', {
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', 'idempotency-key': key, 'sync-acknowledged-below': '1' },
      });
    const pushed = await send(first.url, 'sync-kasse-1-5', sale(350));
    const plain = await send(first.url, 'till-7', sale(420));
    expect([pushed.status, plain.status]).toEqual([200, 200]);
    await first.stop();
    keptAnswersAsRelease32(join(dir, DATABASE_FILE));

    const upgraded = await startTestServer({ dataDir: dir });
    servers.push(upgraded);
    for (const [key, body, answer] of [['sync-kasse-1-5', sale(350), pushed], ['till-7', sale(420), plain]] as const) {
      const again = await send(upgraded.url, key, body);
      expect(again.status, key).toBe(200);
      expect(again.body, key).toEqual(answer.body);
      expect(again.headers.get('idempotent-replayed'), key).toBe('true');
      expect((await send(upgraded.url, key, sale(999))).status, key).toBe(422);
    }
    const db = upgraded.sqlite();
    expect(db.prepare('SELECT count(*) FROM orders').pluck().get()).toBe(2);
    expect(db.prepare('SELECT key FROM idempotency_keys ORDER BY key').pluck().all()).toEqual(['sync-kasse-1-5', 'till-7']);
    expect(db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'idempotency_keys'").pluck().get()).not.toMatch(/WITHOUT ROWID/);
  });
});

describe('opening the data folder of a newer release (a downgrade)', () => {
  const newest = migrations.at(-1)!.version;
  const refusal = (file: string) =>
    `${file} was written by a newer release of Store Server (database version ${newest + 6}); ` +
    `this release (${VERSION}) knows database versions up to ${newest}. Nothing was changed. ` +
    'Install the newer release again, or restore a backup of the data folder made with this release.';

  /** A data folder whose database a later release has changed. */
  function newerReleaseFolder(): { dir: string; file: string } {
    const dir = dataDir();
    const file = join(dir, DATABASE_FILE);
    const db = openDatabase(file);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from a later release', ?)").run(newest + 6, CREATED);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    return { dir, file };
  }

  it('refuses to start, names both versions and leaves the database file as it was', async () => {
    const { dir, file } = newerReleaseFolder();
    const before = readFileSync(file);

    const child = spawn(process.execPath, [compiled('main/start.js')], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: dir, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect(code, output).toBe(1);
    expect(output.trim()).toBe(`Not started: ${refusal(file)}`);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses administration commands the same way', async () => {
    const { dir, file } = newerReleaseFolder();
    const before = readFileSync(file);
    const result = await runCli(dir, ['org', 'list']);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(refusal(file));
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});
