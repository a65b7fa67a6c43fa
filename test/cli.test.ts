import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/version.js';
import { api } from './support/api.js';
import { runCli } from './support/cli.js';
import { runProcess } from './support/processes.js';
import { makeDataDir, startTestServer, type TestServer } from './support/server.js';

const ID = /^[A-Za-z0-9]{20}$/;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.destroy();
});

describe('first start', () => {
  it('creates one organization and writes its keys to credentials.json (mode 0600)', async () => {
    const file = join(server.dataDir, 'credentials.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const credentials = JSON.parse(readFileSync(file, 'utf8'));
    expect(credentials).toEqual({
      organizationId: expect.stringMatching(ID),
      organizationName: 'Local store',
      readKey: expect.stringMatching(/^rk_/),
      writeKey: expect.stringMatching(/^wk_/),
      baseUrl: server.url,
    });
    const res = await api(server.url, credentials.writeKey).post('/products', { name: 'First', price: 1, taxCategory: '0' });
    expect(res.status).toBe(200);
    expect((await runCli(server.dataDir, ['org', 'list', '--json'])).json).toEqual([
      { id: credentials.organizationId, name: 'Local store', features: [] },
    ]);
  });

  it('does not create one when the CLI made an organization first', async () => {
    const dataDir = makeDataDir();
    const created = await runCli(dataDir, ['org', 'create', '--name', 'Shop', '--json']);
    expect(created.status).toBe(0);
    const other = await startTestServer({ dataDir });
    try {
      expect(other.running.credentialsFile).toBeUndefined();
      expect((await runCli(dataDir, ['org', 'list', '--json'])).json).toHaveLength(1);
    } finally {
      await other.destroy();
    }
  });
});

describe('org commands', () => {
  it('org create prints exactly the documented JSON', async () => {
    const res = await runCli(server.dataDir, ['org', 'create', '--name', 'Shop', '--features', 'identity-logs,barcode-aliases', '--json']);
    expect(res.status).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    expect(res.json).toEqual({
      id: expect.stringMatching(ID),
      name: 'Shop',
      features: ['barcode-aliases', 'identity-logs'],
      readKey: expect.stringMatching(/^rk_[A-Za-z0-9_-]{43}$/),
      writeKey: expect.stringMatching(/^wk_[A-Za-z0-9_-]{43}$/),
    });
  });

  it('refuses an unknown feature and a missing name', async () => {
    const bad = await runCli(server.dataDir, ['org', 'create', '--name', 'X', '--features', 'teleport', '--json']);
    expect(bad.status).toBe(1);
    expect(bad.json.error).toMatch(/Unknown feature "teleport"; known features: identity-logs, barcode-aliases/);
    const noName = await runCli(server.dataDir, ['org', 'create']);
    expect(noName.status).toBe(2);
    expect(noName.stderr).toMatch(/Missing --name/);
  });

  it('org features enables and disables, and the running server applies it at once', async () => {
    const org = (await runCli(server.dataDir, ['org', 'create', '--name', 'Toggle', '--json'])).json;
    const client = api(server.url, org.writeKey);
    const body = { name: 'Six', price: 600, taxCategory: '2.6', barcodeAliases: [{ code: 'six' }] };
    expect((await client.post('/products', body)).status).toBe(403);

    const enabled = await runCli(server.dataDir, ['org', 'features', org.id, '--enable', 'barcode-aliases', '--json']);
    expect(enabled.json).toEqual({ id: org.id, features: ['barcode-aliases'] });
    expect((await client.post('/products', body)).status).toBe(200);

    const disabled = await runCli(server.dataDir, ['org', 'features', org.id, '--disable', 'barcode-aliases', '--json']);
    expect(disabled.json).toEqual({ id: org.id, features: [] });
    expect((await client.post('/products', body)).status).toBe(403);

    const list = (await runCli(server.dataDir, ['org', 'list', '--json'])).json;
    expect(list).toContainEqual({ id: org.id, name: 'Toggle', features: [] });
  });

  it('org features on an unknown organization fails with a clear message', async () => {
    const res = await runCli(server.dataDir, ['org', 'features', 'nope', '--enable', 'identity-logs', '--json']);
    expect(res.status).toBe(1);
    expect(res.json).toEqual({ error: 'Organization "nope" not found' });
  });
});

describe('key commands', () => {
  it('creates, lists (never showing the key) and revokes keys; the running server refuses a revoked key at once', async () => {
    const org = (await runCli(server.dataDir, ['org', 'create', '--name', 'Keys', '--json'])).json;
    const created = await runCli(server.dataDir, ['key', 'create', org.id, '--kind', 'write', '--json']);
    expect(created.json).toEqual({ id: expect.stringMatching(ID), kind: 'write', store: null, key: expect.stringMatching(/^wk_/) });
    const client = api(server.url, created.json.key);
    expect((await client.get('/products')).status).toBe(200);

    const listed = await runCli(server.dataDir, ['key', 'list', org.id, '--json']);
    expect(listed.json).toHaveLength(3);
    for (const key of listed.json) {
      expect(Object.keys(key).sort()).toEqual(['active', 'createdAt', 'id', 'kind', 'lastUsedAt', 'name', 'store']);
      expect(key.active).toBe(true);
    }
    expect(listed.stdout).not.toContain(created.json.key);

    expect((await runCli(server.dataDir, ['key', 'revoke', created.json.id, '--json'])).json).toEqual({ success: true });
    const refused = await client.get('/products');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Forbidden');
    const after = (await runCli(server.dataDir, ['key', 'list', org.id, '--json'])).json;
    expect(after.find((k: { id: string }) => k.id === created.json.id).active).toBe(false);
  });

  it('stores keys only as SHA-256 hashes', async () => {
    const org = (await runCli(server.dataDir, ['org', 'create', '--name', 'Hashes', '--json'])).json;
    const rows = server.sqlite().prepare('SELECT key_hash FROM api_keys WHERE org_id = ?').all(org.id) as { key_hash: string }[];
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.key_hash).not.toContain(org.readKey.slice(3));
    }
    const dump = readFileSync(join(server.dataDir, 'retail.sqlite')).toString('latin1');
    expect(dump).not.toContain(org.writeKey);
  });

  it('refuses a bad kind and an unknown key id', async () => {
    const org = (await runCli(server.dataDir, ['org', 'list', '--json'])).json[0];
    const kind = await runCli(server.dataDir, ['key', 'create', org.id, '--kind', 'admin', '--json']);
    expect(kind.status).toBe(1);
    expect(kind.json.error).toBe('kind: must be one of read, write, kiosk, scale, not "admin"');
    const revoke = await runCli(server.dataDir, ['key', 'revoke', 'nokey', '--json']);
    expect(revoke.status).toBe(1);
    expect(revoke.json.error).toBe('Key "nokey" not found');
  });

  it('prints human-readable text without --json', async () => {
    const res = await runCli(server.dataDir, ['org', 'create', '--name', 'Text']);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/Read key: +rk_/);
    expect(res.stdout).toMatch(/not shown again/);
  });
});

describe('the two ways to start the CLI', () => {
  it('runs as an operator types it in the project, `npm run -s cli --`, and names that in its help', async () => {
    const typed = await runProcess('npm', ['run', '-s', 'cli', '--', 'org', 'list', '--json'], { cwd: PROJECT_ROOT, env: { DATA_DIR: server.dataDir } });
    expect(typed.status).toBe(0);
    expect(JSON.parse(typed.stdout)).toEqual((await runCli(server.dataDir, ['org', 'list', '--json'])).json);
    const help = await runProcess('npm', ['run', '-s', 'cli', '--', '--help'], { cwd: PROJECT_ROOT, env: { DATA_DIR: server.dataDir } });
    expect(help.stdout).toContain('Usage: npm run -s cli -- <command>');
  });

  it('names `node dist/main/cli.js` in its help when an installation runs the compiled copy', async () => {
    const help = await runCli(server.dataDir, ['--help']);
    expect(help.stdout).toContain('Usage: node dist/main/cli.js <command>');
  });
});
