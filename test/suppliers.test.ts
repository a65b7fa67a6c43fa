import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { fullSupplier, tableReader } from './support/catalog.js';
import { ISO, byUtf8, standardError, validationError } from './support/shapes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

type Reader = ReturnType<typeof tableReader>;

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let write: Api;
let read: Api;
let row: Reader['row'];
let supplierCount: Reader['count'];
let outboxOf: Reader['outboxOf'];

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  other = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  ({ row, count: supplierCount, outboxOf } = tableReader(server.sqlite(), 'suppliers'));
});
afterAll(async () => {
  await server.destroy();
});

async function create(body: Record<string, unknown> = {}, client: Api = write): Promise<string> {
  const res = await client.post('/suppliers', { name: 'Lieferant', ...body });
  expect(res.status).toBe(200);
  return res.body.id as string;
}


describe('authentication', () => {
  it('refuses a request without a key', async () => {
    const res = await api(server.url).get('/suppliers');
    expect(res.status).toBe(403);
    expect(res.body).toEqual(standardError(403, 'Forbidden'));
  });

  it('lets a read key read but not create or update', async () => {
    const id = await create({ name: 'Nur lesen' });
    expect((await read.get('/suppliers')).status).toBe(200);
    expect((await read.get(`/suppliers/${id}`)).status).toBe(200);
    const before = supplierCount();
    for (const res of [await read.post('/suppliers', { name: 'x' }), await read.post(`/suppliers/${id}`, { name: 'y' })]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(standardError(403, 'Forbidden'));
    }
    expect(supplierCount()).toBe(before);
    expect(row(id)?.name).toBe('Nur lesen');
  });
});

describe('POST /suppliers', () => {
  it('stores every field with its type and answers { success, id }', async () => {
    const body = fullSupplier();
    const res = await write.post('/suppliers', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: expect.stringMatching(/^[A-Za-z0-9]{20}$/) });
    const id = res.body.id as string;
    const got = await read.get(`/suppliers/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: { ...body, id, organizationId: org.id, deleted: false, createdate: expect.stringMatching(ISO) },
    });
    expect(row(id)).toMatchObject({ org_id: org.id, name: body.name, supplier_margin: 12.5, payouts_enabled: 1, deleted: 0 });
    expect(outboxOf(id)).toEqual([{ resource: 'supplier', operation: 'create', body }]);
  });

  it('needs only a name; fields never set are absent', async () => {
    const id = await create({ name: '  Bäckerei Korn  ' });
    const { data } = (await read.get(`/suppliers/${id}`)).body;
    expect(data).toEqual({ id, name: 'Bäckerei Korn', organizationId: org.id, deleted: false, createdate: data.createdate });
  });

  it('accepts empty e-mails and lists of addresses', async () => {
    const id = await create({ email: '', orderEmail: 'a@shop.example, b@shop.example' });
    expect((await read.get(`/suppliers/${id}`)).body.data).toMatchObject({ email: '', orderEmail: 'a@shop.example, b@shop.example' });
  });

  it.each([
    [{}, 'name: is required'],
    [{ name: '   ' }, 'name: must not be empty'],
    [{ name: 42 }, 'name: Invalid input: expected string, received number (got 42)'],
    [{ name: 'x', supplierMargin: '12' }, 'supplierMargin: Invalid input: expected number, received string (got "12")'],
    [{ name: 'x', payoutsEnabled: 'yes' }, 'payoutsEnabled: Invalid input: expected boolean, received string (got "yes")'],
    [{ name: 'x', plz: 3011 }, 'plz: Invalid input: expected string, received number (got 3011)'],
    [{ name: 'x', email: 'not an address' }, 'email: must be an e-mail address such as orders@example.ch, or empty'],
    [{ name: 'x', payoutEmail: '079 000 00 00' }, 'payoutEmail: must be an e-mail address such as orders@example.ch, or empty'],
    [{ name: 'x', orderEmail: null }, 'orderEmail: Invalid input: expected string, received null (got null)'],
    [{ name: 'x', colour: 'red' }, 'colour: is not a writable field (unknown or read-only)'],
    [{ name: 'x', id: 'mine' }, 'id: is not a writable field (unknown or read-only)'],
    [{ name: 'x', organizationId: 'o' }, 'organizationId: is not a writable field (unknown or read-only)'],
    [{ name: 'x', deleted: true }, 'deleted: is not a writable field (unknown or read-only)'],
    [{ name: 'x', createdate: '2026-01-01T00:00:00.000Z' }, 'createdate: is not a writable field (unknown or read-only)'],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const before = supplierCount();
    const res = await write.post('/suppliers', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
    expect(supplierCount()).toBe(before);
  });

  it('refuses a body that is not a JSON object', async () => {
    const array = await write.post('/suppliers', [{ name: 'x' }]);
    expect(array.body).toEqual(standardError(400, 'Request body must be a JSON object'));
    const broken = await write.request('POST', '/suppliers', { body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/^Malformed JSON body/);
    const missing = await write.request('POST', '/suppliers');
    expect(missing.body).toEqual(standardError(400, /^Request body is missing/));
  });
});

describe('GET /suppliers/{supplierId}', () => {
  it("answers 404 for an unknown id and for another organization's id alike", async () => {
    const id = await create({ name: 'Geheim' });
    const stranger = api(server.url, other.readKey);
    expect((await stranger.get(`/suppliers/${id}`)).body).toEqual(standardError(404, `Supplier "${id}" not found`));
    const unknown = await read.get('/suppliers/doesnotexist00000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(standardError(404, 'Supplier "doesnotexist00000000" not found'));
  });
});

describe('POST /suppliers/{supplierId}', () => {
  it('changes only the fields sent and records the patch in the outbox', async () => {
    const id = await create(fullSupplier());
    const before = (await read.get(`/suppliers/${id}`)).body.data;
    const patch = { name: 'Molkerei Neu', supplierMargin: 9, payoutsEnabled: false, email: 'neu@alpenblick.example' };
    const res = await write.post(`/suppliers/${id}`, patch);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await read.get(`/suppliers/${id}`)).body.data).toEqual({ ...before, ...patch });
    expect(row(id)).toMatchObject({ name: 'Molkerei Neu', payouts_enabled: 0, supplier_margin: 9 });
    expect(outboxOf(id).at(-1)).toEqual({ resource: 'supplier', operation: 'update', body: patch });
  });

  it('soft-deletes with deleted: true: readable with deleted true, gone from the list; false restores', async () => {
    const id = await create({ name: 'AAA Weg damit' });
    expect((await write.post(`/suppliers/${id}`, { deleted: true })).body).toEqual({ success: true });
    expect((await read.get(`/suppliers/${id}`)).body.data).toMatchObject({ id, deleted: true });
    expect(row(id)?.deleted).toBe(1);
    expect((await read.get('/suppliers?limit=5000')).body.data.map((s: { id: string }) => s.id)).not.toContain(id);
    await write.post(`/suppliers/${id}`, { deleted: false });
    expect((await read.get('/suppliers?limit=5000')).body.data.map((s: { id: string }) => s.id)).toContain(id);
    expect(outboxOf(id).slice(1).map((e) => e.body)).toEqual([{ deleted: true }, { deleted: false }]);
  });

  it('accepts an empty body without writing anything', async () => {
    const id = await create();
    expect((await write.post(`/suppliers/${id}`, {})).body).toEqual({ success: true });
    expect(outboxOf(id)).toHaveLength(1);
  });

  it.each([
    [{ name: '' }, 'name: must not be empty'],
    [{ deleted: 'yes' }, 'deleted: Invalid input: expected boolean, received string (got "yes")'],
    [{ supplierMargin: null }, 'supplierMargin: Invalid input: expected number, received null (got null)'],
    [{ email: 'nobody' }, 'email: must be an e-mail address such as orders@example.ch, or empty'],
    [{ organizationId: 'x' }, 'organizationId: is not a writable field (unknown or read-only)'],
  ])('refuses %j with a 400 and changes nothing', async (patch, message) => {
    const id = await create({ name: 'Fest' });
    const res = await write.post(`/suppliers/${id}`, patch);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
    expect((await read.get(`/suppliers/${id}`)).body.data.name).toBe('Fest');
    expect(outboxOf(id)).toHaveLength(1);
  });

  it("answers 404 for an unknown id and for another organization's id, changing nothing", async () => {
    const id = await create({ name: 'Unberührt' });
    const res = await api(server.url, other.writeKey).post(`/suppliers/${id}`, { name: 'Übernommen' });
    expect(res.body).toEqual(standardError(404, `Supplier "${id}" not found`));
    expect((await write.post('/suppliers/doesnotexist00000000', { name: 'x' })).status).toBe(404);
    expect(row(id)?.name).toBe('Unberührt');
    expect(outboxOf(id)).toHaveLength(1);
  });
});

describe('GET /suppliers', () => {
  it.each([
    ['0', 'Number must be at least 1'],
    ['5001', 'Number must be at most 5000'],
    ['abc', 'must be a whole number (got "abc")'],
    ['1.5', 'must be a whole number (got "1.5")'],
  ])('refuses limit=%s in the validation shape', async (limit, message) => {
    const res = await read.get(`/suppliers?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validationError({ limit: [expect.stringContaining(message)] }));
  });

  it('returns active suppliers of the organization by name, without nextCursor', async () => {
    const fresh = server.createOrg();
    const client = api(server.url, fresh.writeKey);
    const ids = {
      b: await create({ name: 'Brauerei' }, client),
      a: await create({ name: 'Apfelhof', city: 'Thun' }, client),
      c: await create({ name: 'Confiserie' }, client),
      gone: await create({ name: 'Abgang' }, client),
    };
    await client.post(`/suppliers/${ids.gone}`, { deleted: true });
    await create({ name: 'Andere Firma' }, api(server.url, other.writeKey));

    const res = await client.get('/suppliers');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { id: ids.a, name: 'Apfelhof', city: 'Thun', organizationId: fresh.id, deleted: false, createdate: expect.stringMatching(ISO) },
        { id: ids.b, name: 'Brauerei', organizationId: fresh.id, deleted: false, createdate: expect.stringMatching(ISO) },
        { id: ids.c, name: 'Confiserie', organizationId: fresh.id, deleted: false, createdate: expect.stringMatching(ISO) },
      ],
      meta: { total: 3, returned: 3, limit: 100 },
    });
    const limited = await client.get('/suppliers?limit=2');
    expect(limited.body.data.map((s: { id: string }) => s.id)).toEqual([ids.a, ids.b]);
    expect(limited.body.meta).toEqual({ total: 2, returned: 2, limit: 2 });
  });

  it('matches "sort active suppliers by name, then id, and take limit" for any names', async () => {
    const nameChar = fc.constantFrom('a', 'B', 'b', 'Ä', 'ä', 'z', 'Z', ' ', '1', '-');
    const name = fc.string({ unit: nameChar, minLength: 1, maxLength: 4 }).filter((n) => n.trim() !== '');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ name, deleted: fc.boolean() }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 14 }),
        async (suppliers, limit) => {
          const fresh = server.createOrg();
          const client = api(server.url, fresh.writeKey);
          const oracle: { id: string; name: string }[] = [];
          for (const s of suppliers) {
            const id = await create({ name: s.name }, client);
            if (s.deleted) await client.post(`/suppliers/${id}`, { deleted: true });
            else oracle.push({ id, name: s.name.trim() });
          }
          oracle.sort((x, y) => byUtf8(x.name, y.name) || byUtf8(x.id, y.id));
          const res = await client.get(`/suppliers?limit=${limit}`);
          const expected = oracle.slice(0, limit);
          expect(res.body.data.map((s: { id: string; name: string }) => ({ id: s.id, name: s.name }))).toEqual(expected);
          expect(res.body.meta).toEqual({ total: expected.length, returned: expected.length, limit });
        },
      ),
      { numRuns: 15 },
    );
  });
});
