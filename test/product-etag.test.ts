import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  write = api(server.url, org.writeKey);
});
afterAll(async () => {
  await server.destroy();
});

const newProduct = async () => (await write.post('/products', { name: 'Rüebli', price: 195, taxCategory: '2.6', barcode: `r-${Math.random()}` })).body.id as string;
const update = (id: string, body: unknown, ifMatch?: string) =>
  write.request('POST', `/products/${id}`, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) } });
const tagOf = async (id: string) => (await write.get(`/products/${id}`)).headers.get('etag')!;

/** A GET with exactly these headers: without an Origin the hot read path answers it, with the server's own origin Express's router does. */
function etagBy(path: string, headers: Record<string, string>): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers: { authorization: `Bearer ${org.writeKey}`, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers.etag));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /products/{id}', () => {
  it('answers a strong ETag that changes with the product, the same on the hot read path as through the router', async () => {
    const id = await newProduct();
    const tag = await tagOf(id);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(await tagOf(id)).toBe(tag);
    const origin = new URL(server.url).origin;
    for (const encoding of [{}, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
      expect(await etagBy(`/products/${id}`, encoding)).toBe(tag);
      expect(await etagBy(`/products/${id}`, { ...encoding, origin })).toBe(tag);
    }
    expect((await update(id, { price: 210 })).status).toBe(200);
    const changed = await tagOf(id);
    expect(changed).not.toBe(tag);
    expect(await etagBy(`/products/${id}`, {})).toBe(changed);
    expect(await etagBy(`/products/${id}`, { origin })).toBe(changed);
  });
});

describe('POST /products/{id} with If-Match', () => {
  it('writes when the tag is the current one, or *', async () => {
    const id = await newProduct();
    expect((await update(id, { price: 205 }, await tagOf(id))).status).toBe(200);
    expect((await update(id, { price: 215 }, `"stale", ${await tagOf(id)}`)).status).toBe(200);
    expect((await update(id, { price: 225 }, '*')).status).toBe(200);
    expect((await write.get(`/products/${id}`)).body.data.price).toBe(225);
  });

  it('answers 412 and writes nothing when the product changed since', async () => {
    const id = await newProduct();
    const read = await tagOf(id);
    expect((await update(id, { price: 300 })).status).toBe(200);
    const outbox = () => (server.sqlite().prepare('SELECT count(*) AS n FROM outbox WHERE resource_id = ?').get(id) as { n: number }).n;
    const before = outbox();
    const refused = await update(id, { price: 400 }, read);
    expect(refused.status).toBe(412);
    expect(refused.body).toEqual({
      statusCode: 412,
      message: expect.stringMatching(/^The product changed since it was read \(If-Match .* is not its ETag .*\); nothing was written\./),
      timestamp: expect.any(String),
      path: `/api/v1/products/${id}`,
    });
    expect((await write.get(`/products/${id}`)).body.data.price).toBe(300);
    expect(outbox()).toBe(before);
    expect((await update(id, {}, read)).status).toBe(412);
    expect((await update(id, { price: 400 }, `W/${await tagOf(id)}`)).status).toBe(412);
  });

  it('answers 412 when the product was deleted since, and writes nothing', async () => {
    const id = await newProduct();
    const read = await tagOf(id);
    expect((await write.delete(`/products/${id}`)).status).toBe(200);
    const refused = await update(id, { price: 500 }, read);
    expect(refused.status).toBe(412);
    expect(refused.body.message).toBe('The product was deleted since it was read; nothing was written.');
    expect((await update('no-such-product', { price: 500 }, read)).status).toBe(412);
    expect((await update(id, { price: 500 }, '*')).status).toBe(412);
  });
});
