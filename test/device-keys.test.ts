import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { ISO, standardError } from './support/shapes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  server.createStores(org.id, ['door', 'mall']);
  write = api(server.url, org.writeKey);
});
afterAll(async () => {
  await server.destroy();
});

describe('POST /keys', () => {
  it('makes a kiosk key bound to a store and shows its secret once', async () => {
    const res = await write.post('/keys', { kind: 'kiosk', store: 'door', name: 'Kiosk by the door' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, id: expect.any(String), key: expect.stringMatching(/^kk_[\w-]{43}$/) });
    const current = await api(server.url, res.body.key).get('/keys/current');
    expect(current.body).toEqual({ data: { id: res.body.id, kind: 'kiosk', store: 'door', name: 'Kiosk by the door' } });
  });

  it('makes a scale key with its own prefix', async () => {
    const res = await write.post('/keys', { kind: 'scale' });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^sk_/);
  });

  it.each([
    [{ kind: 'kiosk' }, /^store: a kiosk key sells for one store/],
    [{ kind: 'kiosk', store: 'nowhere' }, 'store: no store "nowhere" in this organization'],
    [{ kind: 'write', store: 'door' }, /^store: only kiosk and scale keys are bound to a store/],
  ])('refuses %j with a message naming the store', async (body, message) => {
    const res = await write.post('/keys', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
  });

  it('refuses an unknown kind and unknown fields', async () => {
    const kind = await write.post('/keys', { kind: 'admin' });
    expect(kind.status).toBe(400);
    expect(kind.body.message).toMatch(/^kind: must be one of read, write, kiosk, scale/);
    expect((await write.post('/keys', { kind: 'read', secret: 'x' })).status).toBe(400);
  });

  it('is refused for read, kiosk and scale keys, which make nothing', async () => {
    const kiosk = (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body.key;
    const before = (await write.get('/keys')).body.data.length;
    expect((await api(server.url, org.readKey).post('/keys', { kind: 'write' })).body).toEqual(standardError(403, 'Forbidden'));
    const refused = await api(server.url, kiosk).post('/keys', { kind: 'write' });
    expect(refused.body).toEqual(standardError(403, 'A kiosk key may not call POST /keys; it needs a key of kind write'));
    expect((await write.get('/keys')).body.data).toHaveLength(before);
  });

  it('does not keep the answer for an Idempotency-Key, so the secret is never stored', async () => {
    const headers = { 'content-type': 'application/json', 'idempotency-key': 'make-kiosk-key' };
    const body = JSON.stringify({ kind: 'scale' });
    const first = await write.request('POST', '/keys', { body, headers });
    const second = await write.request('POST', '/keys', { body, headers });
    expect(first.status).toBe(201);
    expect(second.body.key).not.toBe(first.body.key);
    const kept = server.sqlite().prepare('SELECT body FROM idempotency_keys').pluck().all() as string[];
    expect(kept.join('\n')).not.toContain(first.body.key);
  });
});

describe('GET /keys', () => {
  it('lists every key with store, name and last use, never a secret', async () => {
    const created = (await write.post('/keys', { kind: 'kiosk', store: 'mall', name: 'Mall kiosk' })).body;
    const unused = (await write.get('/keys')).body.data.find((k: { id: string }) => k.id === created.id);
    expect(unused).toEqual({ id: created.id, kind: 'kiosk', store: 'mall', name: 'Mall kiosk', active: true, createdAt: expect.stringMatching(ISO), lastUsedAt: null });

    expect((await api(server.url, created.key).get('/products')).status).toBe(200);
    const res = await write.get('/keys');
    expect(res.status).toBe(200);
    const used = res.body.data.find((k: { id: string }) => k.id === created.id);
    expect(used.lastUsedAt).toMatch(ISO);
    expect(Date.parse(used.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(used.createdAt));
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(org.writeKey);
    for (const key of res.body.data) expect(Object.keys(key).sort()).toEqual(['active', 'createdAt', 'id', 'kind', 'lastUsedAt', 'name', 'store']);
  });

  it('is refused for a read key and a kiosk key', async () => {
    const kiosk = (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body.key;
    expect((await api(server.url, org.readKey).get('/keys')).status).toBe(403);
    expect((await api(server.url, kiosk).get('/keys')).body).toEqual(standardError(403, 'A kiosk key may not call GET /keys; it needs a key of kind write'));
  });

  it("writes the last use to the database, where the CLI's key list reads it", async () => {
    const created = (await write.post('/keys', { kind: 'scale', name: 'Deli scale' })).body;
    await api(server.url, created.key).get('/categories');
    const listed = (await runCli(server.dataDir, ['key', 'list', org.id, '--json'])).json;
    expect(listed.find((k: { id: string }) => k.id === created.id)).toMatchObject({ kind: 'scale', store: null, name: 'Deli scale', lastUsedAt: expect.stringMatching(ISO) });
  });
});

describe('GET /keys/current', () => {
  it('tells a staff key its kind, so a kiosk set-up screen can refuse it', async () => {
    const res = await write.get('/keys/current');
    expect(res.body).toEqual({ data: { id: expect.any(String), kind: 'write', store: null, name: null } });
    expect((await api(server.url, org.readKey).get('/keys/current')).body.data.kind).toBe('read');
  });
});

describe('DELETE /keys/{keyId}', () => {
  it('revokes a key: its very next request is refused', async () => {
    const created = (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body;
    const kiosk = api(server.url, created.key);
    expect((await kiosk.get('/products')).status).toBe(200);
    expect((await write.delete(`/keys/${created.id}`)).body).toEqual({ success: true });
    expect((await kiosk.get('/products')).body).toEqual(standardError(403, 'Forbidden'));
    const listed = (await write.get('/keys')).body.data.find((k: { id: string }) => k.id === created.id);
    expect(listed.active).toBe(false);
  });

  it("answers 404 for another organization's key and leaves it working", async () => {
    const other = server.createOrg();
    const otherKey = (await api(server.url, other.writeKey).get('/keys/current')).body.data.id;
    expect((await write.delete(`/keys/${otherKey}`)).body).toEqual(standardError(404, `Key "${otherKey}" not found`));
    expect((await api(server.url, other.writeKey).get('/products')).status).toBe(200);
    expect((await write.delete('/keys/nokey')).status).toBe(404);
  });

  it('is refused for a kiosk key', async () => {
    const created = (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body;
    expect((await api(server.url, created.key).delete(`/keys/${created.id}`)).status).toBe(403);
    expect((await api(server.url, created.key).get('/keys/current')).status).toBe(200);
  });
});

describe('key create --kind kiosk (CLI)', () => {
  it('prints the key bound to its store', async () => {
    const res = await runCli(server.dataDir, ['key', 'create', org.id, '--kind', 'kiosk', '--store', 'door', '--name', 'Till 3', '--json']);
    expect(res.status).toBe(0);
    expect(res.json).toEqual({ id: expect.any(String), kind: 'kiosk', store: 'door', key: expect.stringMatching(/^kk_/) });
    const current = await api(server.url, res.json.key).get('/keys/current');
    expect(current.body.data).toEqual({ id: res.json.id, kind: 'kiosk', store: 'door', name: 'Till 3' });
    const listed = (await runCli(server.dataDir, ['key', 'list', org.id, '--json'])).json;
    expect(listed.find((k: { id: string }) => k.id === res.json.id)).toMatchObject({ store: 'door', name: 'Till 3', active: true });
  });

  it('needs --store naming a store of the organization', async () => {
    const missing = await runCli(server.dataDir, ['key', 'create', org.id, '--kind', 'kiosk', '--json']);
    expect(missing.status).toBe(1);
    expect(missing.json.error).toMatch(/^store: a kiosk key sells for one store/);
    const unknown = await runCli(server.dataDir, ['key', 'create', org.id, '--kind', 'kiosk', '--store', 'elsewhere', '--json']);
    expect(unknown.status).toBe(1);
    expect(unknown.json.error).toBe('store: no store "elsewhere" in this organization');
  });
});

describe('lastUsedAt without a database write per request', () => {
  it('is written at most once a minute per key, and GET /keys still answers the latest use', async () => {
    let now = Date.parse('2026-11-25T08:00:00.000Z');
    const clocked = await startTestServer({ clock: { now: () => new Date(now) } });
    try {
      const shop = clocked.createOrg();
      clocked.createStores(shop.id, ['door']);
      const staff = api(clocked.url, shop.writeKey);
      const created = (await staff.post('/keys', { kind: 'kiosk', store: 'door' })).body;
      const kioskClient = api(clocked.url, created.key);
      const stored = () => clocked.sqlite().prepare('SELECT last_used_at FROM api_keys WHERE id = ?').pluck().get(created.id);
      const listed = async () => (await staff.get('/keys')).body.data.find((k: { id: string }) => k.id === created.id).lastUsedAt;

      await kioskClient.get('/products');
      expect(stored()).toBe('2026-11-25T08:00:00.000Z');
      now += 30_000;
      await kioskClient.get('/products');
      expect(stored()).toBe('2026-11-25T08:00:00.000Z');
      expect(await listed()).toBe('2026-11-25T08:00:30.000Z');
      now += 31_000;
      await kioskClient.get('/products');
      expect(stored()).toBe('2026-11-25T08:01:01.000Z');
    } finally {
      await clocked.destroy();
    }
  });
});
