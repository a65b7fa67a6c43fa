import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { createProduct, imageForm, makeImage, rawRequest } from './support/images.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let imageUrl: string;
beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  const write = api(server.url, org.writeKey);
  for (let i = 0; i < 60; i += 1) await createProduct(write, { name: `Artikel ${i} mit einer längeren Beschreibung`, barcode: `zip-${i}` });
  const id = await createProduct(write, { name: 'Bild', barcode: 'zip-image' });
  const res = await write.request('POST', `/products/${id}/image`, { body: imageForm(await makeImage('jpeg', { width: 400, height: 300 }), 'image/jpeg') });
  expect(res.status).toBe(200);
  imageUrl = new URL(res.body.data.imageUrl as string).pathname;
});
afterAll(async () => {
  await server.destroy();
});

/** A GET as sent on the wire, its body as the bytes that came back (fetch would decompress them). */
const get = (path: string, acceptEncoding?: string) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
    const { hostname, port } = new URL(server.url);
    const headers = { authorization: `Bearer ${org.readKey}`, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) };
    request({ hostname, port, path: `/api/v1${path}`, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
const json = (bytes: Buffer) => JSON.parse(bytes.toString('utf8'));

describe('compressed answers', () => {
  it('compresses a product list with brotli or gzip, whichever the client accepts', async () => {
    const plain = await get('/products?limit=100');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(json(plain.bytes).data).toHaveLength(61);

    const br = await get('/products?limit=100', 'gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 4);
    expect(json(brotliDecompressSync(br.bytes))).toEqual(json(plain.bytes));

    const gzip = await get('/products?limit=100', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(json(gunzipSync(gzip.bytes))).toEqual(json(plain.bytes));
  });

  it('leaves a small answer such as a barcode lookup as it is', async () => {
    const lookup = await get('/products?barcode=zip-7', 'br, gzip');
    expect(lookup.status).toBe(200);
    expect(lookup.headers['content-encoding']).toBeUndefined();
    expect(json(lookup.bytes).data).toHaveLength(1);
  });

  it('leaves images as they are', async () => {
    const image = await rawRequest(server.url, { path: imageUrl, headers: { 'accept-encoding': 'br, gzip' } });
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['content-encoding']).toBeUndefined();
  });

  it('is read by fetch as the plain answer', async () => {
    const plain = json((await get('/products?limit=100')).bytes);
    const viaFetch = await fetch(`${server.url}/products?limit=100`, { headers: { authorization: `Bearer ${org.readKey}`, 'accept-encoding': 'br' } });
    expect(viaFetch.headers.get('content-encoding')).toBe('br');
    expect(await viaFetch.json()).toEqual(plain);
  });
});
