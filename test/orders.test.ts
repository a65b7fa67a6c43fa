import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

const NOW = '2026-11-15T10:00:00.000Z';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = /^[A-Za-z0-9]{20}$/;
const standardError = (statusCode: number, message: string | RegExp) => ({
  statusCode,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
  timestamp: expect.stringMatching(ISO),
  path: expect.stringMatching(/^\/api\/v1\//),
});
const validationError = (fieldErrors: Record<string, unknown>) => ({ error: { formErrors: [], fieldErrors } });

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let write: Api;
let read: Api;
let stranger: Api;
let store: string;
let milk: string;

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => new Date(NOW) } });
  org = server.createOrg();
  other = server.createOrg();
  server.createCatalogReferences(org.id, { categories: ['cat-1'], suppliers: ['sup-1'] });
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  stranger = api(server.url, other.writeKey);
  store = await createStore(write);
  milk = await createProduct({ name: 'Vollmilch 1l', price: 195, taxCategory: '2.6', depositProduct: 30, supplier: 'sup-1', category: 'cat-1' });
});
afterAll(async () => {
  await server.destroy();
});

/** The line fields of one unit of milk that do not depend on the quantity. */
const milkLine = () => ({ productId: milk, title: 'Vollmilch 1l', taxRate: 0.026, type: 'product', supplier: 'sup-1', category: 'cat-1' });

async function createStore(client: Api, name = 'Filiale Bern'): Promise<string> {
  const res = await client.post('/stores', { name });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

async function createProduct(body: Record<string, unknown>, client: Api = write): Promise<string> {
  const res = await client.post('/products', { name: 'Apfel', price: 100, taxCategory: '2.6', ...body });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

async function createOrder(body: Record<string, unknown> = {}): Promise<string> {
  const res = await write.post('/orders', { store, products: [{ productId: milk, quantity: 1 }], ...body });
  expect(res.body).toEqual({ success: true, id: expect.stringMatching(ID) });
  return res.body.id as string;
}

const count = (table: string, orgId = org.id) =>
  (server.sqlite().prepare(`SELECT count(*) AS n FROM ${table} WHERE org_id = ?`).get(orgId) as { n: number }).n;

const outboxOf = (id: string) =>
  (server.sqlite().prepare('SELECT operation, body FROM outbox WHERE resource = ? AND resource_id = ? ORDER BY seq').all('order', id) as {
    operation: string;
    body: string;
  }[]).map((row) => ({ operation: row.operation, body: JSON.parse(row.body) as unknown }));

describe('POST /orders', () => {
  it('refuses a missing key and a read key with 403', async () => {
    const body = { store, products: [{ productId: milk, quantity: 1 }] };
    expect((await api(server.url).post('/orders', body)).body).toEqual(standardError(403, 'Forbidden'));
    const res = await read.post('/orders', body);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(standardError(403, 'Forbidden'));
  });

  it('answers 400 naming the field for each invalid body, storing nothing', async () => {
    const before = [count('orders'), count('outbox')];
    const line = { productId: milk, quantity: 1 };
    const cases: [unknown, string][] = [
      [{ products: [line] }, 'store: is required'],
      [{ store }, 'products: is required'],
      [{ store, products: [] }, 'products: must hold at least one line'],
      [{ store, products: 'milk' }, 'products: must be an array of lines'],
      [{ store, products: [line], price: 5 }, 'price: is not a writable field (unknown or read-only)'],
      [{ store, products: [{ ...line, tax: 1 }] }, 'products.0.tax: is not a writable field (unknown or read-only)'],
      [{ store, products: [{ productId: milk }] }, 'products.0.quantity: is required'],
      [{ store, products: [{ ...line, quantity: 0 }] }, 'products.0.quantity: must be greater than 0'],
      [{ store, products: [{ ...line, quantity: 0.0000001 }] }, 'products.0.quantity: must have at most 6 decimal places'],
      [{ store, products: [{ ...line, taxRate: 8.1 }] }, 'products.0.taxRate: must be a fraction below 1 (0.081 for 8.1 %)'],
      [{ store, products: [{ ...line, price: 1.5 }] }, 'products.0.price: must be a whole number of cents'],
      [{ store, products: [line], orderDate: 'yesterday' }, 'orderDate: must be an ISO 8601 date-time'],
      [{ store, products: [line], orderId: '' }, 'orderId: must not be empty'],
      [{ store, products: [line], paymentMethod: 5 }, 'paymentMethod: must be a string'],
    ];
    for (const [body, message] of cases) {
      const res = await write.post('/orders', body);
      expect(res.status, message).toBe(400);
      expect(res.body).toEqual(standardError(400, new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)));
    }
    expect([count('orders'), count('outbox')]).toEqual(before);
  });

  it('refuses unknown, foreign and deleted stores with 400 naming store', async () => {
    const deleted = await createStore(write, 'Geschlossen');
    await write.post(`/stores/${deleted}`, { deleted: true });
    const foreign = await createStore(stranger);
    const products = [{ productId: milk, quantity: 1 }];
    for (const [id, message] of [
      ['nosuchstore', 'store: no store "nosuchstore" in this organization'],
      [foreign, `store: no store "${foreign}" in this organization`],
      [deleted, `store: store "${deleted}" is deleted`],
    ] as const) {
      const res = await write.post('/orders', { store: id, products });
      expect(res.body).toEqual(standardError(400, message));
    }
  });

  it('refuses unknown, foreign, deleted, saleStop and deactivated products with 400 naming the line', async () => {
    const foreign = await createProduct({}, stranger);
    const deleted = await createProduct({});
    await write.delete(`/products/${deleted}`);
    const stopped = await createProduct({ saleStop: true });
    const deactivated = await createProduct({ deactivated: true });
    const cases: [string, string][] = [
      ['nosuchproduct', 'no product "nosuchproduct" in this organization'],
      [foreign, `no product "${foreign}" in this organization`],
      [deleted, `product "${deleted}" is deleted and cannot be sold`],
      [stopped, `product "${stopped}" has saleStop set and cannot be sold`],
      [deactivated, `product "${deactivated}" is deactivated and cannot be sold`],
    ];
    for (const [productId, message] of cases) {
      const res = await write.post('/orders', { store, products: [{ productId: milk, quantity: 1 }, { productId, quantity: 1 }] });
      expect(res.body).toEqual(standardError(400, `products.1.productId: ${message}`));
    }
  });

  it('stores every field, prices lines from the catalog and queues the order as sold', async () => {
    const wine = await createProduct({
      name: 'Rotwein',
      price: 1290,
      taxCategory: '8.1',
      salePrice: 990,
      salePriceDateFrom: '2026-11-01T00:00:00.000Z',
      salePriceDateTo: '2026-11-30T23:59:59.000Z',
    });
    const body = {
      store,
      orderId: 'till-1-0001',
      paymentState: 'pending',
      paymentMethod: 'card',
      paymentBrand: 'visa',
      orderDate: '2026-11-20T09:15:00+01:00',
      transactionDate: '2026-11-20T09:16:00+01:00',
      transactionMessage: 'approved',
      giftcardId: 'gc-7',
      products: [
        { productId: milk, quantity: 6 },
        { productId: wine, quantity: 0.5 },
        { productId: wine, quantity: 1, title: 'Rotwein (Kiste)', price: 1000, taxRate: 0.077, deposit: 20 },
      ],
    };
    const id = (await write.post('/orders', body)).body.id as string;
    const order = {
      id,
      orderId: 'till-1-0001',
      store,
      price: 1170 + 180 + 495 + 1000 + 20,
      paymentState: 'pending',
      paymentMethod: 'card',
      paymentBrand: 'visa',
      orderDate: '2026-11-20T08:15:00.000Z',
      transactionDate: '2026-11-20T08:16:00.000Z',
      transactionMessage: 'approved',
      giftcardId: 'gc-7',
      deleted: false,
      products: [
        { ...milkLine(), quantity: 6, price: 1170, netPrice: 1140, tax: 30, deposit: 180 },
        { productId: wine, quantity: 0.5, title: 'Rotwein', price: 495, netPrice: 458, tax: 37, taxRate: 0.081, type: 'product', deposit: 0 },
        { productId: wine, quantity: 1, title: 'Rotwein (Kiste)', price: 1000, netPrice: 929, tax: 71, taxRate: 0.077, type: 'product', deposit: 20 },
      ],
    };
    const got = await read.get(`/orders/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ data: order });

    const row = server.sqlite().prepare('SELECT org_id, order_id, price, createdate FROM orders WHERE id = ?').get(id);
    expect(row).toEqual({ org_id: org.id, order_id: 'till-1-0001', price: 2865, createdate: NOW });
    const { id: _id, price: _price, deleted: _deleted, products, ...fields } = order;
    expect(outboxOf(id)).toEqual([
      {
        operation: 'create',
        body: {
          ...fields,
          products: products.map(({ productId, quantity, title, price, taxRate, deposit }) => ({ productId, quantity, title, price, taxRate, deposit })),
        },
      },
    ]);
  });

  it('fills defaults: orderId = id, paymentState successful, orderDate now, optional fields absent', async () => {
    const id = await createOrder();
    expect((await read.get(`/orders/${id}`)).body.data).toEqual({
      id,
      orderId: id,
      store,
      price: 225,
      paymentState: 'successful',
      orderDate: NOW,
      deleted: false,
      products: [{ ...milkLine(), quantity: 1, price: 195, netPrice: 190, tax: 5, deposit: 30 }],
    });
  });

  it('prices by the catalog at orderDate: sale price only inside its window', async () => {
    const cheese = await createProduct({ name: 'Käse', price: 500, salePrice: 400, salePriceDateFrom: '2026-12-01T00:00:00.000Z' });
    const priceAt = async (orderDate: string) => {
      const id = await createOrder({ orderDate, products: [{ productId: cheese, quantity: 2 }] });
      return (await read.get(`/orders/${id}`)).body.data.price as number;
    };
    expect(await priceAt('2026-11-30T23:59:59.999Z')).toBe(1000);
    expect(await priceAt('2026-12-01T00:00:00.000Z')).toBe(800);
    expect(await priceAt('2027-06-01T00:00:00.000Z')).toBe(800);
  });

  it('is idempotent on orderId: a repeat returns the first id and stores nothing, even after the catalog changed', async () => {
    const first = await createOrder({ orderId: 'retry-1' });
    const entries = count('outbox');
    const stopped = await createProduct({});
    await write.post(`/products/${stopped}`, { saleStop: true });
    const again = await write.post('/orders', { store: 'gone', orderId: 'retry-1', products: [{ productId: stopped, quantity: 9 }] });
    expect(again.body).toEqual({ success: true, id: first });
    const retry = { store, orderId: 'retry-2', products: [{ productId: milk, quantity: 1 }] };
    const burst = await Promise.all(Array.from({ length: 5 }, () => write.post('/orders', retry)));
    const ids = new Set(burst.map((res) => res.body.id as string));
    expect(ids.size).toBe(1);
    const stored = server.sqlite().prepare('SELECT count(*) AS n FROM orders WHERE org_id = ? AND order_id IN (?, ?)');
    expect(stored.get(org.id, 'retry-1', 'retry-2')).toEqual({ n: 2 });
    expect(count('outbox')).toBe(entries + 2 + 1);
    const foreignStore = await createStore(stranger);
    const foreignMilk = await createProduct({}, stranger);
    const theirs = await stranger.post('/orders', { store: foreignStore, orderId: 'retry-1', products: [{ productId: foreignMilk, quantity: 1 }] });
    expect(theirs.body.id).not.toBe(first);
  });
});

describe('GET /orders/{orderId}', () => {
  it('refuses a missing key with 403', async () => {
    expect((await api(server.url).get('/orders/x')).body).toEqual(standardError(403, 'Forbidden'));
  });

  it("answers 404 for unknown ids and for another organization's order", async () => {
    const id = await createOrder();
    expect((await read.get('/orders/nosuchorder')).body).toEqual(standardError(404, 'Order "nosuchorder" not found'));
    const res = await stranger.get(`/orders/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(standardError(404, `Order "${id}" not found`));
  });
});

describe('POST /orders/{orderId}', () => {
  it('refuses a read key with 403 and answers 404 for unknown and foreign ids', async () => {
    const id = await createOrder();
    expect((await read.post(`/orders/${id}`, { paymentState: 'refunded' })).body).toEqual(standardError(403, 'Forbidden'));
    expect((await write.post('/orders/nosuchorder', { paymentState: 'x' })).body).toEqual(standardError(404, 'Order "nosuchorder" not found'));
    expect((await stranger.post(`/orders/${id}`, { deleted: true })).body).toEqual(standardError(404, `Order "${id}" not found`));
    expect((await read.get(`/orders/${id}`)).body.data.deleted).toBe(false);
  });

  it('answers 400 naming the field for read-only or invalid fields', async () => {
    const id = await createOrder();
    const cases: [unknown, string][] = [
      [{ price: 1 }, 'price: is not a writable field (unknown or read-only)'],
      [{ products: [] }, 'products: is not a writable field (unknown or read-only)'],
      [{ store }, 'store: is not a writable field (unknown or read-only)'],
      [{ deleted: 'yes' }, 'deleted: must be true or false (got "yes")'],
      [{ transactionDate: 'now' }, 'transactionDate: must be an ISO 8601 date-time, for example 2026-11-21T08:30:00.000Z (got "now")'],
      [{ paymentState: '' }, 'paymentState: must not be empty'],
    ];
    for (const [body, message] of cases) expect((await write.post(`/orders/${id}`, body)).body).toEqual(standardError(400, message));
  });

  it('changes only the fields sent, queues the change, and soft-deletes and restores with deleted', async () => {
    const id = await createOrder({ paymentMethod: 'cash' });
    const patch = { paymentState: 'refunded', paymentBrand: 'twint', transactionDate: '2026-11-15T11:00:00+01:00', transactionMessage: 'ok', giftcardId: 'g1' };
    expect((await write.post(`/orders/${id}`, patch)).body).toEqual({ success: true });
    const { data } = (await read.get(`/orders/${id}`)).body;
    expect(data).toMatchObject({ ...patch, transactionDate: '2026-11-15T10:00:00.000Z', paymentMethod: 'cash', price: 225, deleted: false });

    expect((await write.post(`/orders/${id}`, { deleted: true })).body).toEqual({ success: true });
    expect((await read.get(`/orders/${id}`)).body.data).toEqual({ ...data, deleted: true });
    const window = `/orders?start=${NOW}&end=${NOW}`;
    expect((await collectPages(read, window)).items.map((o) => o.id)).not.toContain(id);
    expect((await collectPages(read, `${window}&includeDeleted=true`)).items.map((o) => o.id)).toContain(id);
    await write.post(`/orders/${id}`, { deleted: false });
    expect((await collectPages(read, window)).items.map((o) => o.id)).toContain(id);

    expect((await write.post(`/orders/${id}`, {})).body).toEqual({ success: true });
    expect(outboxOf(id).slice(1)).toEqual([
      { operation: 'update', body: { ...patch, transactionDate: '2026-11-15T10:00:00.000Z' } },
      { operation: 'update', body: { deleted: true } },
      { operation: 'update', body: { deleted: false } },
    ]);
  });
});

describe('GET /orders', () => {
  it('refuses a missing key with 403', async () => {
    expect((await api(server.url).get(`/orders?start=${NOW}&end=${NOW}`)).status).toBe(403);
  });

  it('answers 400 in the validation shape for each invalid query', async () => {
    const window = `start=${NOW}&end=${NOW}`;
    const notADateTime = expect.stringMatching(/^must be an ISO 8601 date-time/);
    const cases: [string, Record<string, unknown>][] = [
      ['', { start: ['is required'], end: ['is required'] }],
      [`start=${NOW}`, { end: ['is required'] }],
      ['start=today&end=2026-11-15', { start: [notADateTime], end: [notADateTime] }],
      ['start=2026-11-15T10:00:00.000Z&end=2026-11-15T09:59:59.999Z', { end: ['must not be before start'] }],
      [`${window}&limit=5001`, { limit: ['Number must be at most 5000'] }],
      [`${window}&limit=0`, { limit: ['Number must be at least 1'] }],
      [`${window}&includeDeleted=yes`, { includeDeleted: [expect.stringMatching(/^must be "true" or "false"/)] }],
      [`${window}&cursor=not-a-cursor`, { cursor: [expect.stringMatching(/^is not a cursor/)] }],
    ];
    for (const [query, fieldErrors] of cases) {
      const res = await read.get(`/orders?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual(validationError(fieldErrors));
    }
  });

  describe('paging with filters', () => {
    interface Made { id: string; orderDate: string; paymentState: string; deleted: boolean }
    const made: Made[] = [];
    const DAY = '2030-01-01';
    const at = (minute: number) => `${DAY}T10:${String(minute).padStart(2, '0')}:00.000Z`;

    beforeAll(async () => {
      for (let i = 0; i < 40; i += 1) {
        // Several orders share a minute so the id decides their order.
        const orderDate = at(i % 13);
        const paymentState = i % 3 === 0 ? 'pending' : 'successful';
        const id = await createOrder({ orderDate, paymentState });
        const deleted = i % 7 === 0;
        if (deleted) await write.post(`/orders/${id}`, { deleted: true });
        made.push({ id, orderDate, paymentState, deleted });
      }
    });

    it('serves the window newest first, each order with its lines, and a cursor when more exist', async () => {
      const res = await read.get(`/orders?start=${at(0)}&end=${at(12)}&limit=5`);
      expect(res.body.meta).toEqual({ total: 5, returned: 5, limit: 5, nextCursor: expect.any(String) });
      expect(res.body.data[0]).toEqual(expect.objectContaining({ orderDate: at(12), products: [expect.objectContaining({ productId: milk })] }));
    });

    it('equals filtering all orders in memory, for any window, state, deletion flag and page size', async () => {
      const newestFirst = (a: Made, b: Made) => (a.orderDate === b.orderDate ? (a.id < b.id ? 1 : -1) : a.orderDate < b.orderDate ? 1 : -1);
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 12 }),
          fc.integer({ min: 0, max: 12 }),
          fc.constantFrom(undefined, 'pending', 'successful'),
          fc.boolean(),
          fc.integer({ min: 1, max: 9 }),
          async (a, b, paymentState, includeDeleted, limit) => {
            const [from, to] = [at(Math.min(a, b)), at(Math.max(a, b))];
            const expected = made
              .filter((o) => o.orderDate >= from && o.orderDate <= to)
              .filter((o) => paymentState === undefined || o.paymentState === paymentState)
              .filter((o) => includeDeleted || !o.deleted)
              .sort(newestFirst)
              .map((o) => o.id);
            let path = `/orders?start=${from}&end=${to}&limit=${limit}`;
            if (paymentState) path += `&paymentState=${paymentState}`;
            if (includeDeleted) path += '&includeDeleted=true';
            const { items, pages } = await collectPages(read, path);
            expect(items.map((o) => o.id)).toEqual(expected);
            expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
          },
        ),
        { numRuns: 25 },
      );
    });

    it("never serves another organization's orders", async () => {
      const res = await stranger.get(`/orders?start=${at(0)}&end=${at(12)}`);
      expect(res.body).toEqual({ data: [], meta: { total: 0, returned: 0, limit: 100 } });
    });
  });
});
