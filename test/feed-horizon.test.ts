import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { standardError } from './support/shapes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

const DAY = 86_400_000;
const FEEDS = ['/products', '/categories', '/suppliers', '/stores', '/identity-logs/blocked'];
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

let now = Date.now();
let server: TestServer;
let org: TestOrg;
let write: Api;
let other: Api;

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => new Date(now) } });
  org = server.createOrg(['identity-logs']);
  write = api(server.url, org.writeKey);
  other = api(server.url, server.createOrg(['identity-logs']).readKey);
});
afterAll(async () => {
  await server.destroy();
});

const statuses = async (client: Api, since: string) => Promise.all(FEEDS.map(async (feed) => [feed, (await client.get(`${feed}?updatedSince=${since}`)).status]));
const all = (status: number) => FEEDS.map((feed) => [feed, status]);

describe('the change feeds\' deletion horizon', () => {
  it('answers every updatedSince, however old, on a database that never purged', async () => {
    expect(await statuses(write, ago(400))).toEqual(all(200));
    expect(await statuses(write, '2001-01-01T00:00:00.000Z')).toEqual(all(200));
  });

  it('answers 410 from before the newest deletion a real purge removed, and only for the organization it purged', async () => {
    now = Date.now() - 100 * DAY;
    const supplier = (await write.post('/suppliers', { name: 'Alte Mühle' })).body.id as string;
    now = Date.now() - 95 * DAY;
    expect((await write.post(`/suppliers/${supplier}`, { deleted: true })).status).toBe(200);
    now = Date.now();
    // Nothing purged yet: the feed still answers from before the deletion.
    expect(await statuses(write, ago(99))).toEqual(all(200));

    const purge = await runCli(server.dataDir, ['purge', 'run', '--json']);
    expect(purge.status).toBe(0);
    expect(purge.json).toMatchObject({ deleted: 1 });

    expect(await statuses(write, ago(99))).toEqual(all(410));
    const gone = await write.get(`/products?updatedSince=${ago(99)}`);
    expect(gone.body).toEqual(standardError(410, /is before .*: deletions up to then were purged .*; read everything again, with updatedSince=1970-01-01T00:00:00\.000Z or without updatedSince$/));
    // After the purged deletion, and from the origin, the feeds answer.
    expect(await statuses(write, ago(94))).toEqual(all(200));
    expect(await statuses(write, '1970-01-01T00:00:00.000Z')).toEqual(all(200));
    // Another organization purged nothing.
    expect(await statuses(other, ago(99))).toEqual(all(200));
  });
});
