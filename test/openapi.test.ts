import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.destroy();
});

/** Every endpoint of the v1 contract. */
const SPEC = [
  'GET /products',
  'POST /products',
  'GET /products/{productId}',
  'POST /products/{productId}',
  'DELETE /products/{productId}',
  'POST /products/{productId}/image',
  'DELETE /products/{productId}/image',
  'GET /orders',
  'GET /orders/{orderId}',
  'GET /suppliers',
  'POST /suppliers',
  'GET /suppliers/{supplierId}',
  'POST /suppliers/{supplierId}',
  'GET /categories/{categoryId}',
  'POST /categories/{categoryId}',
  'POST /stores',
  'POST /stores/{storeId}',
  'GET /identity-logs',
  'GET /identity-logs/blocked',
  'POST /identity-logs/blocked/{blockedId}',
];

/** Endpoints this server adds, which the document must mark as extensions. */
const EXTENSIONS = [
  'GET /health',
  'GET /openapi.json',
  'POST /catalog/import',
  'GET /catalog/export',
  'GET /catalog/columns',
  'POST /catalog/columns',
  'GET /update',
  'GET /images/{file}',
  'POST /categories',
  'GET /categories',
  'GET /stores',
  'GET /stores/{storeId}',
  'POST /orders',
  'POST /orders/{orderId}',
  'POST /identity-logs',
  'POST /identity-logs/verdict',
  'POST /identity-logs/blocked',
  'GET /identity-logs/blocked/{blockedId}',
  'DELETE /identity-logs/blocked/{blockedId}',
  'GET /sync',
  'GET /sync/parked',
  'POST /receipts/{orderId}/print',
  'POST /printers',
  'GET /printers',
  'DELETE /printers/{printerId}',
  'POST /printers/{printerId}/check',
  'POST /terminals',
  'GET /terminals',
  'DELETE /terminals/{terminalId}',
  'GET /terminals/{terminalId}/totals',
  'POST /terminals/{terminalId}/check',
  'POST /payments',
  'GET /payments',
  'GET /payments/{paymentId}',
  'POST /payments/{paymentId}/cancel',
  'POST /payments/{paymentId}/refund',
  'POST /sync/parked/{entryId}/retry',
  'POST /sync/parked/{entryId}/discard',
  'POST /fleet/heartbeat',
  'GET /fleet',
  'DELETE /fleet/{device}',
  'GET /reports/daily',
  'POST /reports/daily/print',
  'GET /system',
  'GET /mail',
  'POST /mail/test',
  'POST /mail/settings',
  'POST /mail/daily',
  'GET /alerts',
  'GET /keys',
  'POST /keys',
  'GET /keys/current',
  'DELETE /keys/{keyId}',
  'POST /staff/sign-in',
  'DELETE /staff/sign-in',
  'POST /payout-account',
  'GET /payout-account',
  'POST /settlements',
  'GET /settlements',
  'GET /settlements/{settlementId}',
  'GET /settlements/{settlementId}/payout-file',
  'GET /settlements/{settlementId}/statements/{supplierId}',
  'POST /settlements/{settlementId}/send',
];

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document served without a key', async () => {
    const res = await api(server.url).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('1.0.0');
    expect(res.body.servers).toEqual([{ url: '/api/v1' }]);
    expect(res.body.components.securitySchemes.bearerKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes every endpoint, and marks exactly the extensions', async () => {
    const doc = (await api(server.url).get('/openapi.json')).body;
    const operations = new Map<string, Record<string, unknown>>();
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
      for (const [method, operation] of Object.entries(methods)) operations.set(`${method.toUpperCase()} ${path}`, operation);
    }
    expect([...operations.keys()].sort()).toEqual([...SPEC, ...EXTENSIONS].sort());
    for (const name of SPEC) expect(operations.get(name)?.['x-extension'], name).toBeUndefined();
    for (const name of EXTENSIONS) expect(operations.get(name)?.['x-extension'], name).toBe(true);
  });

  it('marks the change feed (`updatedSince`) of every pulled collection as an extension, with `meta.completeUntil`', async () => {
    const doc = (await api(server.url).get('/openapi.json')).body;
    for (const path of ['/products', '/categories', '/stores', '/suppliers', '/identity-logs/blocked']) {
      const parameter = doc.paths[path].get.parameters.find((p: { name: string }) => p.name === 'updatedSince');
      expect(parameter?.schema?.['x-extension'], path).toBe(true);
    }
    expect(doc.components.schemas.ListMeta.properties.completeUntil).toMatchObject({ type: 'string', format: 'date-time' });
  });

  it('names the shared schemas once and uses them by reference', async () => {
    const doc = (await api(server.url).get('/openapi.json')).body;
    for (const name of ['Product', 'ScaleLabel', 'ListMeta', 'StandardError', 'ValidationError', 'Order', 'Supplier', 'Category', 'Store']) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
    const list = doc.paths['/products'].get;
    expect(list.responses['200'].content['application/json'].schema.properties.data.items).toEqual({ $ref: '#/components/schemas/Product' });
    expect(list.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidationError' });
    expect(doc.components.schemas.Product.properties.scaleLabel).toEqual({ $ref: '#/components/schemas/ScaleLabel' });
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'barcode', 'cursor', 'limit', 'offset', 'q', 'showOnScale', 'showOnScreen', 'store', 'updatedSince',
    ]);
  });

  it('describes minimumAge as an extension field of products, 16 or 18', async () => {
    const { schemas } = (await api(server.url).get('/openapi.json')).body.components;
    for (const name of ['Product', 'ProductCreate', 'ProductUpdate']) {
      const field = schemas[name].properties.minimumAge;
      expect(field.anyOf.flatMap((option: { enum: number[] }) => option.enum), name).toEqual([16, 18]);
      expect(field.description, name).toMatch(/^Extension: /);
    }
  });

  it('offers Idempotency-Key on every POST but POST /keys and POST /staff/sign-in, whose answers hold a secret that is never kept', async () => {
    const doc = (await api(server.url).get('/openapi.json')).body;
    const secretAnswers = ['/keys', '/staff/sign-in'];
    const posts = Object.entries(doc.paths as Record<string, Record<string, any>>).filter(([path, methods]) => methods.post && !secretAnswers.includes(path));
    for (const path of secretAnswers) expect(doc.paths[path].post.parameters ?? [], path).toEqual([]);
    expect(posts.length).toBeGreaterThan(10);
    for (const [path, methods] of posts) {
      const header = methods.post.parameters.find((p: { in: string; name: string }) => p.in === 'header' && p.name === 'idempotency-key');
      expect(header, path).toMatchObject({ required: false, schema: { type: 'string', maxLength: 255 } });
      expect(methods.post.responses, path).toHaveProperty('422');
    }
  });
});
