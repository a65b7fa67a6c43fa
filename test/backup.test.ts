import Database from 'better-sqlite3';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../main/services/clock.js';
import { createServices } from '../main/services/index.js';
import { openDatabase } from '../main/storage/database.js';
import { api, collectPages, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { imageForm, makeImage, nameOf } from './support/images.js';
import { makeDataDir, startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;
const folders: string[] = [];
const newFolder = () => {
  const dir = makeDataDir();
  folders.push(dir);
  return dir;
};

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  write = api(server.url, org.writeKey);
});
afterAll(async () => {
  await server.destroy();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('backs up under write load; the restored folder serves the same data', async () => {
    const withImage = (await write.post('/products', { name: 'Bild', price: 250, taxCategory: '2.6' })).body.id as string;
    const png = await makeImage('png');
    const uploaded = await write.request('POST', `/products/${withImage}/image`, { body: imageForm(png, 'image/png') });
    expect(uploaded.status).toBe(200);

    // Four tills keep selling while the backup runs.
    const acknowledged: string[] = [];
    let writing = true;
    const till = async (n: number) => {
      for (let i = 0; writing; i += 1) {
        const res = await write.post('/products', { name: `Till ${n} #${i}`, price: 100 + i, taxCategory: '8.1' });
        expect(res.status).toBe(200);
        acknowledged.push(res.body.id as string);
      }
    };
    const tills = [1, 2, 3, 4].map(till);
    while (acknowledged.length < 20) await new Promise((r) => setTimeout(r, 10));
    const before = [...acknowledged, withImage];
    const backupDir = join(newFolder(), 'backup');
    const backup = await runCli(server.dataDir, ['backup', backupDir, '--json']);
    writing = false;
    await Promise.all(tills);
    expect(backup.status).toBe(0);
    expect(backup.json).toEqual({ folder: backupDir, format: 1, createdAt: expect.any(String), version: expect.any(String), images: 1 });
    expect(acknowledged.length).toBeGreaterThan(before.length);

    // Every write acknowledged before the backup started is in it, with its outbox entry, and the copy is sound.
    const copy = new Database(join(backupDir, 'retail.sqlite'), { readonly: true });
    const inCopy = new Set(copy.prepare('SELECT id FROM products').pluck().all() as string[]);
    const queued = new Set(copy.prepare("SELECT resource_id FROM outbox WHERE resource = 'product'").pluck().all() as string[]);
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
    for (const id of before) {
      expect(inCopy.has(id)).toBe(true);
      expect(queued.has(id)).toBe(true);
    }

    const fresh = newFolder();
    const restore = await runCli(fresh, ['restore', backupDir, '--json']);
    expect(restore.status).toBe(0);
    expect(restore.json).toMatchObject({ folder: backupDir, images: 1 });
    const restored = await startTestServer({ dataDir: fresh });
    try {
      const there = api(restored.url, org.readKey);
      const served = (await collectPages<{ id: string }>(there, '/products?limit=500')).items;
      expect(new Set(served.map((p) => p.id))).toEqual(inCopy);
      const here = (await collectPages<{ id: string }>(api(server.url, org.readKey), '/products?limit=500')).items;
      const original = new Map(here.map((p) => [p.id, p]));
      for (const product of served) expect(product).toEqual(original.get(product.id));
      const image = await fetch(`${restored.url}/images/${nameOf(uploaded.body.data.url)}`);
      expect(Buffer.from(await image.arrayBuffer())).toEqual(png);
    } finally {
      await restored.destroy();
    }
  });

  it('refuses to restore while a server holds the data folder, and over data without --replace', async () => {
    const backupDir = join(newFolder(), 'b');
    expect((await runCli(server.dataDir, ['backup', backupDir])).status).toBe(0);
    const busy = await runCli(server.dataDir, ['restore', backupDir, '--replace', '--json']);
    expect(busy.status).toBe(1);
    expect(busy.json.error).toMatch(/is in use by a server \(process \d+, since .*\); stop it first$/);
    expect(existsSync(join(server.dataDir, 'retail.sqlite'))).toBe(true);

    const stopped = newFolder();
    const other = openDatabase(join(stopped, 'retail.sqlite'));
    createServices({ db: other, clock: systemClock }).organizations.create({ name: 'Other' });
    other.close();
    const over = await runCli(stopped, ['restore', backupDir, '--json']);
    expect(over.status).toBe(1);
    expect(over.json.error).toMatch(/already holds a database; add --replace/);
    expect((await runCli(stopped, ['restore', backupDir, '--replace', '--json'])).status).toBe(0);
    const restored = new Database(join(stopped, 'retail.sqlite'), { readonly: true });
    const names = restored.prepare('SELECT id, name FROM organizations').all() as { id: string; name: string }[];
    restored.close();
    expect(names.map((o) => o.id)).toContain(org.id);
    expect(names.map((o) => o.name)).not.toContain('Other');
  });

  it('does not start a server on a folder another live process holds, and takes over the lock of a dead one', async () => {
    const dataDir = newFolder();
    // The parent of this test process is alive and is not this process.
    writeFileSync(join(dataDir, 'data.lock'), JSON.stringify({ pid: process.ppid, holder: 'restore', since: 'now', token: 't' }));
    await expect(startTestServer({ dataDir })).rejects.toThrow(`${dataDir} is in use by a restore (process ${process.ppid}, since now); stop it first`);
    writeFileSync(join(dataDir, 'data.lock'), JSON.stringify({ pid: 2 ** 22 + 1, holder: 'server', since: 'then', token: 't' }));
    const started = await startTestServer({ dataDir });
    expect(JSON.parse(readFileSync(join(dataDir, 'data.lock'), 'utf8'))).toMatchObject({ pid: process.pid, holder: 'server' });
    await started.stop();
    expect(existsSync(join(dataDir, 'data.lock'))).toBe(false);
  });
});
