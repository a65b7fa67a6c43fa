import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../main/services/clock.js';
import { api, type Api } from './support/api.js';
import { createProduct, makeImage, multipartBody, standardError } from './support/images.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

/** A clock the test moves forward by hand. */
const steppedClock = (start = Date.parse('2026-11-20T08:00:00.000Z')) => {
  let now = start;
  const clock: Clock & { advance(ms: number): void } = { now: () => new Date(now), advance: (ms) => (now += ms) };
  return clock;
};

const clock = steppedClock();
let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let write: Api;

beforeAll(async () => {
  server = await startTestServer({ clock });
  org = server.createOrg();
  other = server.createOrg();
  write = api(server.url, org.writeKey);
});
afterAll(async () => {
  await server.destroy();
});

const post = (client: Api, path: string, body: unknown, key: string) =>
  client.request('POST', path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'idempotency-key': key } });

const productCount = (orgId: string) =>
  (server.sqlite().prepare('SELECT count(*) AS n FROM products WHERE org_id = ?').get(orgId) as { n: number }).n;

describe('Idempotency-Key on POST', () => {
  it('replays the first answer to a repeat with the same body and creates nothing more', async () => {
    const body = { name: 'Birne', price: 250, taxCategory: '2.6' };
    const first = await post(write, '/products', body, 'replay-1');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = productCount(org.id);
    const again = await post(write, '/products', body, 'replay-1');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(productCount(org.id)).toBe(before);
  });

  it('replays a refusal as it was given', async () => {
    const first = await post(write, '/products', { name: 'Birne', price: -1, taxCategory: '2.6' }, 'refused-1');
    expect(first.status).toBe(400);
    const again = await post(write, '/products', { name: 'Birne', price: -1, taxCategory: '2.6' }, 'refused-1');
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('answers 422 to the same key with another body and changes nothing', async () => {
    await post(write, '/products', { name: 'Kiwi', price: 90, taxCategory: '2.6' }, 'other-body');
    const before = productCount(org.id);
    const res = await post(write, '/products', { name: 'Kiwi', price: 95, taxCategory: '2.6' }, 'other-body');
    expect(res.status).toBe(422);
    expect(res.body).toEqual(standardError(422, /Idempotency-Key "other-body" was already used with another request body/));
    expect(productCount(org.id)).toBe(before);
  });

  it('keeps keys per organization: another organization may use the same key', async () => {
    const body = { name: 'Melone', price: 400, taxCategory: '2.6' };
    const mine = await post(write, '/products', body, 'shared-key');
    const theirs = await post(api(server.url, other.writeKey), '/products', body, 'shared-key');
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('forgets a key after 24 hours', async () => {
    const body = { name: 'Traube', price: 300, taxCategory: '2.6' };
    const first = await post(write, '/products', body, 'expiring');
    clock.advance(23 * 3600_000);
    expect((await post(write, '/products', body, 'expiring')).body.id).toBe(first.body.id);
    clock.advance(3600_000 + 1);
    const later = await post(write, '/products', body, 'expiring');
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const id = await createProduct(write);
    const { body, contentType } = multipartBody(await makeImage('png'), 'image/png');
    const { hostname, port } = new URL(server.url);
    const headers = { authorization: `Bearer ${org.writeKey}`, 'content-type': contentType, 'content-length': String(body.length), 'idempotency-key': 'slow-upload' };
    // The first upload sends half its body and waits: it is in flight until the rest follows.
    const first = request({ hostname, port, method: 'POST', path: `/api/v1/products/${id}/image`, headers });
    const firstAnswer = new Promise<number>((resolve, reject) => {
      first.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      first.on('error', reject);
    });
    first.write(body.subarray(0, 100));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const during = await write.request('POST', `/products/${id}/image`, { body, headers: { 'content-type': contentType, 'idempotency-key': 'slow-upload' } });
    expect(during.status).toBe(409);
    expect(during.body).toEqual(standardError(409, /still being processed/));
    first.end(body.subarray(100));
    expect(await firstAnswer).toBe(200);
    const after = await write.request('POST', `/products/${id}/image`, { body, headers: { 'content-type': contentType, 'idempotency-key': 'slow-upload' } });
    expect(after.status).toBe(200);
    expect(after.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses an unusable key with 400 naming the header', async () => {
    const res = await post(write, '/products', { name: 'X', price: 1, taxCategory: '2.6' }, 'x'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, /^Idempotency-Key: must be 1 to 255/));
  });

  it('is ignored on reads', async () => {
    const res = await write.request('GET', '/products', { headers: { 'idempotency-key': 'read' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });
});
