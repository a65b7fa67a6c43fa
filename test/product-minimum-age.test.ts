import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../main/storage/database.js';
import { api, type Api } from './support/api.js';
import { standardError } from './support/shapes.js';
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

async function create(body: Record<string, unknown>): Promise<string> {
  const res = await write.post('/products', { name: 'Lagerbier', price: 250, taxCategory: '8.1', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

/** The two age fields of a product as the API serves it; absent fields are left out. */
async function ageFields(id: string) {
  const { data } = (await read.get(`/products/${id}`)).body;
  return { ageRestriction: data.ageRestriction, minimumAge: data.minimumAge };
}

const storedAge = (id: string) =>
  server.sqlite().prepare('SELECT age_restriction, minimum_age FROM products WHERE id = ?').get(id) as { age_restriction: number | null; minimum_age: number | null };

describe('POST /products with minimumAge (extension)', () => {
  it('keeps 16 and sets ageRestriction with it', async () => {
    const id = await create({ minimumAge: 16 });
    expect(await ageFields(id)).toEqual({ ageRestriction: true, minimumAge: 16 });
    expect(storedAge(id)).toEqual({ age_restriction: 1, minimum_age: 16 });
  });

  it('reads ageRestriction alone as 18, the spec field on its own meaning what it always meant', async () => {
    const id = await create({ ageRestriction: true });
    expect(await ageFields(id)).toEqual({ ageRestriction: true, minimumAge: 18 });
    expect(await ageFields(await create({ ageRestriction: true, minimumAge: 16 }))).toEqual({ ageRestriction: true, minimumAge: 16 });
  });

  it('serves no minimumAge for a product without an age limit', async () => {
    expect(await ageFields(await create({}))).toEqual({ ageRestriction: undefined, minimumAge: undefined });
    expect(await ageFields(await create({ ageRestriction: false }))).toEqual({ ageRestriction: false, minimumAge: undefined });
  });

  it.each([
    [{ minimumAge: 17 }, 'minimumAge: must be 16 or 18'],
    [{ minimumAge: '16' }, 'minimumAge: must be 16 or 18'],
    [
      { minimumAge: 16, ageRestriction: false },
      'minimumAge: cannot be set together with ageRestriction: false; send ageRestriction: true, or leave minimumAge out to sell without an age limit',
    ],
  ])('refuses %j with a message naming the field', async (body, message) => {
    const res = await write.post('/products', { name: 'x', price: 1, taxCategory: '0', ...body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
  });
});

describe('POST /products/{id} with minimumAge (extension)', () => {
  it('changes the age, lifts the limit with ageRestriction: false, and sets it again with an age', async () => {
    const id = await create({ ageRestriction: true });
    expect((await write.post(`/products/${id}`, { minimumAge: 16 })).status).toBe(200);
    expect(await ageFields(id)).toEqual({ ageRestriction: true, minimumAge: 16 });
    expect((await write.post(`/products/${id}`, { ageRestriction: true })).status).toBe(200);
    expect(await ageFields(id)).toEqual({ ageRestriction: true, minimumAge: 16 });
    expect((await write.post(`/products/${id}`, { ageRestriction: false })).status).toBe(200);
    expect(await ageFields(id)).toEqual({ ageRestriction: false, minimumAge: undefined });
    expect(storedAge(id)).toEqual({ age_restriction: 0, minimum_age: null });
    expect((await write.post(`/products/${id}`, { minimumAge: 18 })).status).toBe(200);
    expect(await ageFields(id)).toEqual({ ageRestriction: true, minimumAge: 18 });
  });

  it('refuses an age beside ageRestriction: false and changes nothing', async () => {
    const id = await create({ minimumAge: 16 });
    const res = await write.post(`/products/${id}`, { ageRestriction: false, minimumAge: 18 });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^minimumAge: cannot be set together with ageRestriction: false/);
    expect(await ageFields(id)).toEqual({ ageRestriction: true, minimumAge: 16 });
  });

  it('queues the age with the restriction it implies for the upstream', async () => {
    const id = await create({});
    expect((await write.post(`/products/${id}`, { minimumAge: 16 })).status).toBe(200);
    const bodies = server
      .sqlite()
      .prepare("SELECT body FROM outbox WHERE resource_id = ? AND operation = 'update'")
      .pluck()
      .all(id) as string[];
    expect(bodies.map((b) => JSON.parse(b))).toEqual([{ minimumAge: 16, ageRestriction: true }]);
  });
});

describe('GET /products with minimumAge (extension)', () => {
  it('serves the age in lists, barcode lookups and search', async () => {
    const id = await create({ name: 'Zwetschgenwasser', minimumAge: 18, barcode: 'schnaps-1' });
    const wine = await create({ name: 'Zwetschgenwein', minimumAge: 16, barcode: 'wein-1' });
    expect((await read.get('/products?barcode=schnaps-1')).body.data).toEqual([expect.objectContaining({ id, ageRestriction: true, minimumAge: 18 })]);
    const found = (await read.get('/products?q=zwetschgenwein')).body.data as { id: string; minimumAge?: number }[];
    expect(found.find((p) => p.id === wine)).toMatchObject({ ageRestriction: true, minimumAge: 16 });
  });
});

describe('a database of a release before minimumAge', () => {
  it('serves a product restricted back then as 18', async () => {
    const id = await create({ ageRestriction: true });
    await server.stop();
    // The row as the earlier release left it: the column the upgrade added is empty.
    const db = new Database(join(server.dataDir, DATABASE_FILE));
    db.prepare('UPDATE products SET minimum_age = NULL WHERE id = ?').run(id);
    db.close();
    server = await server.restart();
    read = api(server.url, org.readKey);
    expect(await ageFields(id)).toEqual({ ageRestriction: true, minimumAge: 18 });
  });
});
