import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import {
  createProduct,
  imageForm,
  makeImage,
  nameOf,
  pngOfExactSize,
  rawRequest,
  standardError,
  streamLargeUpload,
  type Format,
} from './support/images.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

const MAX = 10_485_760;
const STORED_URL = /^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/images\/[A-Za-z0-9]{20}\.(jpg|png|webp|gif)$/;

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let write: Api;
let read: Api;
let png: Buffer;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  other = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  png = await makeImage('png');
});
afterAll(async () => {
  await server.destroy();
});

const imagesDir = () => join(server.dataDir, 'images');
const storedFiles = () => readdirSync(imagesDir()).sort();
const product = (client: Api = write, body: Record<string, unknown> = {}) => createProduct(client, body);

function upload(id: string, bytes: Uint8Array, type = 'image/png', client: Api = write, options: { field?: string } = {}) {
  return client.request('POST', `/products/${id}/image`, { body: imageForm(bytes, type, options) });
}

async function uploaded(id: string, bytes: Uint8Array, type = 'image/png'): Promise<string> {
  const res = await upload(id, bytes, type);
  expect(res.status).toBe(200);
  return res.body.data.url as string;
}

const outboxOf = (id: string) =>
  (server.sqlite().prepare('SELECT resource, operation, body FROM outbox WHERE resource_id = ? ORDER BY seq').all(id) as {
    resource: string;
    operation: string;
    body: string;
  }[]).map((row) => ({ ...row, body: JSON.parse(row.body) as unknown }));

describe('POST /products/{id}/image', () => {
  it('refuses a missing key and a read key with 403', async () => {
    const id = await product();
    for (const client of [api(server.url), read]) {
      const res = await upload(id, png, 'image/png', client);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(standardError(403, 'Forbidden'));
    }
    expect((await read.get(`/products/${id}`)).body.data.imageUrl).toBe('');
  });

  it("answers 404 for an unknown product and another organization's product", async () => {
    const id = await product();
    for (const [client, target] of [[write, 'doesnotexist00000000'], [api(server.url, other.writeKey), id]] as const) {
      const res = await upload(target, png, 'image/png', client);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(standardError(404, `Product "${target}" not found`));
    }
  });

  it('checks the product before reading the body: a huge upload to an unknown product is a 404', async () => {
    const res = await streamLargeUpload(`${server.url}/products/doesnotexist00000000/image`, org.writeKey, 20 * MAX);
    expect(res.status).toBe(404);
    expect(res.headers.connection).toBe('close');
    expect(res.cutOff).toBe(true);
    expect(res.written).toBeLessThan(3 * MAX);
  });

  it.each<[string, () => FormData | string, string | RegExp]>([
    ['a JSON body', () => JSON.stringify({ file: 'x' }), /^Request body is not multipart\/form-data .*part named "file"/],
    ['no file part', () => new FormData(), /^file: is required; send the image as multipart\/form-data in one part named "file"/],
    ['a part with another name', () => imageForm(png, 'image/png', { field: 'photo' }), /^Unexpected part "photo"/],
    [
      'a text field instead of a file',
      () => {
        const form = new FormData();
        form.append('file', 'not a file');
        return form;
      },
      /^Unexpected form field/,
    ],
    [
      'two files',
      () => {
        const form = imageForm(png, 'image/png');
        form.append('file', new Blob([png], { type: 'image/png' }), 'second');
        return form;
      },
      /^More than one file part/,
    ],
  ])('refuses %s with 400 naming the part', async (_case, body, message) => {
    const id = await product();
    const made = body();
    const headers: Record<string, string> = typeof made === 'string' ? { 'content-type': 'application/json' } : {};
    const res = await write.request('POST', `/products/${id}/image`, { body: made, headers });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
  });

  it.each([
    ['text/plain', 'file: Content-Type "text/plain" is not accepted; send image/jpeg, image/png, image/webp or image/gif'],
    ['image/svg+xml', 'file: Content-Type "image/svg+xml" is not accepted; send image/jpeg, image/png, image/webp or image/gif'],
    ['application/octet-stream', 'file: Content-Type "application/octet-stream" is not accepted; send image/jpeg, image/png, image/webp or image/gif'],
  ])('refuses a part of type %s', async (type, message) => {
    const id = await product();
    const res = await upload(id, png, type);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
  });

  it('refuses bytes that are not what the part declares, stores nothing and queues nothing', async () => {
    const id = await product();
    const before = storedFiles();
    const huge = await makeImage('png', { width: 10_000, height: 6_000 });
    const cases: [Uint8Array, string, string][] = [
      [Buffer.from('definitely not an image, just text'), 'image/png', "file: is not a PNG image (the part's Content-Type is image/png)"],
      [png, 'image/jpeg', "file: is a PNG image but the part's Content-Type says image/jpeg; send it as image/png"],
      [png.subarray(0, png.length - 30), 'image/png', 'file: is a damaged PNG image'],
      [Buffer.alloc(0), 'image/gif', 'file: is empty'],
      [huge, 'image/png', 'file: is 10000 x 6000 pixels (60,000,000); at most 50,000,000 pixels are accepted'],
    ];
    for (const [bytes, type, message] of cases) {
      const res = await upload(id, bytes, type);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(standardError(400, new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)));
    }
    expect(storedFiles()).toEqual(before);
    expect(outboxOf(id).map((e) => e.operation)).toEqual(['create']);
    expect((await read.get(`/products/${id}`)).body.data.imageUrl).toBe('');
  });

  it.each<[Format, string]>([
    ['jpeg', 'image/jpeg'],
    ['png', 'image/png'],
    ['webp', 'image/webp'],
    ['gif', 'image/gif'],
  ])('stores a %s image, sets imageUrl and serves it back byte for byte', async (format, type) => {
    const id = await product();
    const bytes = await makeImage(format);
    const res = await upload(id, bytes, type);
    expect(res.status).toBe(200);
    const url = res.body.data.url as string;
    expect(res.body).toEqual({ data: { url: expect.stringMatching(STORED_URL), imageUrl: url } });
    expect(nameOf(url).endsWith(`.${format === 'jpeg' ? 'jpg' : format}`)).toBe(true);

    expect((await read.get(`/products/${id}`)).body.data.imageUrl).toBe(url);

    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(type);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(served.headers.get('etag')).toBe(`"${sha256}"`);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    // fetch would add Cache-Control: no-cache to a conditional request; a browser revalidating does not.
    const revalidated = await rawRequest(server.url, { path: new URL(url).pathname, headers: { 'if-none-match': `"${sha256}"` } });
    expect(revalidated.status).toBe(304);

    expect(readFileSync(join(imagesDir(), nameOf(url))).equals(bytes)).toBe(true);
    const row = server.sqlite().prepare('SELECT image_url FROM products WHERE id = ?').get(id) as { image_url: string };
    expect(row.image_url).toBe(url);
    expect(outboxOf(id).at(-1)).toEqual({
      resource: 'product-image',
      operation: 'update',
      body: { file: nameOf(url), contentType: type, bytes: bytes.length, sha256 },
    });
  });

  it('accepts a file of exactly 10,485,760 bytes', async () => {
    const id = await product();
    const bytes = await pngOfExactSize(MAX);
    expect(bytes.length).toBe(MAX);
    const url = await uploaded(id, bytes);
    const served = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(served.equals(bytes)).toBe(true);
  });

  it('refuses 10,485,761 bytes with 413, closes the connection and keeps the product as it was', async () => {
    const id = await product();
    const url = await uploaded(id, png);
    const files = storedFiles();
    const res = await upload(id, Buffer.concat([await pngOfExactSize(MAX), Buffer.from([0])]));
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(res.body).toEqual(standardError(413, 'file: larger than the limit of 10485760 bytes (10 MiB)'));
    expect(storedFiles()).toEqual(files);
    expect((await read.get(`/products/${id}`)).body.data.imageUrl).toBe(url);
    expect(outboxOf(id).map((e) => e.resource)).toEqual(['product', 'product-image']);
  });

  it('stops reading an oversized body instead of taking in the rest', async () => {
    const id = await product();
    const res = await streamLargeUpload(`${server.url}/products/${id}/image`, org.writeKey, 20 * MAX);
    expect(res.status).toBe(413);
    expect(res.body).toEqual(standardError(413, /^file: larger than the limit/));
    expect(res.cutOff).toBe(true);
    expect(res.written).toBeLessThan(3 * MAX);
    expect(readdirSync(imagesDir()).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('replaces the image and deletes the file it replaced', async () => {
    const id = await product();
    const first = await uploaded(id, png);
    const second = await uploaded(id, await makeImage('webp'), 'image/webp');
    expect(second).not.toBe(first);
    expect(existsSync(join(imagesDir(), nameOf(first)))).toBe(false);
    expect((await fetch(first)).status).toBe(404);
    expect((await fetch(second)).status).toBe(200);
    expect((await read.get(`/products/${id}`)).body.data.imageUrl).toBe(second);
  });

});

describe('DELETE /products/{id}/image', () => {
  it('refuses a read key with 403 and answers 404 like the other writes', async () => {
    const id = await product();
    const url = await uploaded(id, png);
    expect((await read.delete(`/products/${id}/image`)).body).toEqual(standardError(403, 'Forbidden'));
    const stranger = await api(server.url, other.writeKey).delete(`/products/${id}/image`);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual(standardError(404, `Product "${id}" not found`));
    expect((await write.delete('/products/doesnotexist00000000/image')).status).toBe(404);
    expect((await fetch(url)).status).toBe(200);
  });

  it('clears imageUrl, deletes the file and queues the change; a second DELETE changes nothing', async () => {
    const id = await product();
    const url = await uploaded(id, png);
    const res = await write.delete(`/products/${id}/image`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await read.get(`/products/${id}`)).body.data.imageUrl).toBe('');
    expect(existsSync(join(imagesDir(), nameOf(url)))).toBe(false);
    expect((await fetch(url)).status).toBe(404);
    expect(outboxOf(id).at(-1)).toEqual({ resource: 'product', operation: 'update', body: { imageUrl: '' } });
    const entries = outboxOf(id).length;
    expect((await write.delete(`/products/${id}/image`)).body).toEqual({ success: true });
    expect(outboxOf(id)).toHaveLength(entries);
  });
});

describe('stored files follow imageUrl on product writes', () => {
  it('deletes the stored file on an update with imageUrl "" or another URL', async () => {
    for (const imageUrl of ['', 'https://cdn.example.com/milk.png']) {
      const id = await product();
      const url = await uploaded(id, png);
      expect((await write.post(`/products/${id}`, { imageUrl })).status).toBe(200);
      expect((await read.get(`/products/${id}`)).body.data.imageUrl).toBe(imageUrl);
      expect(existsSync(join(imagesDir(), nameOf(url)))).toBe(false);
    }
  });

  it('keeps the file on other updates and on a soft delete of the product', async () => {
    const id = await product();
    const url = await uploaded(id, png);
    await write.post(`/products/${id}`, { price: 250 });
    await write.delete(`/products/${id}`);
    expect((await fetch(url)).status).toBe(200);
  });

  it('never deletes a file for a product that only links to it', async () => {
    const owner = await product();
    const url = await uploaded(owner, png);
    const linking = await product(write, { imageUrl: url });
    const stranger = api(server.url, other.writeKey);
    const foreign = await product(stranger, { imageUrl: url });
    expect((await write.delete(`/products/${linking}/image`)).status).toBe(200);
    expect((await stranger.post(`/products/${foreign}`, { imageUrl: '' })).status).toBe(200);
    expect((await fetch(url)).status).toBe(200);
    expect((await read.get(`/products/${owner}`)).body.data.imageUrl).toBe(url);
  });
});
