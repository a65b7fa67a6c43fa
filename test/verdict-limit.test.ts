import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { standardError } from './support/shapes.js';
import { startTestServer, type TestServer } from './support/server.js';

/** The identity verdicts' limit per key is kept in the database: a restart does not open a new window for a prober. */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.destroy();
});

describe('the identity verdicts a key may ask for', () => {
  it('stay counted across a restart of the server', async () => {
    const org = server.createOrg(['identity-logs']);
    server.createStores(org.id, ['door']);
    const kioskKey = (await api(server.url, org.writeKey).post('/keys', { kind: 'kiosk', store: 'door' })).body.key as string;
    const before = api(server.url, kioskKey);
    for (let i = 0; i < 30; i++) expect((await before.post('/identity-logs/verdict', { lastName: `Name${i}`, firstNames: 'Probe', birthDate: '1980-01-01' })).status).toBe(200);

    server = await server.restart();
    const after = api(server.url, kioskKey);
    const refused = await after.post('/identity-logs/verdict', { lastName: 'Müller', firstNames: 'Hans', birthDate: '1985-03-15' });
    expect(refused.body).toEqual(standardError(429, /^This key asked for 30 identity verdicts within 60 s, the most allowed: try again in \d+ s$/));
    const other = api(server.url, (await api(server.url, org.writeKey).post('/keys', { kind: 'kiosk', store: 'door' })).body.key);
    expect((await other.post('/identity-logs/verdict', { lastName: 'Gerber', firstNames: 'Eva', birthDate: '1991-07-01' })).status).toBe(200);
  });
});
