import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLog } from './support/log-lines.js';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

/**
 * A sale and a heartbeat are run without Express's routing
 * (main/http/hot-writes.ts). A request with an `Origin` always goes the
 * router's way; the server's own origin adds no CORS header, so the two
 * answers must be the same but for what each write makes new (an id, the
 * time of an error).
 */

const { logger, lines } = capturedLog();

let server: TestServer;
let org: TestOrg;
let write: Api;
let kioskKey: string;
let productId: string;

beforeAll(async () => {
  server = await startTestServer({ logger });
  org = server.createOrg([]);
  server.createStores(org.id, ['door', 'market']);
  write = api(server.url, org.writeKey);
  kioskKey = (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body.key;
  productId = (await write.post('/products', { name: 'Bio Vollmilch 1l', price: 195, taxCategory: '2.6' })).body.id;
});
afterAll(async () => {
  await server.destroy();
});

const origin = () => new URL(server.url).origin;

interface RawAnswer {
  status: number;
  headers: [string, string][];
  body: string;
}

/** A POST with exactly these headers and body text, the answer's headers in order. */
function post(path: string, headers: Record<string, string>, body: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode!, headers: pairs.filter(([name]) => name !== 'date'), body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const routed = (headers: Record<string, string>) => ({ ...headers, origin: origin() });
const sale = (orderId: string) => JSON.stringify({ store: 'door', orderId, products: [{ productId, quantity: 2 }] });
/** An answer's body with what each answer makes new (the order's id, an error's time) left out. */
const comparable = (answer: RawAnswer) => {
  const body = JSON.parse(answer.body);
  return { ...body, ...('id' in body ? { id: typeof body.id } : {}), ...('timestamp' in body ? { timestamp: typeof body.timestamp } : {}) };
};
const ALL_TIME = 'start=2000-01-01T00:00:00.000Z&end=2100-01-01T00:00:00.000Z&limit=500';
const orderIds = async () => ((await write.get(`/orders?${ALL_TIME}`)).body.data as { orderId: string }[]).map((o) => o.orderId);
const withoutLength = (headers: [string, string][]) => headers.filter(([name]) => name !== 'content-length');

describe('hot writes', () => {
  it('record a sale with the same status, headers and answer as the router, with and without an accepted encoding', async () => {
    let n = 0;
    for (const [key, encoding] of [
      [org.writeKey, {}],
      [org.writeKey, { 'accept-encoding': 'gzip, br' }],
      [kioskKey, {}],
    ] as const) {
      const headers = { authorization: `Bearer ${key}`, ...encoding };
      const hot = await post('/orders', { ...headers, 'idempotency-key': `hot-${++n}` }, sale(`H-${n}`));
      const viaRouter = await post('/orders', routed({ ...headers, 'idempotency-key': `routed-${n}` }), sale(`R-${n}`));
      expect(hot.status).toBe(200);
      expect(hot.headers).toEqual(viaRouter.headers);
      expect(comparable(hot)).toEqual(comparable(viaRouter));
      expect((await write.get(`/orders/${JSON.parse(hot.body).id}`)).body.data).toMatchObject({ orderId: `H-${n}`, store: 'door', price: 390 });
    }
  });

  it("replay a key's first answer either way, and refuse it with another body or while it still runs", async () => {
    const headers = { authorization: `Bearer ${org.writeKey}`, 'idempotency-key': 'sync-till-7-41', 'sync-acknowledged-below': '40' };
    const first = await post('/orders', headers, sale('S-41'));
    expect(first.status).toBe(200);
    for (const again of [await post('/orders', headers, sale('S-41')), await post('/orders', routed(headers), sale('S-41'))]) {
      expect(again.status).toBe(200);
      expect(again.body).toBe(first.body);
      expect(Object.fromEntries(again.headers)['idempotent-replayed']).toBe('true');
    }
    const hot = await post('/orders', headers, sale('S-other'));
    const viaRouter = await post('/orders', routed(headers), sale('S-other'));
    expect(hot.status).toBe(422);
    expect(withoutLength(hot.headers)).toEqual(withoutLength(viaRouter.headers));
    expect(comparable(hot)).toEqual(comparable(viaRouter));
    expect(JSON.parse(hot.body).message).toContain('was already used with another request body');
    expect((await orderIds()).filter((id) => id === 'S-41')).toHaveLength(1);
  });

  it('refuse what the router refuses, in its words: a bad body, malformed JSON, another store, a bad key', async () => {
    const writeKey = { authorization: `Bearer ${org.writeKey}` };
    const cases: [Record<string, string>, string, number][] = [
      [writeKey, JSON.stringify({ store: 'door', products: [] }), 400],
      [writeKey, JSON.stringify({ store: 'nowhere', products: [{ productId, quantity: 1 }] }), 400],
      [writeKey, '{"store": "door", "products": [', 400],
      [writeKey, '', 400],
      [{ authorization: `Bearer ${kioskKey}` }, JSON.stringify({ store: 'market', products: [{ productId, quantity: 1 }] }), 403],
      [{ authorization: `Bearer ${org.readKey}` }, sale('X-1'), 403],
      [{ authorization: 'Bearer wk_unknown' }, sale('X-2'), 403],
      [{}, sale('X-3'), 403],
    ];
    for (const [headers, body, status] of cases) {
      const hot = await post('/orders', headers, body);
      const viaRouter = await post('/orders', routed(headers), body);
      const seen = `${JSON.stringify(headers)} ${body}`;
      expect(hot.status, seen).toBe(status);
      expect(viaRouter.status, seen).toBe(status);
      expect(withoutLength(hot.headers), seen).toEqual(withoutLength(viaRouter.headers));
      expect(comparable(hot), seen).toEqual(comparable(viaRouter));
    }
    expect((await orderIds()).filter((id) => id.startsWith('X-'))).toEqual([]);
  });

  it("take a store PC's heartbeat as the router does, and list it in the fleet", async () => {
    const now = new Date().toISOString();
    const state = (device: string) =>
      JSON.stringify({ device, name: 'kasse', version: '0.1.0', stores: ['door'], lastPushAt: now, lastPullAt: now, pending: 0, parked: 0, oldestPendingAt: null, lastSaleAt: now, printers: [], diskFreeBytes: 5e10, databaseBytes: 7e7 });
    const headers = { authorization: `Bearer ${org.writeKey}` };
    const hot = await post('/fleet/heartbeat', headers, state('pc-hot-0001'));
    const viaRouter = await post('/fleet/heartbeat', routed(headers), state('pc-routed-0001'));
    expect(hot.status, hot.body).toBe(200);
    expect(hot.headers).toEqual(viaRouter.headers);
    expect(hot.body).toBe(viaRouter.body);
    const devices = (await write.get('/fleet')).body.data.map((d: { device: string }) => d.device);
    expect(devices).toEqual(expect.arrayContaining(['pc-hot-0001', 'pc-routed-0001']));
  });

  it('log one line for each, with its path and status and never its key', async () => {
    lines.length = 0;
    await post('/orders', { authorization: `Bearer ${org.writeKey}`, 'idempotency-key': 'log-1' }, sale('L-1'));
    await post('/orders', { authorization: `Bearer ${org.writeKey}` }, '{');
    const requests = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
    expect(requests.map((line) => [line.method, line.path, line.status])).toEqual([
      ['POST', '/api/v1/orders', 200],
      ['POST', '/api/v1/orders', 400],
    ]);
    expect(JSON.stringify(lines)).not.toContain(org.writeKey);
  });
});
