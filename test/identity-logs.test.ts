import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

const NOW = '2026-11-15T10:00:00.000Z';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = /^[A-Za-z0-9]{20}$/;
const standardError = (statusCode: number, message: string | RegExp) => ({
  statusCode,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
  timestamp: expect.stringMatching(ISO),
  path: expect.stringMatching(/^\/api\/v1\//),
});
const validationError = (fieldErrors: Record<string, unknown>) => ({ error: { formErrors: [], fieldErrors } });

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let write: Api;
let read: Api;
let stranger: Api;

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => new Date(NOW) } });
  org = server.createOrg(['identity-logs']);
  other = server.createOrg(['identity-logs']);
  server.createStores(org.id, ['store-1']);
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  stranger = api(server.url, other.writeKey);
});
afterAll(async () => {
  await server.destroy();
});

async function block(body: Record<string, unknown> = {}, client: Api = write): Promise<string> {
  const res = await client.post('/identity-logs/blocked', { comment: 'Fake ID', first_name: 'Max', last_name: 'Muster', ...body });
  expect(res.body).toEqual({ success: true, id: expect.stringMatching(ID) });
  return res.body.id as string;
}

const outboxOf = (resource: string, id: string) =>
  (server.sqlite().prepare('SELECT operation, body FROM outbox WHERE resource = ? AND resource_id = ? ORDER BY seq').all(resource, id) as {
    operation: string;
    body: string;
  }[]).map((row) => ({ operation: row.operation, body: JSON.parse(row.body) as unknown }));

describe('feature gate and keys', () => {
  it('answers 403 Feature not available on every endpoint without the feature, before looking at the request', async () => {
    const plain = server.createOrg();
    const client = api(server.url, plain.writeKey);
    const responses = [
      await client.get('/identity-logs'),
      await client.get('/identity-logs?limit=99999&access=maybe'),
      await client.post('/identity-logs', { access: true }),
      await client.post('/identity-logs', { nonsense: 1 }),
      await client.request('POST', '/identity-logs', { body: '{not json', headers: { 'content-type': 'application/json' } }),
      await client.get('/identity-logs/blocked'),
      await client.post('/identity-logs/blocked', {}),
      await client.get('/identity-logs/blocked/x'),
      await client.post('/identity-logs/blocked/x', {}),
      await client.delete('/identity-logs/blocked/x'),
      await api(server.url, plain.readKey).get('/identity-logs'),
    ];
    for (const res of responses) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(standardError(403, 'Feature not available'));
    }
  });

  it('answers 403 Forbidden without a key and for a read key on writes', async () => {
    expect((await api(server.url).get('/identity-logs')).body).toEqual(standardError(403, 'Forbidden'));
    const id = await block();
    for (const res of [
      await read.post('/identity-logs', { access: true }),
      await read.post('/identity-logs/blocked', { comment: '', first_name: 'A', last_name: 'B' }),
      await read.post(`/identity-logs/blocked/${id}`, { comment: '', first_name: 'A', last_name: 'B' }),
      await read.delete(`/identity-logs/blocked/${id}`),
    ]) {
      expect(res.body).toEqual(standardError(403, 'Forbidden'));
    }
  });
});

describe('POST /identity-logs', () => {
  it('answers 400 naming the field for each invalid body', async () => {
    const cases: [unknown, string][] = [
      [{}, 'access: is required'],
      [{ access: 'yes' }, 'access: must be true or false (got "yes")'],
      [{ access: true, logDate: 'today' }, 'logDate: must be an ISO 8601 date-time, for example 2026-11-21T08:30:00.000Z (got "today")'],
      [{ access: true, instance: 'x' }, 'instance: is not a writable field (unknown or read-only)'],
      [{ access: true, id: 'x' }, 'id: is not a writable field (unknown or read-only)'],
      [{ access: true, store: 5 }, 'store: must be a string (got 5)'],
      [{ access: true, store: 'nowhere' }, 'store: no store "nowhere" in this organization'],
    ];
    for (const [body, message] of cases) expect((await write.post('/identity-logs', body)).body).toEqual(standardError(400, message));
  });

  it('records every field, defaults logDate to now and queues the check', async () => {
    const body = {
      access: false,
      logDate: '2026-11-15T08:00:00+01:00',
      logType: 'age-check',
      appVersion: '3.2.1',
      store: 'store-1',
      source: 'passport',
      user: 'kiosk-4',
      birthDate: '2010-05-01',
      imageUrl: 'https://cdn.example.com/scan.jpg',
      rawText: 'P<CHEMUSTER<<MAX',
    };
    const res = await write.post('/identity-logs', body);
    expect(res.body).toEqual({ success: true, id: expect.stringMatching(ID) });
    const bare = (await write.post('/identity-logs', { access: true })).body.id as string;

    const { data } = (await read.get('/identity-logs?start=2026-11-15T00:00:00Z&end=2026-11-15T23:59:59Z')).body;
    expect(data).toEqual([
      { id: bare, access: true, logDate: NOW, instance: org.id },
      { ...body, id: res.body.id, logDate: '2026-11-15T07:00:00.000Z', instance: org.id },
    ]);
    expect(outboxOf('identity-log', res.body.id)).toEqual([{ operation: 'create', body: { ...body, logDate: '2026-11-15T07:00:00.000Z' } }]);
    expect(server.sqlite().prepare('SELECT org_id, createdate FROM identity_logs WHERE id = ?').get(bare)).toEqual({ org_id: org.id, createdate: NOW });
  });
});

describe('GET /identity-logs', () => {
  it('answers 400 in the validation shape for each invalid query', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['access=maybe', { access: [expect.stringMatching(/^must be "allowed" or "denied"/)] }],
      ['start=yesterday', { start: [expect.stringMatching(/^must be an ISO 8601 date-time/)] }],
      ['start=2026-11-15T10:00:00Z&end=2026-11-15T09:00:00Z', { end: ['must not be before start'] }],
      ['limit=5001', { limit: ['Number must be at most 5000'] }],
      ['limit=abc', { limit: [expect.stringMatching(/^must be a whole number/)] }],
      ['cursor=%25%25', { cursor: [expect.stringMatching(/^is not a cursor/)] }],
    ];
    for (const [query, fieldErrors] of cases) {
      const res = await read.get(`/identity-logs?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual(validationError(fieldErrors));
    }
  });

  describe('paging with filters', () => {
    interface Made { id: string; logDate: string; store: string; source: string; access: boolean }
    const made: Made[] = [];
    const at = (minute: number) => `2031-03-01T08:${String(minute).padStart(2, '0')}:00.000Z`;
    // An organization of its own, so the checks of other tests stay out of open-ended windows.
    let kiosk: Api;

    beforeAll(async () => {
      const kioskOrg = server.createOrg(['identity-logs']);
      server.createStores(kioskOrg.id, ['s1', 's2']);
      kiosk = api(server.url, kioskOrg.writeKey);
      for (let i = 0; i < 36; i += 1) {
        // Several checks share a minute so the id decides their order.
        const log = { logDate: at(i % 11), store: i % 2 === 0 ? 's1' : 's2', source: i % 3 === 0 ? 'passport' : 'swiss_id_card', access: i % 5 !== 0 };
        const res = await kiosk.post('/identity-logs', log);
        made.push({ ...log, id: res.body.id as string });
      }
    });

    it('equals filtering all checks in memory, for any filters and page size', async () => {
      const newestFirst = (a: Made, b: Made) => (a.logDate === b.logDate ? (a.id < b.id ? 1 : -1) : a.logDate < b.logDate ? 1 : -1);
      await fc.assert(
        fc.asyncProperty(
          fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
          fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
          fc.constantFrom(undefined, 's1', 's2'),
          fc.constantFrom(undefined, 'passport', 'swiss_id_card'),
          fc.constantFrom(undefined, 'allowed', 'denied'),
          fc.integer({ min: 1, max: 8 }),
          async (a, b, store, source, access, limit) => {
            const start = a === undefined ? undefined : at(b === undefined ? a : Math.min(a, b));
            const end = b === undefined ? undefined : at(a === undefined ? b : Math.max(a, b));
            const expected = made
              .filter((l) => (start === undefined || l.logDate >= start) && (end === undefined || l.logDate <= end))
              .filter((l) => (store === undefined || l.store === store) && (source === undefined || l.source === source))
              .filter((l) => access === undefined || l.access === (access === 'allowed'))
              .sort(newestFirst)
              .map((l) => l.id);
            const query = new URLSearchParams({ limit: String(limit) });
            if (start !== undefined) query.set('start', start);
            if (end !== undefined) query.set('end', end);
            if (store) query.set('store', store);
            if (source) query.set('source', source);
            if (access) query.set('access', access);
            const { items } = await collectPages(kiosk, `/identity-logs?${query}`);
            expect(items.map((l) => l.id)).toEqual(expected);
          },
        ),
        { numRuns: 25 },
      );
    });

    it("never serves another organization's checks", async () => {
      const res = await stranger.get(`/identity-logs?start=${at(0)}`);
      expect((await read.get(`/identity-logs?start=${at(0)}`)).body.data).toEqual([]);
      expect(res.body).toEqual({ data: [], meta: { total: 0, returned: 0, limit: 100 } });
    });
  });
});

describe('POST /identity-logs/blocked', () => {
  it('answers 400 naming the field for each invalid body', async () => {
    const valid = { comment: 'c', first_name: 'A', last_name: 'B' };
    const cases: [unknown, string][] = [
      [{ first_name: 'A', last_name: 'B' }, 'comment: is required'],
      [{ ...valid, first_name: ' ' }, 'first_name: must not be empty'],
      [{ comment: 'c', first_name: 'A' }, 'last_name: is required'],
      [{ ...valid, date: NOW }, 'date: is not a writable field (unknown or read-only)'],
      [{ ...valid, deleted: false }, 'deleted: is not a writable field (unknown or read-only)'],
    ];
    for (const [body, message] of cases) expect((await write.post('/identity-logs/blocked', body)).body).toEqual(standardError(400, message));
  });

  it('stores every field with date = now and queues the creation', async () => {
    const body = { comment: 'Stolen document', first_name: 'Erika', last_name: 'Muster', birthDate: '1990-02-03', rawMrz: 'IDCHE1234567<<<' };
    const id = await block(body);
    const res = await read.get(`/identity-logs/blocked/${id}`);
    expect(res.body).toEqual({ data: { id, date: NOW, ...body, deleted: false } });
    expect(outboxOf('blocked-identity', id)).toEqual([{ operation: 'create', body }]);
  });
});

describe('GET /identity-logs/blocked/{blockedId}', () => {
  it("answers 404 for unknown ids and for another organization's identity", async () => {
    const id = await block();
    expect((await read.get('/identity-logs/blocked/nosuch')).body).toEqual(standardError(404, 'Blocked identity "nosuch" not found'));
    expect((await stranger.get(`/identity-logs/blocked/${id}`)).body).toEqual(standardError(404, `Blocked identity "${id}" not found`));
  });
});

describe('POST /identity-logs/blocked/{blockedId}', () => {
  const names = { comment: 'Updated', first_name: 'Erika', last_name: 'Beispiel' };

  it('answers 404 for unknown and foreign ids, and 400 naming the field for invalid bodies', async () => {
    const id = await block({ birthDate: '1990-02-03' });
    expect((await write.post('/identity-logs/blocked/nosuch', names)).body).toEqual(standardError(404, 'Blocked identity "nosuch" not found'));
    expect((await stranger.post(`/identity-logs/blocked/${id}`, names)).body).toEqual(standardError(404, `Blocked identity "${id}" not found`));
    const cases: [unknown, string][] = [
      [{ first_name: 'A', last_name: 'B' }, 'comment: is required'],
      [{ comment: 'c', last_name: 'B' }, 'first_name: is required'],
      [{ ...names, birthDate: null }, 'birthDate: cannot be cleared; omit it to keep the stored date (got null)'],
      [{ ...names, birthDate: '' }, 'birthDate: cannot be cleared; omit it to keep the stored date'],
      [{ ...names, rawMrz: 'x' }, 'rawMrz: is not a writable field (unknown or read-only)'],
    ];
    for (const [body, message] of cases) expect((await write.post(`/identity-logs/blocked/${id}`, body)).body).toEqual(standardError(400, message));
    expect((await read.get(`/identity-logs/blocked/${id}`)).body.data).toMatchObject({ comment: 'Fake ID', birthDate: '1990-02-03' });
  });

  it('replaces the names and comment, keeps an omitted birthDate and changes a sent one', async () => {
    const id = await block({ birthDate: '1990-02-03', rawMrz: 'MRZ' });
    expect((await write.post(`/identity-logs/blocked/${id}`, names)).body).toEqual({ success: true });
    const expected = { id, date: NOW, ...names, rawMrz: 'MRZ', birthDate: '1990-02-03', deleted: false };
    expect((await read.get(`/identity-logs/blocked/${id}`)).body).toEqual({ data: expected });
    await write.post(`/identity-logs/blocked/${id}`, { ...names, birthDate: '1991-02-03' });
    expect((await read.get(`/identity-logs/blocked/${id}`)).body.data.birthDate).toBe('1991-02-03');
    expect(outboxOf('blocked-identity', id).slice(1)).toEqual([
      { operation: 'update', body: names },
      { operation: 'update', body: { ...names, birthDate: '1991-02-03' } },
    ]);
  });
});

describe('DELETE /identity-logs/blocked/{blockedId}', () => {
  it('answers 404 for unknown and foreign ids', async () => {
    const id = await block();
    expect((await write.delete('/identity-logs/blocked/nosuch')).body).toEqual(standardError(404, 'Blocked identity "nosuch" not found'));
    expect((await stranger.delete(`/identity-logs/blocked/${id}`)).body).toEqual(standardError(404, `Blocked identity "${id}" not found`));
  });

  it('soft-deletes: still readable with deleted true, left out of the list, queued once', async () => {
    const id = await block();
    expect((await write.delete(`/identity-logs/blocked/${id}`)).body).toEqual({ success: true });
    expect((await write.delete(`/identity-logs/blocked/${id}`)).body).toEqual({ success: true });
    expect((await read.get(`/identity-logs/blocked/${id}`)).body.data).toMatchObject({ id, deleted: true });
    expect((await collectPages(read, '/identity-logs/blocked?limit=5000')).items.map((b) => b.id)).not.toContain(id);
    expect(outboxOf('blocked-identity', id).map((e) => e.operation)).toEqual(['create', 'delete']);
  });
});

describe('GET /identity-logs/blocked', () => {
  it('answers 400 in the validation shape for an invalid limit or cursor', async () => {
    expect((await read.get('/identity-logs/blocked?limit=5001')).body).toEqual(validationError({ limit: ['Number must be at most 5000'] }));
    expect((await read.get('/identity-logs/blocked?cursor=@@')).body).toEqual(validationError({ cursor: [expect.stringMatching(/^is not a cursor/)] }));
  });

  it('serves every active identity of the organization once, in id order, across pages', async () => {
    for (let i = 0; i < 7; i += 1) await block({ comment: `bulk ${i}` });
    await block({}, stranger);
    const active = server
      .sqlite()
      .prepare('SELECT id FROM blocked_identities WHERE org_id = ? AND deleted = 0 ORDER BY id')
      .pluck()
      .all(org.id) as string[];
    const { items, pages } = await collectPages(read, '/identity-logs/blocked?limit=3');
    expect(items.map((b) => b.id)).toEqual(active);
    expect(pages).toBe(Math.ceil(active.length / 3));
    expect(items.find((b) => b.comment === 'bulk 0')).toEqual({
      id: expect.stringMatching(ID),
      date: NOW,
      comment: 'bulk 0',
      first_name: 'Max',
      last_name: 'Muster',
      deleted: false,
    });
  });
});
