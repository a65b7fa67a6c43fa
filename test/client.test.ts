import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStoreClient, StoreApiError, StoreNetworkError, type StoreClient, type StoreClientOptions } from '../client/src/index.js';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.js';
import { makeImage, multipartBody } from './support/images.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';
import { standardError, validationError } from './support/shapes.js';

let server: TestServer;
let proxy: FaultProxy;
let org: TestOrg;
let write: StoreClient;
let read: StoreClient;

/** Retries without pauses: the tests count attempts, they do not wait for them. */
const client = (key: string, options: Partial<StoreClientOptions> = {}) => createStoreClient({ baseUrl: server.url, key, retryDelayMs: 1, ...options });
/** The same client through the fault proxy. */
const proxied = (options: Partial<StoreClientOptions> = {}) => client(org.writeKey, { baseUrl: proxy.url, ...options });
/** A fault for the first `count` requests only, then the proxy heals. */
const firstRequests = (count: number) => () => count-- > 0;

beforeAll(async () => {
  server = await startTestServer();
  proxy = await startFaultProxy(server.url);
  org = server.createOrg();
  write = client(org.writeKey);
  read = client(org.readKey);
});
afterEach(() => {
  proxy.setMode('pass');
});
afterAll(async () => {
  await proxy.close();
  await server.destroy();
});

const createProduct = async (name: string, fields: Record<string, unknown> = {}) =>
  (await write.post('/products', { body: { name, price: 100, taxCategory: '2.6', ...fields } })).id;

const productCount = () => (server.sqlite().prepare('SELECT count(*) AS n FROM products WHERE org_id = ?').get(org.id) as { n: number }).n;

/** The rejection of a call, to assert its class and fields. */
async function failure(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (err) {
    return err;
  }
  throw new Error('the call succeeded');
}

describe('answers', () => {
  it('answers the success body of a read and of a write, typed from the OpenAPI document', async () => {
    const id = await createProduct('Bergkäse', { barcode: '7610000000017' });
    const one = await read.get('/products/{productId}', { params: { path: { productId: id } } });
    expect(one.data).toMatchObject({ id, name: 'Bergkäse', price: 100, deleted: false });
    const found = await read.get('/products', { params: { query: { barcode: '7610000000017' } } });
    expect(found.data.map((p) => p.id)).toEqual([id]);
    expect(await read.get('/health')).toMatchObject({ status: 'ok' });
  });
});

describe('pages() and items()', () => {
  it('follow nextCursor over every page, each product once, in id order', async () => {
    const shop = server.createOrg();
    const shopWrite = client(shop.writeKey);
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C', 'D', 'E']) ids.push((await shopWrite.post('/products', { body: { name, price: 1, taxCategory: '0' } })).id);

    const pages = [];
    for await (const page of shopWrite.pages('/products', { params: { query: { limit: 2 } } })) pages.push(page.data.map((p) => p.id));
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual([...ids].sort());

    const names = [];
    for await (const product of shopWrite.items('/products', { params: { query: { limit: 2 } } })) names.push(product.name);
    expect(names.sort()).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('start from a cursor given in the query and stop when the loop stops', async () => {
    const shop = server.createOrg();
    const shopWrite = client(shop.writeKey);
    for (const name of ['A', 'B', 'C']) await shopWrite.post('/categories', { body: { name } });
    const first = await shopWrite.get('/categories', { params: { query: { limit: 1 } } });
    const rest = [];
    for await (const category of shopWrite.items('/categories', { params: { query: { limit: 1, cursor: first.meta.nextCursor } } })) rest.push(category.name);
    expect([first.data[0]?.name, ...rest].sort()).toEqual(['A', 'B', 'C']);

    let seen = 0;
    for await (const category of shopWrite.items('/categories', { params: { query: { limit: 1 } } })) {
      expect(category.name).toBeTruthy();
      if (++seen === 2) break;
    }
    expect(seen).toBe(2);
  });
});

describe('StoreApiError', () => {
  it('carries status, body and the API message of a 400 in the standard shape', async () => {
    const err = await failure(write.post('/products', { body: { name: 'Ohne Preis', taxCategory: '2.6' } as never }));
    expect(err).toBeInstanceOf(StoreApiError);
    const apiError = err as StoreApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.body).toEqual(standardError(400, /price/));
    expect(apiError.message).toBe((apiError.body as { message: string }).message);
    expect(apiError.request).toBe('POST /products');
  });

  it('names the fields of a 400 in the validation shape', async () => {
    const err = (await failure(read.get('/products', { params: { query: { limit: 9999 } } }))) as StoreApiError;
    expect(err).toBeInstanceOf(StoreApiError);
    expect(err.status).toBe(400);
    expect(err.body).toEqual(validationError({ limit: ['Number must be at most 5000'] }));
    expect(err.message).toBe('limit: Number must be at most 5000');
  });

  it('is a 403 for a write with a read key, and the product is not stored', async () => {
    const before = productCount();
    const err = (await failure(read.post('/products', { body: { name: 'X', price: 1, taxCategory: '0' } }))) as StoreApiError;
    expect(err).toBeInstanceOf(StoreApiError);
    expect(err.status).toBe(403);
    expect(err.body).toEqual(standardError(403, err.message));
    expect(productCount()).toBe(before);
  });

  it('is a 404 for an unknown id', async () => {
    const err = (await failure(read.get('/orders/{orderId}', { params: { path: { orderId: 'no-such-order' } } }))) as StoreApiError;
    expect(err).toBeInstanceOf(StoreApiError);
    expect(err.status).toBe(404);
    expect(err.body).toEqual(standardError(404, /not found/i));
  });

  it('is a 422 for an Idempotency-Key used again with another body', async () => {
    const header = { 'idempotency-key': 'client-422' };
    await write.post('/products', { params: { header }, body: { name: 'Erste', price: 1, taxCategory: '0' } });
    const err = (await failure(write.post('/products', { params: { header }, body: { name: 'Zweite', price: 1, taxCategory: '0' } }))) as StoreApiError;
    expect(err).toBeInstanceOf(StoreApiError);
    expect(err.status).toBe(422);
    expect(err.body).toEqual(standardError(422, /already used with another request body/));
  });

  it('is a 409 while a request with the same Idempotency-Key is still running', async () => {
    const id = await createProduct('Foto');
    const { body, contentType } = multipartBody(await makeImage('png'), 'image/png');
    const { hostname, port } = new URL(server.url);
    const headers = { authorization: `Bearer ${org.writeKey}`, 'content-type': contentType, 'content-length': String(body.length), 'idempotency-key': 'client-409' };
    // A slow upload sends half its body and waits: it is in flight until the rest follows.
    const first = request({ hostname, port, method: 'POST', path: `/api/v1/products/${id}/image`, headers });
    const firstAnswer = new Promise<number>((resolve, reject) => {
      first.on('response', (res) => resolve(res.resume().statusCode ?? 0));
      first.on('error', reject);
    });
    first.write(body.subarray(0, 100));
    await new Promise((resolve) => setTimeout(resolve, 200));

    const upload = { params: { path: { productId: id }, header: { 'idempotency-key': 'client-409' } }, body: { file: '' }, bodySerializer: () => body, headers: { 'content-type': contentType } };
    const err = (await failure(write.post('/products/{productId}/image', upload))) as StoreApiError;
    expect(err).toBeInstanceOf(StoreApiError);
    expect(err.status).toBe(409);
    expect(err.body).toEqual(standardError(409, /still being processed/));
    first.end(body.subarray(100));
    expect(await firstAnswer).toBe(200);
  });
});

describe('Idempotency-Key and retries', () => {
  it('sends one key per POST and keeps it on the retry after a lost answer: the server replays, one product is stored', async () => {
    const before = productCount();
    proxy.setMode('drop', { only: firstRequests(1) });
    const { data, response } = await proxied().api.POST('/products', { body: { name: 'Einmal', price: 1, taxCategory: '0' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(proxy.stats().faulted).toBe(1);
    expect(productCount()).toBe(before + 1);
    expect((await read.get('/products/{productId}', { params: { path: { productId: data?.id ?? '' } } })).data.name).toBe('Einmal');
  });

  it('gives every POST its own key: two calls with the same body store two products', async () => {
    const before = productCount();
    const body = { name: 'Zweimal', price: 1, taxCategory: '0' as const };
    await write.post('/products', { body });
    const second = await write.api.POST('/products', { body });
    expect(second.response.headers.get('idempotent-replayed')).toBeNull();
    expect(productCount()).toBe(before + 2);
  });

  it('retries a read while the server is unreachable and answers once it is back', async () => {
    const id = await createProduct('Geduld');
    proxy.setMode('down', { only: firstRequests(2) });
    const product = await proxied().get('/products/{productId}', { params: { path: { productId: id } } });
    expect(product.data.name).toBe('Geduld');
    expect(proxy.stats().faulted).toBeGreaterThanOrEqual(2);
  });

  it('retries a read answered 503, and hands on the 503 when it stays', async () => {
    const id = await createProduct('Später');
    proxy.setMode('error', { only: firstRequests(1) });
    expect((await proxied().get('/products/{productId}', { params: { path: { productId: id } } })).data.name).toBe('Später');

    proxy.setMode('error');
    const before = proxy.stats().requests;
    const err = (await failure(proxied({ retries: 2 }).get('/products/{productId}', { params: { path: { productId: id } } }))) as StoreApiError;
    expect(err).toBeInstanceOf(StoreApiError);
    expect(err.status).toBe(503);
    expect(proxy.stats().requests - before).toBe(3);
  });

  it('throws StoreNetworkError after the last attempt, naming the call', async () => {
    proxy.setMode('down');
    const before = proxy.stats().requests;
    const err = await failure(proxied({ retries: 2 }).get('/stores'));
    expect(err).toBeInstanceOf(StoreNetworkError);
    expect((err as Error).message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/stores: .*\(3 attempts\)$/);
    expect(proxy.stats().requests - before).toBe(3);
  });

  it('does not repeat a DELETE, which has no key to make a repeat safe', async () => {
    const id = await createProduct('Bleibt');
    proxy.setMode('down');
    const before = proxy.stats().requests;
    expect(await failure(proxied().delete('/products/{productId}', { params: { path: { productId: id } } }))).toBeInstanceOf(StoreNetworkError);
    expect(proxy.stats().requests - before).toBe(1);
    expect((await read.get('/products/{productId}', { params: { path: { productId: id } } })).data.deleted).toBe(false);
  });

  it('gives up an attempt after the timeout and tries again', async () => {
    const id = await createProduct('Langsam');
    proxy.setMode('delay', { delayMs: 5_000, only: firstRequests(1) });
    const product = await proxied({ timeoutMs: 300 }).get('/products/{productId}', { params: { path: { productId: id } } });
    expect(product.data.name).toBe('Langsam');
  });

  it('stops at once when the caller aborts, with the caller’s own reason', async () => {
    const before = proxy.stats().requests;
    const err = await failure(proxied().get('/stores', { signal: AbortSignal.abort() }));
    expect(err).not.toBeInstanceOf(StoreNetworkError);
    expect((err as Error).name).toBe('AbortError');
    expect(proxy.stats().requests).toBe(before);
  });
});
