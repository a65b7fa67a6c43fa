import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { standardError } from './support/shapes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

/**
 * The server remembers the keys it has just seen, so these keys are used a
 * few times first: whatever it remembers, a revoke must stop a key at the
 * very next request, whether it came over HTTP or from the CLI in another
 * process, and must leave the other keys working.
 */
let server: TestServer;
let org: TestOrg;
let write: Api;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  server.createStores(org.id, ['door']);
  write = api(server.url, org.writeKey);
});
afterAll(async () => {
  await server.destroy();
});

async function usedKey(kind: 'read' | 'kiosk') {
  const created = await write.post('/keys', kind === 'kiosk' ? { kind, store: 'door' } : { kind });
  expect(created.status).toBe(201);
  const client = api(server.url, created.body.key);
  for (let i = 0; i < 3; i++) expect((await client.get('/keys/current')).status).toBe(200);
  return { id: created.body.id as string, client };
}

describe('a revoked key', () => {
  it('is refused at the next request after DELETE /keys/{id}; the other keys keep working', async () => {
    const revoked = await usedKey('read');
    const kept = await usedKey('kiosk');
    expect((await write.delete(`/keys/${revoked.id}`)).body).toEqual({ success: true });
    expect((await revoked.client.get('/keys/current')).body).toEqual(standardError(403, 'Forbidden'));
    expect((await revoked.client.get('/products')).status).toBe(403);
    expect((await kept.client.get('/keys/current')).body.data.id).toBe(kept.id);
    expect((await write.get('/keys/current')).status).toBe(200);
  });

  it('is refused at the next request after `key revoke` on the CLI, while the server keeps running', async () => {
    const revoked = await usedKey('kiosk');
    const kept = await usedKey('read');
    const cli = await runCli(server.dataDir, ['key', 'revoke', revoked.id, '--json']);
    expect(cli.json).toEqual({ success: true });
    expect((await revoked.client.get('/keys/current')).body).toEqual(standardError(403, 'Forbidden'));
    expect((await kept.client.get('/keys/current')).body.data.id).toBe(kept.id);
  });

  it('stays refused however often it is tried, and a key made afterwards works at once', async () => {
    const revoked = await usedKey('read');
    await runCli(server.dataDir, ['key', 'revoke', revoked.id, '--json']);
    for (let i = 0; i < 3; i++) expect((await revoked.client.get('/keys/current')).status).toBe(403);
    const fresh = await runCli(server.dataDir, ['key', 'create', org.id, '--kind', 'read', '--json']);
    expect((await api(server.url, fresh.json.key).get('/keys/current')).body.data.id).toBe(fresh.json.id);
  });
});
