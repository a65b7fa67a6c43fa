import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { standardError } from './support/shapes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;
let kiosk: Api;
let scale: Api;
let productId: string;
const DAY = 'start=2000-01-01T00:00:00.000Z&end=2100-01-01T00:00:00.000Z';

const counts = () => {
  const db = server.sqlite();
  const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  return { orders: count('orders'), outbox: count('outbox'), idempotency: count('idempotency_keys'), logs: count('identity_logs') };
};

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg(['identity-logs']);
  server.createStores(org.id, ['door', 'mall']);
  write = api(server.url, org.writeKey);
  kiosk = api(server.url, (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body.key);
  scale = api(server.url, (await write.post('/keys', { kind: 'scale' })).body.key);
  productId = (await write.post('/products', { name: 'Bergkäse', price: 590, taxCategory: '2.6', barcode: '7610000000017' })).body.id;
});
afterAll(async () => {
  await server.destroy();
});

describe('a kiosk key and its store', () => {
  it('lists and reads only its own store; another store is 404', async () => {
    const list = await kiosk.get('/stores');
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual(['door']);
    expect(list.body.meta).toEqual({ total: 1, returned: 1, limit: 100 });
    expect((await kiosk.get('/stores/door')).body.data.id).toBe('door');
    expect((await kiosk.get('/stores/mall')).body).toEqual(standardError(404, 'Store "mall" not found'));
    expect((await write.get('/stores')).body.data).toHaveLength(2);
  });

  it('records a sale for its store and reads it back', async () => {
    const res = await kiosk.post('/orders', { store: 'door', products: [{ productId, quantity: 2 }] });
    expect(res.status).toBe(200);
    const order = await kiosk.get(`/orders/${res.body.id}`);
    expect(order.body.data).toMatchObject({ store: 'door', price: 1180 });
  });

  it('gets 403 for a sale of another store, and nothing is stored or queued', async () => {
    const before = counts();
    const res = await kiosk.request('POST', '/orders', {
      body: JSON.stringify({ store: 'mall', orderId: 'mall-1', products: [{ productId, quantity: 1 }] }),
      headers: { 'content-type': 'application/json', 'idempotency-key': 'sale-mall-1' },
    });
    expect(res.body).toEqual(standardError(403, 'store: a kiosk key of store "door" records sales of that store only, not of "mall"'));
    expect(counts()).toEqual(before);
    expect((await write.get(`/orders?${DAY}`)).body.data.some((o: { orderId: string }) => o.orderId === 'mall-1')).toBe(false);
  });

  it("does not see another store's orders", async () => {
    const mall = (await write.post('/orders', { store: 'mall', products: [{ productId, quantity: 1 }] })).body.id;
    expect((await kiosk.get(`/orders/${mall}`)).body).toEqual(standardError(404, `Order "${mall}" not found`));
    const listed = (await kiosk.get(`/orders?${DAY}`)).body.data as { id: string; store: string }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((o) => o.store === 'door')).toBe(true);
    expect((await write.get(`/orders?${DAY}`)).body.data.some((o: { id: string }) => o.id === mall)).toBe(true);
  });
});

describe('a kiosk key and the catalog', () => {
  it('reads products, barcode lookups, categories and suppliers', async () => {
    expect((await kiosk.get(`/products/${productId}`)).status).toBe(200);
    expect((await kiosk.get('/products?barcode=7610000000017')).body.data[0].id).toBe(productId);
    expect((await kiosk.get('/categories')).status).toBe(200);
    expect((await kiosk.get('/suppliers')).status).toBe(200);
  });

  it('cannot change a price: 403, and the price stays', async () => {
    const before = counts();
    const res = await kiosk.post(`/products/${productId}`, { price: 1 });
    expect(res.body).toEqual(standardError(403, 'A kiosk key may not call POST /products/{productId}; it needs a key of kind write'));
    expect((await write.get(`/products/${productId}`)).body.data.price).toBe(590);
    expect(counts()).toEqual(before);
  });
});

describe('a kiosk key and identity checks', () => {
  it("records a check for its store; the store defaults to the kiosk's", async () => {
    const own = await kiosk.post('/identity-logs', { access: true, store: 'door' });
    expect(own.status).toBe(200);
    const defaulted = await kiosk.post('/identity-logs', { access: false });
    expect(defaulted.status).toBe(200);
    const logs = (await write.get('/identity-logs')).body.data as { id: string; store?: string }[];
    expect(logs.find((l) => l.id === defaulted.body.id)?.store).toBe('door');
  });

  it('gets 403 for a check of another store, and nothing is stored', async () => {
    const before = counts();
    const res = await kiosk.post('/identity-logs', { access: true, store: 'mall' });
    expect(res.body).toEqual(standardError(403, 'store: a kiosk key of store "door" records identity checks of that store only, not of "mall"'));
    expect(counts()).toEqual(before);
  });

  it('cannot read identity logs or the blocked list', async () => {
    const blocked = (await write.post('/identity-logs/blocked', { comment: 'theft', first_name: 'Anna', last_name: 'Muster' })).body.id;
    for (const path of ['/identity-logs', '/identity-logs/blocked', `/identity-logs/blocked/${blocked}`]) {
      const res = await kiosk.get(path);
      expect(res.status, path).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain('Muster');
    }
  });
});

describe('POST /identity-logs/verdict', () => {
  beforeAll(async () => {
    await write.post('/identity-logs/blocked', { comment: 'shoplifting', first_name: 'Hans Peter', last_name: 'Müller', birthDate: '15.03.1985' });
    await write.post('/identity-logs/blocked', { comment: 'fraud', first_name: 'Lea', last_name: 'Keller', rawMrz: 'IDCHEKELLER<<LEA<<<<' });
  });

  it('answers blocked: true for a blocked identity and false for another', async () => {
    const verdict = async (body: Record<string, unknown>) => {
      const res = await kiosk.post('/identity-logs/verdict', body);
      expect(res.status).toBe(200);
      return res.body;
    };
    expect(await verdict({ lastName: 'MÜLLER', firstNames: 'HANS PETER KARL', birthDate: '1985-03-15' })).toEqual({ data: { blocked: true } });
    expect(await verdict({ lastName: 'Müller', firstNames: 'Hans Peter', birthDate: '1985-03-16' })).toEqual({ data: { blocked: false } });
    expect(await verdict({ lastName: 'Müller', firstNames: 'Hans', birthDate: '1985-03-15' })).toEqual({ data: { blocked: false } });
    expect(await verdict({ lastName: 'Muster', firstNames: 'Anna', birthDate: '1970-01-01' })).toEqual({ data: { blocked: true } });
    expect(await verdict({ lastName: 'Other', firstNames: 'Name', birthDate: '1970-01-01', rawText: 'IDCHEKELLER<<LEA<<<<' })).toEqual({ data: { blocked: true } });
    expect(await verdict({ lastName: 'Keller', firstNames: 'Anna', birthDate: '1990-01-01' })).toEqual({ data: { blocked: false } });
  });

  it('is not blocked any more once staff unblock the identity', async () => {
    const id = (await write.post('/identity-logs/blocked', { comment: 'x', first_name: 'Tim', last_name: 'Frei' })).body.id;
    expect((await kiosk.post('/identity-logs/verdict', { lastName: 'Frei', firstNames: 'Tim', birthDate: '1990-05-05' })).body.data.blocked).toBe(true);
    await write.delete(`/identity-logs/blocked/${id}`);
    expect((await kiosk.post('/identity-logs/verdict', { lastName: 'Frei', firstNames: 'Tim', birthDate: '1990-05-05' })).body.data.blocked).toBe(false);
  });

  it('needs the birth date as read from the document: names alone do not get a verdict', async () => {
    const res = await kiosk.post('/identity-logs/verdict', { lastName: 'Müller', firstNames: 'Hans Peter' });
    expect(res.body).toEqual(standardError(400, /^birthDate: /));
  });

  it('records each verdict as an identity check of the key\'s store', async () => {
    const before = new Date().toISOString();
    await kiosk.post('/identity-logs/verdict', { lastName: 'Müller', firstNames: 'Hans Peter', birthDate: '1985-03-15', rawText: 'IDCHEMULLER<<HANS<PETER' });
    await kiosk.post('/identity-logs/verdict', { lastName: 'Gerber', firstNames: 'Eva', birthDate: '1991-07-01' });
    const logs = (await write.get(`/identity-logs?start=${encodeURIComponent(before)}`)).body.data;
    expect(logs.map((log: Record<string, unknown>) => ({ access: log.access, logType: log.logType, store: log.store, birthDate: log.birthDate })).reverse()).toEqual([
      { access: false, logType: 'verdict', store: 'door', birthDate: '1985-03-15' },
      { access: true, logType: 'verdict', store: 'door', birthDate: '1991-07-01' },
    ]);
  });

  it('answers 429 once a key asked for 30 verdicts within a minute; another key is not held back', async () => {
    const prober = api(server.url, (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body.key);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await prober.post('/identity-logs/verdict', { lastName: `Name${i}`, firstNames: 'Probe', birthDate: '1980-01-01' })).status);
    expect(statuses).toEqual(Array(30).fill(200));
    const refused = await prober.post('/identity-logs/verdict', { lastName: 'Müller', firstNames: 'Hans Peter', birthDate: '1985-03-15' });
    expect(refused.body).toEqual(standardError(429, /^This key asked for 30 identity verdicts within 60 s, the most allowed: try again in \d+ s$/));
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await kiosk.post('/identity-logs/verdict', { lastName: 'Gerber', firstNames: 'Eva', birthDate: '1991-07-01' })).status).toBe(200);
  });

  it('refuses a bad body, naming the field', async () => {
    const res = await kiosk.post('/identity-logs/verdict', { lastName: 'Frei', firstNames: 'Tim', birthDate: '15.03.1985' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^birthDate: must be a date as YYYY-MM-DD/);
    expect((await kiosk.post('/identity-logs/verdict', { firstNames: 'Tim' })).status).toBe(400);
  });

  it('is refused for read and scale keys, and needs the identity-logs feature', async () => {
    expect((await api(server.url, org.readKey).post('/identity-logs/verdict', { lastName: 'A', firstNames: 'B', birthDate: '1990-05-05' })).status).toBe(403);
    expect((await scale.post('/identity-logs/verdict', { lastName: 'A', firstNames: 'B', birthDate: '1990-05-05' })).status).toBe(403);
    const plain = server.createOrg();
    server.createStores(plain.id, ['solo']);
    const plainKiosk = (await api(server.url, plain.writeKey).post('/keys', { kind: 'kiosk', store: 'solo' })).body.key;
    const res = await api(server.url, plainKiosk).post('/identity-logs/verdict', { lastName: 'A', firstNames: 'B', birthDate: '1990-05-05' });
    expect(res.body).toEqual(standardError(403, 'Feature not available'));
  });
});

describe('a scale key', () => {
  it('reads products and categories, and nothing else', async () => {
    expect((await scale.get('/products?barcode=7610000000017')).body.data[0].id).toBe(productId);
    expect((await scale.get('/categories')).status).toBe(200);
    for (const path of ['/stores', '/orders', '/suppliers', '/sync', '/system', '/reports/daily?store=door&date=2026-11-25', '/keys']) {
      const res = await scale.get(path);
      expect(res.status, path).toBe(403);
      expect(res.body.message, path).toMatch(/^A scale key may not call GET \//);
    }
  });
});

describe('a kiosk key and staff reads', () => {
  it('gets 403 for sync, system, reports and keys', async () => {
    for (const path of ['/sync', '/sync/parked', '/system', '/reports/daily?store=door&date=2026-11-25', '/keys']) {
      expect((await kiosk.get(path)).status, path).toBe(403);
    }
  });
});
