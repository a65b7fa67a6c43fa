import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages, type Api } from './support/api.js';
import { CLEARABLE_STORE_FIELDS, fullStore, tableReader } from './support/catalog.js';
import { ISO, byUtf8, standardError, validationError } from './support/shapes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

type Reader = ReturnType<typeof tableReader>;

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let write: Api;
let read: Api;
let row: Reader['row'];
let storeCount: Reader['count'];
let outboxOf: Reader['outboxOf'];
/** The server's clock: tests set it to control `createdate` and `lastupdate`. */
let now = new Date('2026-11-21T08:00:00.000Z');

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => now } });
  org = server.createOrg();
  other = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  ({ row, count: storeCount, outboxOf } = tableReader(server.sqlite(), 'stores'));
});
afterAll(async () => {
  await server.destroy();
});

async function create(body: Record<string, unknown> = {}, client: Api = write): Promise<string> {
  const res = await client.post('/stores', { name: 'Laden', ...body });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((item) => item.id);

describe('authentication', () => {
  it('refuses a request without a key', async () => {
    const res = await api(server.url).get('/stores');
    expect(res.status).toBe(403);
    expect(res.body).toEqual(standardError(403, 'Forbidden'));
  });

  it('lets a read key read but not create or update', async () => {
    const id = await create({ name: 'Nur lesen' });
    expect((await read.get('/stores')).status).toBe(200);
    expect((await read.get(`/stores/${id}`)).status).toBe(200);
    const before = storeCount();
    for (const res of [await read.post('/stores', { name: 'x' }), await read.post(`/stores/${id}`, { name: 'y' })]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(standardError(403, 'Forbidden'));
    }
    expect(storeCount()).toBe(before);
    expect(row(id)?.name).toBe('Nur lesen');
  });
});

describe('POST /stores', () => {
  it('stores every field with its type and answers { success, id }', async () => {
    const body = fullStore();
    const res = await write.post('/stores', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: expect.stringMatching(/^[A-Za-z0-9]{20}$/) });
    const id = res.body.id as string;
    const got = await read.get(`/stores/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        ...body,
        id,
        deleted: false,
        createdate: expect.stringMatching(ISO),
        lastupdate: expect.stringMatching(ISO),
        instance: org.id,
      },
    });
    expect(got.body.data.lastupdate).toBe(got.body.data.createdate);
    expect(row(id)).toMatchObject({
      org_id: org.id,
      payment_cash: 1,
      payment_provider_b: 0,
      background_image: '"https://cdn.example.com/bg.jpg"',
      background_image_cart: '{"src":"https://cdn.example.com/cart.jpg"}',
      language_selector: '["de","fr","it","en"]',
      deleted: 0,
    });
    expect(outboxOf(id)).toEqual([{ resource: 'store', operation: 'create', body }]);
  });

  it('needs only a name; fields never set are absent', async () => {
    const id = await create({ name: ' Kiosk Bahnhof ' });
    const { data } = (await read.get(`/stores/${id}`)).body;
    expect(data).toEqual({
      id,
      name: 'Kiosk Bahnhof',
      deleted: false,
      createdate: data.createdate,
      lastupdate: data.createdate,
      instance: org.id,
    });
  });

  it('keeps each background image in the form it was sent', async () => {
    const id = await create({ backgroundImage: { src: 'a.png' }, backgroundImageCart: 'b.png' });
    expect((await read.get(`/stores/${id}`)).body.data).toMatchObject({ backgroundImage: { src: 'a.png' }, backgroundImageCart: 'b.png' });
  });

  it.each([
    [{}, 'name: is required'],
    [{ name: '' }, 'name: must not be empty'],
    [{ name: 'x', languageMain: 'es' }, 'languageMain: must be one of "de", "en", "fr", "it" (got "es")'],
    [{ name: 'x', languageMain: 'DE' }, 'languageMain: must be one of "de", "en", "fr", "it" (got "DE")'],
    [{ name: 'x', languageSelector: ['de', 'rm'] }, 'languageSelector.1: must be one of "de", "en", "fr", "it" (got "rm")'],
    [{ name: 'x', languageSelector: 'de' }, 'languageSelector: Invalid input: expected array, received string (got "de")'],
    [{ name: 'x', backgroundImage: 5 }, 'backgroundImage: must be a string or an object {"src": string}'],
    [{ name: 'x', backgroundImage: { url: 'a' } }, 'backgroundImage: must be a string or an object {"src": string}'],
    [{ name: 'x', backgroundImageCart: { src: 'a', alt: 'b' } }, 'backgroundImageCart.alt: is not a writable field (unknown or read-only)'],
    [{ name: 'x', translations: ['de'] }, 'translations: Invalid input: expected record, received array (got ["de"])'],
    [{ name: 'x', translations: 'hallo' }, 'translations: Invalid input: expected record, received string (got "hallo")'],
    [{ name: 'x', paymentCash: 'true' }, 'paymentCash: Invalid input: expected boolean, received string (got "true")'],
    [{ name: 'x', generalMargin: '10' }, 'generalMargin: Invalid input: expected number, received string (got "10")'],
    [{ name: 'x', deleteCountdown: -1 }, 'deleteCountdown: must be 0 or more'],
    [{ name: 'x', adminMail: 'admin' }, 'adminMail: must be an e-mail address such as orders@example.ch, or empty'],
    [{ name: 'x', address: null }, 'address: Invalid input: expected string, received null (got null)'],
    [{ name: 'x', paymentProviderASecret: 'sk_live_1' }, 'paymentProviderASecret: is not a writable field (unknown or read-only)'],
    [{ name: 'x', paymentProviderBApiKey: 'k' }, 'paymentProviderBApiKey: is not a writable field (unknown or read-only)'],
    [{ name: 'x', instance: 'o' }, 'instance: is not a writable field (unknown or read-only)'],
    [{ name: 'x', lastupdate: '2026-01-01T00:00:00.000Z' }, 'lastupdate: is not a writable field (unknown or read-only)'],
    [{ name: 'x', deleted: false }, 'deleted: is not a writable field (unknown or read-only)'],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const before = storeCount();
    const res = await write.post('/stores', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
    expect(storeCount()).toBe(before);
  });
});

describe('GET /stores/{storeId}', () => {
  it("answers 404 for an unknown id and for another organization's id alike", async () => {
    const id = await create({ name: 'Geheim' });
    expect((await api(server.url, other.readKey).get(`/stores/${id}`)).body).toEqual(standardError(404, `Store "${id}" not found`));
    const unknown = await read.get('/stores/doesnotexist00000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(standardError(404, 'Store "doesnotexist00000000" not found'));
  });
});

describe('POST /stores/{storeId}', () => {
  it('changes only the fields sent, moves lastupdate and records the patch in the outbox', async () => {
    now = new Date('2026-11-21T09:00:00.000Z');
    const id = await create(fullStore());
    const before = (await read.get(`/stores/${id}`)).body.data;
    expect(before).toMatchObject({ createdate: '2026-11-21T09:00:00.000Z', lastupdate: '2026-11-21T09:00:00.000Z' });
    const patch = { name: 'Hofladen Neu', paymentCash: false, languageMain: 'fr', backgroundImage: { src: 'new.jpg' } };
    now = new Date('2026-11-21T09:30:00.000Z');
    expect((await write.post(`/stores/${id}`, patch)).body).toEqual({ success: true });
    const after = (await read.get(`/stores/${id}`)).body.data;
    expect(after).toEqual({ ...before, ...patch, lastupdate: '2026-11-21T09:30:00.000Z' });
    expect(outboxOf(id).at(-1)).toEqual({ resource: 'store', operation: 'update', body: patch });
  });

  it.each(CLEARABLE_STORE_FIELDS)('clears %s when sent as null', async (field, column) => {
    const id = await create(fullStore());
    const before = (await read.get(`/stores/${id}`)).body.data;
    expect(row(id)?.[column]).not.toBeNull();
    expect((await write.post(`/stores/${id}`, { [field]: null })).body).toEqual({ success: true });
    const { [field]: _cleared, ...rest } = before;
    expect((await read.get(`/stores/${id}`)).body.data).toEqual({ ...rest, lastupdate: expect.stringMatching(ISO) });
    expect(row(id)?.[column]).toBeNull();
    expect(outboxOf(id).at(-1)).toEqual({ resource: 'store', operation: 'update', body: { [field]: null } });
  });

  it('clears several fields and sets others in one update', async () => {
    const id = await create(fullStore());
    await write.post(`/stores/${id}`, { address: null, translations: null, city: 'Bern', languageSelector: ['it'] });
    const { data } = (await read.get(`/stores/${id}`)).body;
    expect(data).not.toHaveProperty('address');
    expect(data).not.toHaveProperty('translations');
    expect(data).toMatchObject({ city: 'Bern', languageSelector: ['it'], zipCode: '8000' });
  });

  it('soft-deletes with deleted: true: readable with deleted true, gone from the list; false restores', async () => {
    const id = await create({ name: 'Pop-up' });
    expect((await write.post(`/stores/${id}`, { deleted: true })).body).toEqual({ success: true });
    expect((await read.get(`/stores/${id}`)).body.data).toMatchObject({ id, name: 'Pop-up', deleted: true });
    expect(row(id)?.deleted).toBe(1);
    expect((await collectPages(read, '/stores?limit=5000')).items.map((s: { id: string }) => s.id)).not.toContain(id);
    await write.post(`/stores/${id}`, { deleted: false });
    expect((await collectPages(read, '/stores?limit=5000')).items.map((s: { id: string }) => s.id)).toContain(id);
  });

  it('accepts an empty body without writing anything', async () => {
    const id = await create();
    expect((await write.post(`/stores/${id}`, {})).body).toEqual({ success: true });
    expect(outboxOf(id)).toHaveLength(1);
  });

  it.each([
    [{ name: null }, 'name: cannot be cleared; a store always has a name (got null)'],
    [{ name: ' ' }, 'name: must not be empty'],
    [{ backgroundImage: null }, 'backgroundImage: cannot be cleared with null; send "" for no image'],
    [{ backgroundImageCart: null }, 'backgroundImageCart: cannot be cleared with null; send "" for no image'],
    [{ languageMain: 'en-GB' }, 'languageMain: must be one of "de", "en", "fr", "it" (got "en-GB")'],
    [{ deleted: null }, 'deleted: Invalid input: expected boolean, received null (got null)'],
    [{ paymentProviderAPassword: 'x' }, 'paymentProviderAPassword: is not a writable field (unknown or read-only)'],
    [{ id: 'other' }, 'id: is not a writable field (unknown or read-only)'],
  ])('refuses %j with a 400 and changes nothing', async (patch, message) => {
    const id = await create(fullStore({ name: 'Fest' }));
    const before = (await read.get(`/stores/${id}`)).body.data;
    const res = await write.post(`/stores/${id}`, patch);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
    expect((await read.get(`/stores/${id}`)).body.data).toEqual(before);
    expect(outboxOf(id)).toHaveLength(1);
  });

  it("answers 404 for an unknown id and for another organization's id, changing nothing", async () => {
    const id = await create({ name: 'Unberührt' });
    const res = await api(server.url, other.writeKey).post(`/stores/${id}`, { name: 'Übernommen' });
    expect(res.body).toEqual(standardError(404, `Store "${id}" not found`));
    expect((await write.post('/stores/doesnotexist00000000', { name: 'x' })).status).toBe(404);
    expect(row(id)?.name).toBe('Unberührt');
    expect(outboxOf(id)).toHaveLength(1);
  });
});

describe('GET /stores', () => {
  it.each([
    ['limit=0', { limit: [expect.stringContaining('Number must be at least 1')] }],
    ['limit=5001', { limit: [expect.stringContaining('Number must be at most 5000')] }],
    ['cursor=%25%25', { cursor: [expect.stringContaining('is not a cursor from this server')] }],
  ])('refuses %s in the validation shape', async (query, fieldErrors) => {
    const res = await read.get(`/stores?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validationError(fieldErrors));
  });

  it('pages active stores of the organization in id order with nextCursor', async () => {
    const fresh = server.createOrg();
    const client = api(server.url, fresh.writeKey);
    const created = [await create({ city: 'Bern' }, client), await create({}, client), await create({}, client)];
    const gone = await create({}, client);
    await client.post(`/stores/${gone}`, { deleted: true });
    await create({ name: 'Fremd' }, api(server.url, other.writeKey));
    const sorted = [...created].sort(byUtf8);

    const first = await client.get('/stores?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ total: 2, returned: 2, limit: 2, nextCursor: expect.any(String) });
    expect(first.body.data[0]).toEqual({
      id: sorted[0],
      name: 'Laden',
      ...(sorted[0] === created[0] ? { city: 'Bern' } : {}),
      deleted: false,
      createdate: expect.stringMatching(ISO),
      lastupdate: expect.stringMatching(ISO),
      instance: fresh.id,
    });
    const second = await client.get(`/stores?limit=2&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`);
    expect([...ids(first), ...ids(second)]).toEqual(sorted);
    expect(second.body.meta).toEqual({ total: 1, returned: 1, limit: 2 });
  });

  it('serves every active store exactly once in id order, for any deletions and page size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { maxLength: 12 }), fc.integer({ min: 1, max: 5 }), async (deletedFlags, limit) => {
        const fresh = server.createOrg();
        const client = api(server.url, fresh.writeKey);
        const active: string[] = [];
        for (const deleted of deletedFlags) {
          const id = await create({}, client);
          if (deleted) await client.post(`/stores/${id}`, { deleted: true });
          else active.push(id);
        }
        const { items } = await collectPages<{ id: string }>(client, `/stores?limit=${limit}`);
        expect(items.map((s) => s.id)).toEqual(active.sort(byUtf8));
      }),
      { numRuns: 12 },
    );
  });
});

describe('timeZone (extension)', () => {
  it('is absent until set, then kept and read back; null goes back to the default', async () => {
    const id = await create();
    expect((await read.get(`/stores/${id}`)).body.data.timeZone).toBeUndefined();
    expect((await write.post(`/stores/${id}`, { timeZone: 'America/New_York' })).status).toBe(200);
    expect((await read.get(`/stores/${id}`)).body.data.timeZone).toBe('America/New_York');
    expect(row(id)?.time_zone).toBe('America/New_York');
    expect((await write.post(`/stores/${id}`, { timeZone: null })).status).toBe(200);
    expect((await read.get(`/stores/${id}`)).body.data.timeZone).toBeUndefined();
    const created = await create({ timeZone: 'Europe/Zurich' });
    expect((await read.get(`/stores/${created}`)).body.data.timeZone).toBe('Europe/Zurich');
  });

  it.each(['Mars/Olympus', '', 'CET+25'])('refuses %j with a message naming the field and the value', async (timeZone) => {
    const res = await write.post('/stores', { name: 'x', timeZone });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, `timeZone: must be an IANA time zone name such as "Europe/Zurich", not ${JSON.stringify(timeZone)}`));
  });
});
