import Database from 'better-sqlite3';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../main/services/index.js';
import { systemClock } from '../main/services/clock.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { createGroupCommit } from '../main/storage/group-commit.js';
import { DISK_FAILURE_EXIT_CODE } from '../main/server.js';
import { startChildServer } from './support/child-server.js';
import { makeDataDir } from './support/server.js';

/** Writes sent after the failure is armed, at most: the server must be gone well before. */
const MAX_WRITES = 300;
const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function newFolder(): { dataDir: string; key: string } {
  const dataDir = makeDataDir();
  folders.push(dataDir);
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  try {
    return { dataDir, key: createServices({ db, clock: systemClock }).organizations.create({ name: 'Filiale' }).writeKey };
  } finally {
    db.close();
  }
}

/** One product; its id when answered 200, the status otherwise, or `gone` when no answer came. */
async function createProduct(url: string, key: string, name: string): Promise<{ id: string } | { status: number } | 'gone'> {
  try {
    const res = await fetch(`${url}/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, price: 250, taxCategory: '2.6' }),
    });
    if (res.status === 200) return { id: ((await res.json()) as { id: string }).id };
    return { status: res.status };
  } catch {
    return 'gone';
  }
}

describe('a flush to disk that fails (test seam STORE_SERVER_FAIL_FLUSH_FILE)', () => {
  for (const target of ['wal', 'database'] as const) {
    it(`of the ${target === 'wal' ? 'WAL' : 'database file'}: writes stop, the server exits without a checkpoint, and after a restart every acknowledged write is there`, async () => {
      const { dataDir, key } = newFolder();
      const trigger = join(dataDir, 'fail-next-flush');
      const server = await startChildServer(dataDir, undefined, { STORE_SERVER_FAIL_FLUSH_FILE: trigger });
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
      const acknowledged = new Map<string, string>();
      const answers: string[] = [];
      for (let i = 0; i < 10; i += 1) {
        const result = await createProduct(server.url, key, `before #${i}`);
        expect(result).toHaveProperty('id');
        if (typeof result === 'object' && 'id' in result) acknowledged.set(result.id, `before #${i}`);
      }

      writeFileSync(trigger, target);
      for (let i = 0; i < MAX_WRITES; i += 1) {
        const result = await createProduct(server.url, key, `after #${i}`);
        if (result === 'gone') break;
        if ('id' in result) acknowledged.set(result.id, `after #${i}`);
        else answers.push(String(result.status));
      }
      const code = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 20_000))]);
      if (code === 'still running') await server.crash();
      expect(code).toBe(DISK_FAILURE_EXIT_CODE);
      // A write that was not acknowledged was refused as a disk failure, never answered otherwise.
      expect(answers.every((status) => status === '503')).toBe(true);
      // No checkpoint at the exit: the WAL still holds the commits, for the next start's recovery.
      expect(statSync(join(dataDir, `${DATABASE_FILE}-wal`)).size).toBeGreaterThan(0);

      const restarted = await startChildServer(dataDir);
      try {
        for (const [id, name] of acknowledged) {
          const res = await fetch(`${restarted.url}/products/${id}`, { headers: { authorization: `Bearer ${key}` } });
          expect(res.status, `acknowledged product ${name}`).toBe(200);
          expect(((await res.json()) as { data: { name: string } }).data.name).toBe(name);
        }
        expect(await createProduct(restarted.url, key, 'after the restart')).toHaveProperty('id');
      } finally {
        await restarted.crash();
      }
    }, 90_000);
  }
});

describe('a BEGIN that fails', () => {
  it('puts the connection back at synchronous=FULL, so a write outside a group keeps its own fsync', () => {
    const { dataDir } = newFolder();
    const db = openDatabase(join(dataDir, DATABASE_FILE));
    const other = new Database(join(dataDir, DATABASE_FILE));
    try {
      const groups = createGroupCommit(db);
      db.pragma('busy_timeout = 0');
      other.exec('BEGIN IMMEDIATE');
      expect(() => groups.join()).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
      other.exec('ROLLBACK');
      groups.flush();
    } finally {
      other.close();
      db.close();
    }
  });
});
