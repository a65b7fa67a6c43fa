import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, type Allowed } from '../main/http/permissions.js';
import { api } from './support/api.js';
import { standardError } from './support/shapes.js';
import { startTestServer, type TestServer } from './support/server.js';

/**
 * Walks every operation of `/openapi.json` with every kind of key and checks
 * that the answer is a refusal exactly where the permission table says so. A
 * request that is allowed may still be a 400 or 404 (the walk sends no real
 * ids or bodies); it is never a 403.
 */
let server: TestServer;
let operations: string[];
const keys: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  const org = server.createOrg(['identity-logs', 'barcode-aliases']);
  server.createStores(org.id, ['door']);
  const write = api(server.url, org.writeKey);
  keys.read = org.readKey;
  keys.write = org.writeKey;
  keys.kiosk = (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body.key;
  keys.scale = (await write.post('/keys', { kind: 'scale' })).body.key;
  keys.otherOrg = server.createOrg(['identity-logs', 'barcode-aliases']).writeKey;
  const doc = (await api(server.url).get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
});
afterAll(async () => {
  await server.destroy();
});

/** The kind whose rights a column has: another organization's write key is still a write key. */
const KIND_OF: Record<string, string> = { read: 'read', write: 'write', kiosk: 'kiosk', scale: 'scale', otherOrg: 'write' };
const allows = (allowed: Allowed, kind: string) => allowed === 'public' || (allowed as readonly string[]).includes(kind);

describe('the permission table', () => {
  it('names every operation of the OpenAPI document, and nothing else', () => {
    const named = Object.keys(PERMISSIONS);
    expect(operations.filter((op) => !named.includes(op)), 'operations missing from the table').toEqual([]);
    expect(named.filter((op) => !operations.includes(op)), 'table rows without an operation').toEqual([]);
  });

  // Keys, and the mail queue and alerts, which name people's addresses and the mail server's words.
  const WRITE_KEY_READS = ['GET /keys', 'GET /mail', 'GET /alerts'];
  // A read key signs the staff page in and out as itself; the sign-in then reads only.
  const READ_KEY_WRITES = ['POST /staff/sign-in', 'DELETE /staff/sign-in'];
  it('lets a write key do everything and a read key read everything', () => {
    for (const [operation, allowed] of Object.entries(PERMISSIONS)) {
      expect(allows(allowed, 'write'), operation).toBe(true);
      expect(allows(allowed, 'read'), operation).toBe((operation.startsWith('GET ') && !WRITE_KEY_READS.includes(operation)) || READ_KEY_WRITES.includes(operation));
    }
  });
});

describe('every operation with every kind of key', () => {
  it.each(['read', 'write', 'kiosk', 'scale', 'otherOrg'])('%s key: refused exactly where the table says', async (column) => {
    const kind = KIND_OF[column]!;
    const client = api(server.url, keys[column]);
    const mismatches: string[] = [];
    for (const operation of operations) {
      const [method, template] = operation.split(' ') as [string, string];
      const path = template.replace(/\{[^}]+\}/g, 'walk-id');
      const res = method === 'POST' ? await client.post(path, {}) : await client.request(method, path);
      const allowed = allows(PERMISSIONS[operation]!, kind);
      if (allowed && res.status === 403) mismatches.push(`${operation}: allowed, answered 403 ${JSON.stringify(res.body)}`);
      if (!allowed) {
        const expected =
          kind === 'read'
            ? standardError(403, 'Forbidden')
            : standardError(403, `A ${kind} key may not call ${operation}; it needs a key of kind ${(PERMISSIONS[operation] as string[]).join(' or ')}`);
        try {
          expect(res.body).toEqual(expected);
        } catch {
          mismatches.push(`${operation}: refused in the table, answered ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it.each(['kiosk', 'scale'])('%s key: a route the table does not name is refused', async (column) => {
    const res = await api(server.url, keys[column]).post('/no-such-thing', {});
    expect(res.body).toEqual(standardError(403, `A ${column} key may not call POST /no-such-thing: device keys reach only the operations named for them`));
    expect((await api(server.url, keys.write).post('/no-such-thing', {})).status).toBe(404);
  });

  it('matches paths the way the router does: any case, a trailing slash', async () => {
    const kiosk = api(server.url, keys.kiosk);
    expect((await kiosk.post('/PRODUCTS/walk-id/', {})).status).toBe(403);
    expect((await kiosk.post('/Stores', { name: 'x' })).status).toBe(403);
    expect((await kiosk.get('/Products/')).status).toBe(200);
  });
});
