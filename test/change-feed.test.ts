import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../main/services/clock.js';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';

const ORIGIN = '1970-01-01T00:00:00.000Z';
let now = Date.parse('2026-11-21T08:00:00.000Z');
const clock: Clock = { now: () => new Date(now) };
const at = (ms: number) => new Date(ms).toISOString();

let server: TestServer;
let write: Api;
beforeAll(async () => {
  server = await startTestServer({ clock });
  write = api(server.url, server.createOrg(['identity-logs']).writeKey);
});
afterAll(async () => {
  await server.destroy();
});

const created = async (path: string, body: unknown): Promise<string> => {
  const res = await write.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
};

/** Each pulled collection: how to make a record of it and how to delete it. */
const COLLECTIONS = [
  { path: '/suppliers', body: { name: 'Alp' }, remove: (id: string) => write.post(`/suppliers/${id}`, { deleted: true }) },
  { path: '/categories', body: { name: 'Käse' }, remove: (id: string) => write.post(`/categories/${id}`, { deleted: true }) },
  { path: '/stores', body: { name: 'Filiale' }, remove: (id: string) => write.post(`/stores/${id}`, { deleted: true }) },
  {
    path: '/identity-logs/blocked',
    body: { comment: 'Hausverbot', first_name: 'Max', last_name: 'Muster' },
    remove: (id: string) => write.delete(`/identity-logs/blocked/${id}`),
  },
];

describe('GET <collection>?updatedSince= (extension, the change feed)', () => {
  it.each(COLLECTIONS)('$path lists changes with deletions, and says up to when the walk is complete', async ({ path, body, remove }) => {
    const id = await created(path, body);
    const first = await write.get(`${path}?updatedSince=${ORIGIN}&limit=5000`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((r: { id: string }) => r.id)).toContain(id);
    // Read before the page, less the 5 s a write may wait for the write lock after taking its time.
    expect(first.body.meta.completeUntil).toBe(at(now - 5000));

    now += 10_000;
    const overlap = await write.get(`${path}?updatedSince=${first.body.meta.completeUntil}`);
    expect(overlap.body.data.map((r: { id: string }) => r.id)).toEqual([id]);
    const quiet = await write.get(`${path}?updatedSince=${overlap.body.meta.completeUntil}`);
    expect(quiet.body).toMatchObject({ data: [], meta: { returned: 0, completeUntil: at(now - 5000) } });

    expect((await remove(id)).status).toBe(200);
    const deletion = await write.get(`${path}?updatedSince=${overlap.body.meta.completeUntil}`);
    expect(deletion.body.data).toMatchObject([{ id, deleted: true }]);
    expect((await write.get(path)).body.data.map((r: { id: string }) => r.id)).not.toContain(id);
    now += 10_000;
  });

  it('pages by cursor in the order of the changes, the supplier feed too', async () => {
    const ids: string[] = [];
    for (const name of ['Zeta', 'Alpha', 'Mitte']) {
      now += 1;
      ids.push(await created('/suppliers', { name }));
    }
    const since = at(now - 3);
    const first = await write.get(`/suppliers?updatedSince=${since}&limit=2`);
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 2));
    const second = await write.get(`/suppliers?updatedSince=${since}&limit=2&cursor=${first.body.meta.nextCursor}`);
    expect(second.body.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(2));
    expect(second.body.meta.nextCursor).toBeUndefined();
  });

  it('refuses a cursor on the plain supplier list, which is not paged', async () => {
    const res = await write.get('/suppliers?cursor=abc');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/cursor is only allowed together with updatedSince/);
  });
});
