import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

/** Purchase prices, margins and a supplier's contact and bank details stay with staff keys. */

let server: TestServer;
let org: TestOrg;
let write: Api;
let read: Api;
let kiosk: Api;
let scale: Api;
let supplierId: string;
let productId: string;
const since = new Date(Date.now() - 60_000).toISOString();

const SUPPLIER = {
  name: 'Käserei Gruyère',
  company: 'Käserei Gruyère AG',
  email: 'verkauf@kaeserei.example',
  phone: '+41 26 000 00 00',
  contactPerson: 'Anna Muster',
  iban: 'CH93 0076 2011 6238 5295 7',
  bic: 'POFICHBEXXX',
  bankName: 'PostFinance',
  supplierMargin: 0.3,
  payoutsEnabled: true,
};

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  server.createStores(org.id, ['door']);
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  kiosk = api(server.url, (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body.key);
  scale = api(server.url, (await write.post('/keys', { kind: 'scale' })).body.key);
  supplierId = (await write.post('/suppliers', SUPPLIER)).body.id;
  productId = (await write.post('/products', { name: 'Gruyère AOP', price: 590, costPrice: 380, margin: 0.356, supplier: supplierId, taxCategory: '2.6', barcode: '7610000000024' })).body.id;
});
afterAll(async () => {
  await server.destroy();
});

/** The product as each kind of key reads it, through every read a device uses. */
async function productReads(client: Api): Promise<Record<string, unknown>[]> {
  let search = await client.get('/products?q=gruyere');
  for (let i = 0; search.status === 503 && i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    search = await client.get('/products?q=gruyere');
  }
  return [
    (await client.get(`/products/${productId}`)).body.data,
    (await client.get('/products')).body.data[0],
    (await client.get('/products?barcode=7610000000024')).body.data[0],
    (await client.get(`/products?updatedSince=${encodeURIComponent(since)}`)).body.data[0],
    search.body.data[0],
  ];
}

describe('products read with a device key', () => {
  it('leave out costPrice and margin for kiosk and scale keys, in every read including search and the feed', async () => {
    for (const device of [kiosk, scale]) {
      const reads = await productReads(device);
      expect(reads.map((p) => ({ id: p.id, price: p.price, costPrice: p.costPrice, margin: p.margin }))).toEqual(
        reads.map(() => ({ id: productId, price: 590, costPrice: undefined, margin: undefined })),
      );
    }
  });

  it('keep them for staff keys', async () => {
    const reads = await productReads(read);
    expect(reads.map((p) => ({ costPrice: p.costPrice, margin: p.margin }))).toEqual(reads.map(() => ({ costPrice: 380, margin: 0.356 })));
  });
});

describe('suppliers read with a kiosk key', () => {
  it('name the supplier and nothing to reach or pay it', async () => {
    const expected = { id: supplierId, name: SUPPLIER.name, organizationId: org.id, deleted: false, createdate: expect.any(String) };
    expect((await kiosk.get(`/suppliers/${supplierId}`)).body).toEqual({ data: expected });
    expect((await kiosk.get('/suppliers')).body.data).toEqual([expected]);
    expect((await kiosk.get(`/suppliers?updatedSince=${encodeURIComponent(since)}`)).body.data).toEqual([expected]);
  });

  it('read whole for a read key', async () => {
    expect((await read.get(`/suppliers/${supplierId}`)).body.data).toMatchObject(SUPPLIER);
  });
});
