import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { withCheckDigit, withWrongCheckDigit } from './support/ean13.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;
let read: Api;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
});
afterAll(async () => {
  await server.destroy();
});

/** A product whose barcode is the label's item code with the value zeroed. */
async function createItem(client: Api, prefix: string, item: string, fields: Record<string, unknown> = {}) {
  const barcode = withCheckDigit(`${prefix}${item}00000`);
  const res = await client.post('/products', { name: `Item ${item}`, price: 2490, taxCategory: '2.6', barcode, ...fields });
  expect(res.status).toBe(200);
  return { id: res.body.id as string, barcode };
}

const scan = (code: string, client = read) => client.get(`/products?barcode=${code}`);

describe('GET /products?barcode= with the built-in rules', () => {
  it('reads a 21 label as weight: the product with grams and its price per kg x kg', async () => {
    const cheese = await createItem(write, '21', '12345');
    const res = await scan(withCheckDigit('211234501500'));
    expect(res.status).toBe(200);
    const product = (await read.get(`/products/${cheese.id}`)).body.data;
    expect(res.body).toEqual({
      data: [{ ...product, scaleLabel: { kind: 'weight', grams: 1500, price: 3735 } }],
      meta: { total: 1, returned: 1, limit: 100 },
    });
  });

  it('reads a 23 label as price in cents, whatever the catalog price', async () => {
    const salad = await createItem(write, '23', '98765');
    const res = await scan(withCheckDigit('239876501995'));
    expect(res.body.data).toEqual([expect.objectContaining({ id: salad.id, price: 2490, scaleLabel: { kind: 'price', price: 1995 } })]);
  });

  it.each([
    ['0 g', '21', '00000', { kind: 'weight', grams: 0, price: 0 }],
    ['99999 g', '21', '99999', { kind: 'weight', grams: 99999, price: 248998 }],
    ['1 g, rounded half up from 2.49', '21', '00001', { kind: 'weight', grams: 1, price: 2 }],
    ['price 0', '23', '00000', { kind: 'price', price: 0 }],
    ['price 999.99', '23', '99999', { kind: 'price', price: 99999 }],
  ])('reads the boundary %s', async (_what, prefix, value, scaleLabel) => {
    const item = await createItem(write, prefix, '55555');
    const res = await scan(withCheckDigit(`${prefix}55555${value}`));
    expect(res.body.data).toEqual([expect.objectContaining({ id: item.id, scaleLabel })]);
    await write.delete(`/products/${item.id}`);
  });

  it('finds nothing for a label with a wrong check digit', async () => {
    await createItem(write, '21', '22222');
    const res = await scan(withWrongCheckDigit('212222201500'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { total: 0, returned: 0, limit: 100 } });
  });

  it('lets an exact barcode match win over the rule', async () => {
    await createItem(write, '21', '33333');
    const labelCode = withCheckDigit('213333301500');
    const exact = await write.post('/products', { name: 'Gift box', price: 5000, taxCategory: '8.1', barcode: labelCode });
    const res = await scan(labelCode);
    expect(res.body.data).toEqual([expect.not.objectContaining({ scaleLabel: expect.anything() })]);
    expect(res.body.data[0].id).toBe(exact.body.id);
  });

  it('finds nothing when the item is deleted, belongs to another organization or has no such code', async () => {
    const gone = await createItem(write, '21', '44444');
    await write.delete(`/products/${gone.id}`);
    expect((await scan(withCheckDigit('214444401500'))).body.data).toEqual([]);
    const other = server.createOrg();
    await createItem(api(server.url, other.writeKey), '21', '66666');
    expect((await scan(withCheckDigit('216666601500'))).body.data).toEqual([]);
    expect((await scan(withCheckDigit('217777701500'))).body.data).toEqual([]);
  });

  it('finds exactly the product of the item code for any item and value (property)', async () => {
    const used = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('21', '23'),
        fc.integer({ min: 0, max: 99999 }),
        fc.integer({ min: 0, max: 99999 }),
        async (prefix, item, value) => {
          const itemCode = String(item).padStart(5, '0');
          fc.pre(!used.has(prefix + itemCode));
          used.add(prefix + itemCode);
          const label = withCheckDigit(`${prefix}${itemCode}${String(value).padStart(5, '0')}`);
          // An item code the tests above gave a product already (fast-check likes values such as 33333).
          fc.pre((await scan(label)).body.data.length === 0);
          const product = await createItem(write, prefix, itemCode, { price: 1 + item });
          const res = await scan(label);
          expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([product.id]);
          const expected =
            prefix === '21'
              ? { kind: 'weight', grams: value, price: Math.floor(((1 + item) * value + 500) / 1000) }
              : { kind: 'price', price: value };
          expect(res.body.data[0].scaleLabel).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('organization rules (CLI label-rule)', () => {
  it('adds, lists and removes rules; an own rule is tried first and applies at once', async () => {
    const own = server.createOrg();
    const client = api(server.url, own.writeKey);
    const pork = await createItem(client, '28', '12345', { price: 1800 });
    const porkLabel = withCheckDigit('281234500750');
    expect((await scan(porkLabel, client)).body.data).toEqual([]);

    const added = await runCli(server.dataDir, ['label-rule', 'add', own.id, '--kind', 'weight', '--pattern', '28.....{NNDDD}', '--json']);
    expect(added.status).toBe(0);
    expect(added.json).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9]{20}$/), kind: 'weight', pattern: '28.....{NNDDD}', builtIn: false });
    expect((await scan(porkLabel, client)).body.data).toEqual([
      expect.objectContaining({ id: pork.id, scaleLabel: { kind: 'weight', grams: 750, price: 1350 } }),
    ]);

    // Redefines the built-in 21 prefix as a price label.
    const price21 = await runCli(server.dataDir, ['label-rule', 'add', own.id, '--kind', 'price', '--pattern', '21.....{NNNDD}', '--json']);
    const cheese = await createItem(client, '21', '12345');
    expect((await scan(withCheckDigit('211234501500'), client)).body.data).toEqual([
      expect.objectContaining({ id: cheese.id, scaleLabel: { kind: 'price', price: 1500 } }),
    ]);

    const listed = await runCli(server.dataDir, ['label-rule', 'list', own.id, '--json']);
    expect(listed.json).toEqual([
      added.json,
      price21.json,
      { id: null, kind: 'weight', pattern: '21.....{NNDDD}', builtIn: true },
      { id: null, kind: 'price', pattern: '23.....{NNNDD}', builtIn: true },
    ]);

    const removed = await runCli(server.dataDir, ['label-rule', 'remove', own.id, price21.json.id, '--json']);
    expect(removed.json).toEqual({ removed: 1 });
    expect((await scan(withCheckDigit('211234501500'), client)).body.data[0].scaleLabel).toEqual({ kind: 'weight', grams: 1500, price: 3735 });
    // Another organization keeps the built-in rules only.
    expect((await scan(porkLabel)).body.data).toEqual([]);
  });

  it('refuses a pattern it cannot read, an unknown kind and an unknown organization, naming the problem', async () => {
    const [bad, kind, unknown] = await Promise.all([
      runCli(server.dataDir, ['label-rule', 'add', org.id, '--kind', 'weight', '--pattern', '28.....NNDDD', '--json']),
      runCli(server.dataDir, ['label-rule', 'add', org.id, '--kind', 'volume', '--pattern', '28.....{NNDDD}', '--json']),
      runCli(server.dataDir, ['label-rule', 'list', 'no-such-org', '--json']),
    ]);
    expect(bad.status).toBe(1);
    expect(bad.json.error).toMatch(/pattern "28\.\.\.\.\.NNDDD" must be digits and dots with one value group/);
    expect(kind.json.error).toBe('kind: must be one of weight, price (got "volume")');
    expect(unknown.status).toBe(1);
    expect(unknown.json.error).toBe('Organization "no-such-org" not found');
  });
});

describe('GET /products?barcode= paging of label matches', () => {
  it('pages several products of one item code with cursor, each with the label', async () => {
    for (let i = 0; i < 3; i += 1) await createItem(write, '23', '10101');
    const { items, pages } = await collectPages(read, `/products?barcode=${withCheckDigit('231010100250')}&limit=2`);
    expect(pages).toBe(2);
    expect(items.map((p) => p.scaleLabel)).toEqual(Array(3).fill({ kind: 'price', price: 250 }));
  });
});

describe('POST /orders with lines from labels', () => {
  it('records a weight label as kilograms with its price, and a price label as one unit with its price', async () => {
    const cheese = await createItem(write, '21', '12121');
    const salad = await createItem(write, '23', '34343');
    const store = (await write.post('/stores', { name: 'Scale store' })).body.id;
    const weighed = (await scan(withCheckDigit('211212101500'))).body.data[0];
    const priced = (await scan(withCheckDigit('233434301995'))).body.data[0];
    const created = await write.post('/orders', {
      store,
      products: [
        { productId: weighed.id, quantity: weighed.scaleLabel.grams / 1000, price: weighed.scaleLabel.price },
        { productId: priced.id, quantity: 1, price: priced.scaleLabel.price },
      ],
    });
    expect(created.status).toBe(200);
    const order = (await read.get(`/orders/${created.body.id}`)).body.data;
    expect(order.price).toBe(3735 + 1995);
    expect(order.products).toEqual([
      expect.objectContaining({ productId: cheese.id, quantity: 1.5, price: 3735, tax: 95, netPrice: 3640 }),
      expect.objectContaining({ productId: salad.id, quantity: 1, price: 1995, tax: 51, netPrice: 1944 }),
    ]);
  });
});
