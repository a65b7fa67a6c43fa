import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../main/storage/database.js';
import { api, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const personal = { birthDate: '2008-04-01', rawText: 'IDCHE1234567<<<', imageUrl: 'https://cdn.example.com/id-scan.jpg' };

let server: TestServer;
let sqlite: Db;
beforeAll(async () => {
  server = await startTestServer();
  // The server's own connection, which the sync worker marks entries pushed or parked on.
  sqlite = server.running.inProcess.db;
});
afterAll(async () => {
  await server.destroy();
});

async function log(client: Api, days: number, source = 'passport'): Promise<string> {
  const res = await client.post('/identity-logs', { access: false, source, logDate: daysAgo(days), ...personal });
  expect(res.status).toBe(200);
  return res.body.id as string;
}
const logOf = async (client: Api, id: string) =>
  ((await client.get('/identity-logs?limit=5000')).body.data as { id: string; birthDate?: string }[]).find((l) => l.id === id);
const outboxBodies = (id: string) =>
  (sqlite.prepare("SELECT body FROM outbox WHERE resource = 'identity-log' AND resource_id = ?").pluck().all(id) as string[]).map((b) => JSON.parse(b));
const setOutboxState = (id: string, state: string) =>
  sqlite.prepare("UPDATE outbox SET state = ? WHERE resource = 'identity-log' AND resource_id = ?").run(state, id);

describe('retention show / set', () => {
  it('is 90 days for a new organization and can be changed', async () => {
    const org = server.createOrg(['identity-logs']);
    expect((await runCli(server.dataDir, ['retention', 'show', org.id, '--json'])).json).toEqual({ id: org.id, retentionDays: 90 });
    const set = await runCli(server.dataDir, ['retention', 'set', org.id, '--days', '30']);
    expect(set.status).toBe(0);
    expect(set.stdout).toBe(`${org.id}: identity logs keep personal data for 30 days\n`);
  });

  it('refuses a period that is not a whole number of days from 1, and an unknown organization', async () => {
    const zero = await runCli(server.dataDir, ['retention', 'set', server.createOrg().id, '--days', '0', '--json']);
    expect(zero.status).toBe(1);
    expect(zero.json).toEqual({ error: 'Retention must be a whole number of days from 1 to 36500, not 0' });
    const unknown = await runCli(server.dataDir, ['retention', 'show', 'nope', '--json']);
    expect(unknown.status).toBe(1);
    expect(unknown.json).toEqual({ error: 'Organization "nope" not found' });
  });
});

describe('retention purge', () => {
  let org: TestOrg;
  let client: Api;
  beforeAll(() => {
    org = server.createOrg(['identity-logs']);
    client = api(server.url, org.writeKey);
  });

  it('erases birthDate, rawText and imageUrl of checks past the period, keeps the check, and says how many', async () => {
    const old = await log(client, 91);
    const recent = await log(client, 89);
    const purge = await runCli(server.dataDir, ['retention', 'purge', org.id, '--json']);
    expect(purge.status).toBe(0);
    expect(purge.json).toEqual({ purged: 1 });
    expect(await logOf(client, old)).toEqual({ id: old, access: false, source: 'passport', logDate: expect.any(String), instance: org.id });
    expect(await logOf(client, recent)).toMatchObject(personal);
    // Without sync nothing will push the queued creation as it was; it keeps no personal data either.
    expect(outboxBodies(old)).toEqual([{ access: false, source: 'passport', logDate: expect.any(String) }]);
    expect(outboxBodies(recent)).toEqual([expect.objectContaining(personal)]);
    expect((await runCli(server.dataDir, ['retention', 'purge', org.id])).stdout).toBe('Erased the personal data of 0 identity logs.\n');
  });

  it('follows a shorter period at once', async () => {
    const fresh = server.createOrg(['identity-logs']);
    const id = await log(api(server.url, fresh.writeKey), 8);
    await runCli(server.dataDir, ['retention', 'set', fresh.id, '--days', '7']);
    expect((await runCli(server.dataDir, ['retention', 'purge', '--json'])).json.purged).toBeGreaterThanOrEqual(1);
    expect(await logOf(api(server.url, fresh.readKey), id)).not.toHaveProperty('birthDate');
  });

  it('with sync configured, keeps what has not reached the upstream and scrubs what has', async () => {
    const synced = server.createOrg(['identity-logs']);
    const kiosk = api(server.url, synced.writeKey);
    sqlite
      .prepare('INSERT INTO sync_config (org_id, upstream_url, interval_seconds, configured_at) VALUES (?, ?, 30, ?)')
      .run(synced.id, 'http://upstream.example/api/v1', new Date().toISOString());
    const [pending, parked, pushed, discarded] = [await log(kiosk, 100), await log(kiosk, 100), await log(kiosk, 100), await log(kiosk, 100)];
    setOutboxState(parked, 'parked');
    setOutboxState(pushed, 'pushed');
    setOutboxState(discarded, 'discarded');

    expect((await runCli(server.dataDir, ['retention', 'purge', synced.id, '--json'])).json).toEqual({ purged: 2 });
    for (const id of [pending, parked]) {
      expect(await logOf(kiosk, id)).toMatchObject(personal);
      expect(outboxBodies(id)).toEqual([expect.objectContaining(personal)]);
    }
    for (const id of [pushed, discarded]) {
      expect(await logOf(kiosk, id)).not.toHaveProperty('rawText');
      expect(outboxBodies(id)).toEqual([{ access: false, source: 'passport', logDate: expect.any(String) }]);
    }

    setOutboxState(pending, 'pushed');
    expect((await runCli(server.dataDir, ['retention', 'purge', synced.id, '--json'])).json).toEqual({ purged: 1 });
    sqlite.prepare('DELETE FROM sync_config WHERE org_id = ?').run(synced.id);
    expect((await runCli(server.dataDir, ['retention', 'purge', synced.id, '--json'])).json).toEqual({ purged: 1 });
    expect(await logOf(kiosk, parked)).not.toHaveProperty('birthDate');
  });
});

describe('the server', () => {
  it('purges at start-up (and then daily) without being asked', async () => {
    const org = server.createOrg(['identity-logs']);
    const id = await log(api(server.url, org.writeKey), 120);
    server = await server.restart();
    const read = api(server.url, org.readKey);
    for (let i = 0; i < 50 && (await logOf(read, id))?.birthDate !== undefined; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(await logOf(read, id)).toEqual({ id, access: false, source: 'passport', logDate: expect.any(String), instance: org.id });
  });
});
