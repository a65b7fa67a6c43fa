import Database from 'better-sqlite3';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIALS_FILE } from '../main/bootstrap.js';
import { startServer } from '../main/server.js';
import { DATABASE_FILE } from '../main/storage/database.js';
import { api, type Api } from './support/api.js';
import { createProduct, imageForm, makeImage, multipartBody, nameOf, rawRequest, standardError } from './support/images.js';
import { makeDataDir, startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;
let png: Buffer;

beforeAll(async () => {
  // kasse-1.local: the name a kiosk on the store network reaches the server by.
  server = await startTestServer({ allowedHosts: ['kasse-1.local'] });
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  png = await makeImage('png');
});
afterAll(async () => {
  await server.destroy();
});

const imagesDir = () => join(server.dataDir, 'images');
const storedFiles = () => readdirSync(imagesDir()).sort();

async function uploaded(id: string, bytes: Uint8Array = png): Promise<string> {
  const res = await write.request('POST', `/products/${id}/image`, { body: imageForm(bytes, 'image/png') });
  expect(res.status).toBe(200);
  return res.body.data.url as string;
}

describe('GET /images/{file}', () => {
  it('serves without a key, also to HEAD', async () => {
    const url = await uploaded(await createProduct(write));
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');
    expect(head.headers.get('content-length')).toBe(String(png.length));
  });

  it.each([
    '/api/v1/images/..%2F..%2Fretail.sqlite',
    '/api/v1/images/%2e%2e%2fretail.sqlite',
    '/api/v1/images/..%5Cretail.sqlite',
    '/api/v1/images/../retail.sqlite',
    '/api/v1/images/../../api/v1/openapi.json',
    '/api/v1/images/%2e%2e/retail.sqlite',
    '/api/v1/images/retail.sqlite',
    '/api/v1/images/',
    '/api/v1/images',
    '/api/v1/images/AAAAAAAAAAAAAAAAAAAA.png',
  ])('answers %s with 404 in the standard shape', async (path) => {
    const res = await rawRequest(server.url, { path });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(standardError(404, /^Image ".*" not found$/));
  });

  it('serves only files it recorded: a stray or temporary file in the folder is a 404', async () => {
    writeFileSync(join(imagesDir(), 'BBBBBBBBBBBBBBBBBBBB.png'), png);
    writeFileSync(join(imagesDir(), '.CCCCCCCCCCCCCCCCCCCC.png.tmp'), png);
    for (const name of ['BBBBBBBBBBBBBBBBBBBB.png', '.CCCCCCCCCCCCCCCCCCCC.png.tmp']) {
      expect((await rawRequest(server.url, { path: `/api/v1/images/${encodeURIComponent(name)}` })).status).toBe(404);
    }
    rmSync(join(imagesDir(), 'BBBBBBBBBBBBBBBBBBBB.png'));
    rmSync(join(imagesDir(), '.CCCCCCCCCCCCCCCCCCCC.png.tmp'));
  });

  it('is described in the OpenAPI document', async () => {
    const { paths } = (await api(server.url).get('/openapi.json')).body;
    const described = expect.objectContaining({ description: expect.any(String) });
    expect(paths).toMatchObject({
      '/products/{productId}/image': {
        post: expect.objectContaining({
          requestBody: expect.objectContaining({ content: { 'multipart/form-data': expect.objectContaining({ schema: expect.anything() }) } }),
          responses: { 200: described, 400: described, 403: described, 404: described, 409: described, 413: described, 422: described },
        }),
        delete: expect.objectContaining({ responses: { 200: described, 403: described, 404: described } }),
      },
      '/images/{file}': { get: expect.objectContaining({ 'x-extension': true, security: [] }) },
    });
  });
});

describe('start-up', () => {
  it('removes temporary and orphaned files and keeps the images in use', async () => {
    const url = await uploaded(await createProduct(write));
    const cleared = await createProduct(write);
    const orphan = nameOf(await uploaded(cleared));
    // A crash after the commit of the clear, before the file was deleted.
    const db = new Database(join(server.dataDir, DATABASE_FILE));
    db.prepare("UPDATE products SET image_url = '' WHERE id = ?").run(cleared);
    db.close();
    writeFileSync(join(imagesDir(), '.DDDDDDDDDDDDDDDDDDDD.png.tmp'), png);
    writeFileSync(join(imagesDir(), 'EEEEEEEEEEEEEEEEEEEE.png'), png);

    server = await server.restart();
    const files = storedFiles();
    expect(files).toContain(nameOf(url));
    expect(files).not.toContain(orphan);
    expect(files).not.toContain('.DDDDDDDDDDDDDDDDDDDD.png.tmp');
    expect(files).not.toContain('EEEEEEEEEEEEEEEEEEEE.png');
    expect(server.sqlite().prepare('SELECT count(*) AS n FROM product_images WHERE file = ?').get(orphan)).toEqual({ n: 0 });
    write = api(server.url, org.writeKey);
    expect((await fetch(`${server.url}/images/${nameOf(url)}`)).status).toBe(200);
  });
});

describe('image URLs', () => {
  it('builds the URL from PUBLIC_URL when it is set', async () => {
    const dataDir = makeDataDir();
    const running = await startServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'silent', publicUrl: 'https://kasse.example/shop' });
    try {
      const local = api(running.url, JSON.parse(readFileSync(join(dataDir, CREDENTIALS_FILE), 'utf8')).writeKey);
      const id = (await local.post('/products', { name: 'Brot', price: 350, taxCategory: '2.6' })).body.id;
      const res = await local.request('POST', `/products/${id}/image`, { body: imageForm(png, 'image/png') });
      expect(res.body.data.url).toMatch(/^https:\/\/kasse\.example\/shop\/api\/v1\/images\/[A-Za-z0-9]{20}\.png$/);
      expect((await fetch(`${running.url}/images/${nameOf(res.body.data.url)}`)).status).toBe(200);
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("builds the URL from the request's Host header", async () => {
    const id = await createProduct(write);
    const { body, contentType } = multipartBody(png, 'image/png');
    const res = await rawRequest(server.url, {
      method: 'POST',
      path: `/api/v1/products/${id}/image`,
      headers: { host: 'kasse-1.local:8787', authorization: `Bearer ${org.writeKey}`, 'content-type': contentType },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.url).toMatch(/^http:\/\/kasse-1\.local:8787\/api\/v1\/images\/[A-Za-z0-9]{20}\.png$/);
    expect((await fetch(`${server.url}/images/${nameOf(res.body.data.url)}`)).status).toBe(200);
  });
});
