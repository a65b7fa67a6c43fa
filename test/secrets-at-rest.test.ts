import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { runProcess } from './support/processes.js';

const parents: string[] = [];
afterAll(() => {
  for (const dir of parents) rmSync(dir, { recursive: true, force: true });
});

/** A data folder the product creates itself, below a parent every account may enter (as /var/lib or a home folder). */
function freshDataDir(): string {
  const parent = mkdtempSync(join(tmpdir(), 'retail-modes-'));
  chmodSync(parent, 0o755);
  parents.push(parent);
  return join(parent, 'data');
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

async function stop(server: ChildServer): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** Another Unix account reading a file, as a second user of the store PC would; undefined where tests cannot switch accounts. */
async function readAsNobody(file: string): Promise<{ status: number | null; stdout: string } | undefined> {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  return runProcess('runuser', ['-u', 'nobody', '--', 'cat', file]);
}

const UPSTREAM_KEY = 'wk_upstream-write-key-of-head-office-0123456789';

describe('the data folder belongs to the server account only', () => {
  it('is created 0700 with the database, its WAL and SHM and the credentials 0600, and another account reads none of them', async () => {
    const dataDir = freshDataDir();
    const server = await startChildServer(dataDir);
    try {
      const org = await runCli(dataDir, ['org', 'create', '--name', 'Filiale', '--json']);
      expect(org.status).toBe(0);
      const configured = await runCli(dataDir, ['sync', 'configure', org.json.id, '--url', 'https://hq.example/api/v1', '--key', UPSTREAM_KEY, '--json']);
      expect(configured.status).toBe(0);
      const files = ['retail.sqlite', 'retail.sqlite-wal', 'retail.sqlite-shm', 'credentials.json', 'secret.key'];
      expect({ folder: modeOf(dataDir), files: files.map((name) => [name, modeOf(join(dataDir, name))]) }).toEqual({
        folder: 0o700,
        files: files.map((name) => [name, 0o600]),
      });
      const other = await readAsNobody(join(dataDir, 'retail.sqlite'));
      if (other) expect({ status: other.status, leaked: other.stdout.includes(UPSTREAM_KEY) }).toEqual({ status: 1, leaked: false });
    } finally {
      await stop(server);
    }
  });

  it('tightens a data folder an older version left readable when the server starts', async () => {
    const dataDir = freshDataDir();
    await stop(await startChildServer(dataDir));
    chmodSync(dataDir, 0o755);
    for (const name of readdirSync(dataDir)) chmodSync(join(dataDir, name), statSync(join(dataDir, name)).isDirectory() ? 0o755 : 0o644);
    const server = await startChildServer(dataDir);
    try {
      const modes = Object.fromEntries(readdirSync(dataDir).map((name) => [name, modeOf(join(dataDir, name))]));
      const expected = Object.fromEntries(readdirSync(dataDir).map((name) => [name, statSync(join(dataDir, name)).isDirectory() ? 0o700 : 0o600]));
      expect({ folder: modeOf(dataDir), modes }).toEqual({ folder: 0o700, modes: expected });
      const other = await readAsNobody(join(dataDir, 'credentials.json'));
      if (other) expect(other.status).toBe(1);
    } finally {
      await stop(server);
    }
  });

  it('writes backups that only the owner can read', async () => {
    const dataDir = freshDataDir();
    const server = await startChildServer(dataDir);
    const target = join(dataDir, '..', 'backup-1');
    try {
      const backup = await runCli(dataDir, ['backup', target, '--json']);
      expect(backup.status).toBe(0);
    } finally {
      await stop(server);
    }
    const modes = Object.fromEntries(readdirSync(target).map((name) => [name, modeOf(join(target, name))]));
    expect({ folder: modeOf(target), database: modes['retail.sqlite'], manifest: modes['backup.json'] }).toEqual({
      folder: 0o700,
      database: 0o600,
      manifest: 0o600,
    });
    const other = await readAsNobody(join(target, 'retail.sqlite'));
    if (other) expect(other.status).toBe(1);
  });
});

describe('stored secrets are sealed', () => {
  it('keeps the upstream write key out of the database file, in a key file of its own', async () => {
    const dataDir = freshDataDir();
    const org = await runCli(dataDir, ['org', 'create', '--name', 'Filiale', '--json']);
    const configured = await runCli(dataDir, ['sync', 'configure', org.json.id, '--url', 'https://hq.example/api/v1', '--key', UPSTREAM_KEY, '--json']);
    expect(configured.status).toBe(0);
    const db = new Database(join(dataDir, 'retail.sqlite'), { readonly: true });
    const stored = (db.prepare('SELECT upstream_key FROM sync_config').get() as { upstream_key: string }).upstream_key;
    db.close();
    const bytes = ['retail.sqlite', 'retail.sqlite-wal'].filter((name) => existsSync(join(dataDir, name))).map((name) => readFileSync(join(dataDir, name)).toString('latin1')).join('');
    expect({ sealed: stored.startsWith('sealed:v1:'), inDatabase: bytes.includes(UPSTREAM_KEY), keyFile: modeOf(join(dataDir, 'secret.key')) }).toEqual({
      sealed: true,
      inDatabase: false,
      keyFile: 0o600,
    });
  });

  it('seals an upstream key an older version stored in clear when the server starts', async () => {
    const dataDir = freshDataDir();
    const org = await runCli(dataDir, ['org', 'create', '--name', 'Filiale', '--json']);
    await runCli(dataDir, ['sync', 'configure', org.json.id, '--url', 'https://hq.example/api/v1', '--key', UPSTREAM_KEY, '--json']);
    const db = new Database(join(dataDir, 'retail.sqlite'));
    db.prepare('UPDATE sync_config SET upstream_key = ?').run(UPSTREAM_KEY);
    db.close();
    const server = await startChildServer(dataDir);
    await stop(server);
    const reread = new Database(join(dataDir, 'retail.sqlite'), { readonly: true });
    const stored = (reread.prepare('SELECT upstream_key FROM sync_config').get() as { upstream_key: string }).upstream_key;
    reread.close();
    expect({ sealed: stored.startsWith('sealed:v1:'), clear: stored.includes(UPSTREAM_KEY) }).toEqual({ sealed: true, clear: false });
  });

  it('goes into a backup with the database and comes back with a restore', async () => {
    const dataDir = freshDataDir();
    const org = await runCli(dataDir, ['org', 'create', '--name', 'Filiale', '--json']);
    await runCli(dataDir, ['sync', 'configure', org.json.id, '--url', 'https://hq.example/api/v1', '--key', UPSTREAM_KEY, '--json']);
    const backup = join(dataDir, '..', 'backup');
    expect((await runCli(dataDir, ['backup', backup, '--json'])).status).toBe(0);
    const restored = join(dataDir, '..', 'restored');
    const restore = await runCli(restored, ['restore', backup, '--json']);
    expect(restore.status).toBe(0);
    expect({ key: readFileSync(join(restored, 'secret.key'), 'utf8'), mode: modeOf(join(restored, 'secret.key')), folder: modeOf(restored) }).toEqual({
      key: readFileSync(join(dataDir, 'secret.key'), 'utf8'),
      mode: 0o600,
      folder: 0o700,
    });
  });
});
