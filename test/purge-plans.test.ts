import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataRetention, PURGE_BATCH } from '../main/retention/data-retention.js';
import { DATABASE_FILE, openDatabase, type Db } from '../main/storage/database.js';
import { PURGE_DELETES, PURGE_SELECTS, SOFT_DELETED_TABLES } from '../main/storage/purges.js';

let dir: string;
let db: Db;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'retail-purge-'));
  db = openDatabase(join(dir, DATABASE_FILE));
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const plan = (sql: string, params: Record<string, unknown>) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail);

describe('the purge queries', () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ['pushed outbox entries', PURGE_SELECTS.pushedOutbox, { cutoff: '2026-01-01', limit: 500 }],
    ['expired kept answers', PURGE_SELECTS.expiredAnswers, { now: '2026-01-01', limit: 500 }],
    ['acknowledged kept answers', PURGE_SELECTS.acknowledgedAnswers, { orgId: 'o', sender: 'sync-o', below: 10, limit: 500 }],
    ...SOFT_DELETED_TABLES.map((table): [string, string, Record<string, unknown>] => [`soft-deleted ${table}`, PURGE_SELECTS.softDeleted(table), { cutoff: '2026-01-01', limit: 500 }]),
    ["a hub's own unsent entries", PURGE_SELECTS.hubUnsent, { orgId: 'o', limit: 500 }],
    ['old orders of a synced organization', PURGE_SELECTS.oldOrders, { orgId: 'o', cutoff: '2026-01-01', limit: 500 }],
    ['the deletion of pushed outbox entries', PURGE_DELETES.pushedOutbox, { cutoff: '2026-01-01', limit: 500 }],
    ["the deletion of a hub's own unsent entries", PURGE_DELETES.hubUnsent, { orgId: 'o', through: 10 }],
    ['the deletion of expired answers', PURGE_DELETES.expiredAnswers, { now: '2026-01-01', limit: 500 }],
    ['the deletion of acknowledged answers', PURGE_DELETES.acknowledgedAnswers, { orgId: 'o', sender: 'sync-o', below: 10, limit: 500 }],
    ['the creations kept from expired answers', PURGE_DELETES.keptCreations(PURGE_SELECTS.expiredAnswers), { now: '2026-01-01', limit: 500 }],
    ['the creations kept from acknowledged answers', PURGE_DELETES.keptCreations(PURGE_SELECTS.acknowledgedAnswers), { orgId: 'o', sender: 'sync-o', below: 10, limit: 500 }],
    ...[...SOFT_DELETED_TABLES, 'orders' as const].map((table): [string, string, Record<string, unknown>] => [`the deletion of a row of ${table}`, PURGE_DELETES.row(table), { id: 'x' }]),
    ['the deletion of an id mapping', PURGE_DELETES.idMapping, { orgId: 'o', kind: 'product', id: 'x' }],
    ["the deletion of a product's alias codes", PURGE_DELETES.aliasCodes, { id: 'x' }],
    ["the deletion of a product's image records", PURGE_DELETES.imageRecords, { id: 'x' }],
  ];
  it.each(cases)('reach %s through an index, never by walking a table', (_what, sql, params) => {
    const details = plan(sql, params);
    expect(details.length).toBeGreaterThan(0);
    for (const detail of details) expect(detail).not.toMatch(/^SCAN (?!.*USING (COVERING )?INDEX)/);
    expect(details.join('\n')).toMatch(/SEARCH \w+ USING (COVERING |INTEGER PRIMARY KEY|PRIMARY KEY|INDEX)/);
    expect(details.join('\n')).not.toMatch(/USE TEMP B-TREE/);
  });
});

describe('a purge of many rows', () => {
  it(`deletes at most ${PURGE_BATCH} rows per transaction and lets the event loop turn between batches`, async () => {
    db.prepare("INSERT INTO organizations (id, name, features, created_at) VALUES ('o', 'Org', '[]', '2020-01-01T00:00:00.000Z')").run();
    const insert = db.prepare(
      "INSERT INTO outbox (org_id, resource, resource_id, operation, body, created_at, state, done_at) VALUES ('o', 'order', ?, 'create', '{}', ?, ?, ?)",
    );
    db.transaction(() => {
      for (let i = 0; i < 1_201; i += 1) insert.run(`o${i}`, '2020-01-01T00:00:00.000Z', 'pushed', '2020-01-01T00:00:00.000Z');
      insert.run('waiting', '2020-01-01T00:00:00.000Z', 'pending', null);
      insert.run('refused', '2020-01-01T00:00:00.000Z', 'parked', null);
    })();
    let turns = 0;
    const counting = setInterval(() => (turns += 1), 0);
    const report = await createDataRetention({ db, clock: { now: () => new Date('2026-11-25T00:00:00.000Z') } }).purge();
    clearInterval(counting);
    expect(report).toMatchObject({ outbox: 1_201, largestBatch: PURGE_BATCH });
    expect(turns).toBeGreaterThan(0);
    expect(db.prepare('SELECT state FROM outbox ORDER BY seq').pluck().all()).toEqual(['pending', 'parked']);
  });
});
