import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLog } from './support/log-lines.js';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

/**
 * A product by id, a barcode lookup and /health are answered before the
 * router (main/http/hot-reads.ts). A request with an `Origin` always goes the
 * router's way; the server's own origin adds no CORS header, so the two
 * answers to the same URL must be the same bytes and headers.
 */

const { logger, lines } = capturedLog();

let server: TestServer;
let org: TestOrg;
let write: Api;
let keys: Record<'write' | 'read' | 'kiosk' | 'scale', string>;
let productId: string;
let longId: string;
const BARCODE = '7610000000024';
const SINCE = '2020-01-01T00:00:00.000Z';

beforeAll(async () => {
  server = await startTestServer({ logger });
  org = server.createOrg(['barcode-aliases']);
  server.createStores(org.id, ['door']);
  write = api(server.url, org.writeKey);
  keys = {
    write: org.writeKey,
    read: org.readKey,
    kiosk: (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body.key,
    scale: (await write.post('/keys', { kind: 'scale' })).body.key,
  };
  const supplier = (await write.post('/suppliers', { name: 'Käserei Gruyère', iban: 'CH93 0076 2011 6238 5295 7', email: 'verkauf@kaeserei.example' })).body.id;
  const category = (await write.post('/categories', { name: 'Käse', hideStore: ['door'] })).body.id;
  const created = await write.post('/products', { name: 'Gruyère AOP', price: 590, costPrice: 380, margin: 0.356, taxCategory: '2.6', barcode: BARCODE, supplier, category, barcodeAliases: [{ code: 'ALIAS-1', quantity: 6, price: 3400 }] });
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  productId = created.body.id;
  longId = (await write.post('/products', { name: 'Bergkäse', price: 720, taxCategory: '2.6', description: 'Aus der Region. '.repeat(120) })).body.id;
});
afterAll(async () => {
  await server.destroy();
});

const origin = () => new URL(server.url).origin;

/** A GET with exactly these headers (fetch would add an Accept-Encoding of its own), its headers in order. */
function raw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: [string, string][]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode!, headers: pairs.filter(([name]) => name !== 'date'), body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A change feed's page, decoded, with the time it was read left out. */
function feedPage(answer: { headers: [string, string][]; body: Buffer }) {
  const encoding = Object.fromEntries(answer.headers)['content-encoding'];
  const text = (encoding === 'br' ? brotliDecompressSync(answer.body) : encoding === 'gzip' ? gunzipSync(answer.body) : answer.body).toString('utf8');
  const page = JSON.parse(text);
  return { ...page, meta: { ...page.meta, completeUntil: typeof page.meta.completeUntil } };
}

/** The answer to `path`, and the router's answer to the same request. */
async function bothWays(path: string, headers: Record<string, string>) {
  return { hot: await raw(path, headers), routed: await raw(path, { ...headers, origin: origin() }) };
}

describe('hot reads', () => {
  const paths = () => [
    `/products/${productId}`,
    `/products/${longId}`,
    `/products?barcode=${BARCODE}`,
    '/products?barcode=alias-1',
    '/products?q=gruy%C3%A8re&limit=5',
    '/products?limit=1',
    `/products?updatedSince=${encodeURIComponent(SINCE)}&limit=5000`,
    '/categories',
    `/categories?updatedSince=${SINCE}`,
    '/suppliers?limit=10',
    '/stores',
    `/stores?updatedSince=${SINCE}&limit=5000`,
    '/health',
  ];
  const encodings: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip, deflate, br' }, { 'accept-encoding': 'gzip' }];

  it('answer with the same status, headers and bytes as the router, for every key kind, with and without an accepted encoding', async () => {
    while (!(await raw('/health', {})).body.toString('utf8').includes('"ready"')) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const [kind, key] of Object.entries(keys)) {
      for (const path of paths()) {
        for (const encoding of encodings) {
          const { hot, routed } = await bothWays(path, { authorization: `Bearer ${key}`, ...encoding });
          const seen = `${kind} ${path} ${encoding['accept-encoding'] ?? ''}`;
          expect(hot.status, seen).toBe(routed.status);
          if (hot.status !== 200) {
            // A scale's key reads no suppliers or stores: both refuse it, each with the time of its answer.
            expect(hot.headers, seen).toEqual(routed.headers);
            expect({ ...JSON.parse(hot.body.toString('utf8')), timestamp: 0 }, seen).toEqual({ ...JSON.parse(routed.body.toString('utf8')), timestamp: 0 });
            continue;
          }
          if (!path.includes('updatedSince')) {
            expect(hot.headers, seen).toEqual(routed.headers);
            expect(hot.body.equals(routed.body), seen).toBe(true);
            continue;
          }
          // A feed page's meta.completeUntil is the time of the request: equal but for it (and the size of its compression).
          const withoutSize = (headers: [string, string][]) => headers.filter(([name]) => name !== 'content-length');
          expect(withoutSize(hot.headers), seen).toEqual(withoutSize(routed.headers));
          expect(feedPage(hot), seen).toEqual(feedPage(routed));
          expect(feedPage(hot).meta.completeUntil, seen).toEqual(expect.any(String));
        }
      }
    }
  });

  it('serve every kind of key what its kind may read: suppliers and stores not to a scale', async () => {
    for (const path of ['/suppliers', '/stores']) {
      const { hot, routed } = await bothWays(path, { authorization: `Bearer ${keys.scale}` });
      expect(hot.status, path).toBe(403);
      expect({ ...JSON.parse(hot.body.toString('utf8')), timestamp: 0 }).toEqual({ ...JSON.parse(routed.body.toString('utf8')), timestamp: 0 });
    }
    for (const kind of ['write', 'read', 'kiosk'] as const) expect((await raw('/suppliers', { authorization: `Bearer ${keys[kind]}` })).status).toBe(200);
  });

  it('show device keys the device view: no purchase price or margin', async () => {
    for (const kind of ['kiosk', 'scale'] as const) {
      const byId = JSON.parse((await raw(`/products/${productId}`, { authorization: `Bearer ${keys[kind]}` })).body.toString('utf8'));
      const byCode = JSON.parse((await raw(`/products?barcode=${BARCODE}`, { authorization: `Bearer ${keys[kind]}` })).body.toString('utf8'));
      for (const product of [byId.data, byCode.data[0]]) {
        expect(product.name).toBe('Gruyère AOP');
        expect(product).not.toHaveProperty('costPrice');
        expect(product).not.toHaveProperty('margin');
      }
    }
    const staff = JSON.parse((await raw(`/products/${productId}`, { authorization: `Bearer ${keys.read}` })).body.toString('utf8'));
    expect(staff.data).toMatchObject({ costPrice: 380, margin: 0.356 });
  });

  it('refuse as the router refuses: no key, an unknown key, a revoked key at its next request, a product not found', async () => {
    const refusals: [string, Record<string, string>, number][] = [
      [`/products/${productId}`, {}, 403],
      [`/products/${productId}`, { authorization: 'Bearer wk_unknown' }, 403],
      [`/products?barcode=${BARCODE}`, { authorization: 'Bearer wk_unknown' }, 403],
      ['/products/no-such-product', { authorization: `Bearer ${keys.kiosk}` }, 404],
    ];
    for (const [path, headers, status] of refusals) {
      const { hot, routed } = await bothWays(path, headers);
      expect(hot.status, path).toBe(status);
      const withoutTime = (body: Buffer) => ({ ...JSON.parse(body.toString('utf8')), timestamp: undefined });
      expect(withoutTime(hot.body)).toEqual(withoutTime(routed.body));
    }

    const { body } = await write.post('/keys', { kind: 'kiosk', store: 'door' });
    const kiosk = { authorization: `Bearer ${body.key}` };
    expect((await raw(`/products/${productId}`, kiosk)).status).toBe(200);
    expect((await write.delete(`/keys/${body.id}`)).status).toBe(200);
    const revoked = await raw(`/products/${productId}`, kiosk);
    expect(revoked.status).toBe(403);
    expect(JSON.parse(revoked.body.toString('utf8'))).toMatchObject({ statusCode: 403, message: 'Forbidden' });
  });

  it('show a change at the very next read, by id and by barcode', async () => {
    expect((await write.post(`/products/${productId}`, { price: 610, barcode: '7610000000031' })).status).toBe(200);
    const byId = JSON.parse((await raw(`/products/${productId}`, { authorization: `Bearer ${keys.kiosk}` })).body.toString('utf8'));
    expect(byId.data.price).toBe(610);
    const byCode = JSON.parse((await raw('/products?barcode=7610000000031', { authorization: `Bearer ${keys.kiosk}` })).body.toString('utf8'));
    expect(byCode.data.map((p: { id: string }) => p.id)).toEqual([productId]);
    const old = JSON.parse((await raw(`/products?barcode=${BARCODE}`, { authorization: `Bearer ${keys.kiosk}` })).body.toString('utf8'));
    expect(old.data).toEqual([]);
  });

  it('compress a large answer for a client that accepts it, and send it as it is otherwise', async () => {
    const auth = { authorization: `Bearer ${keys.write}` };
    const compressed = await raw(`/products/${longId}`, { ...auth, 'accept-encoding': 'br' });
    expect(Object.fromEntries(compressed.headers)['content-encoding']).toBe('br');
    const plain = await raw(`/products/${longId}`, auth);
    expect(Object.fromEntries(plain.headers)['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(compressed.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(JSON.parse(plain.body.toString('utf8')).data.description).toHaveLength('Aus der Region. '.length * 120);
  });

  it('refuse a query the router refuses, with its message', async () => {
    for (const path of ['/products?limit=0', '/products?barcode=', '/categories?updatedSince=yesterday', '/stores?limit=x']) {
      const { hot, routed } = await bothWays(path, { authorization: `Bearer ${keys.write}` });
      expect(hot.status, path).toBe(400);
      expect({ ...JSON.parse(hot.body.toString('utf8')), timestamp: 0 }).toEqual({ ...JSON.parse(routed.body.toString('utf8')), timestamp: 0 });
    }
  });

  it('log one line per read, with its path and status and without the key', async () => {
    lines.length = 0;
    const auth = { authorization: `Bearer ${keys.kiosk}` };
    await raw(`/products/${productId}`, auth);
    await raw(`/products?barcode=${BARCODE}`, auth);
    await raw('/health', {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
    expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', `/api/v1/products/${productId}`, 200],
      ['GET', '/api/v1/products', 200],
      ['GET', '/api/v1/health', 200],
    ]);
    for (const entry of requests) expect(entry.ms).toEqual(expect.any(Number));
    expect(lines.join('\n')).not.toContain(keys.kiosk);
  });
});
