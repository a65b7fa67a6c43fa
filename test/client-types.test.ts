import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../scripts/generate-client-types.js';
import { startTestServer, type TestServer } from './support/server.js';

const STALE = 'client/src/api-types.ts differs from the server: run `npm run client:types` and commit it';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.destroy();
});

describe('the typed client', () => {
  it('has the types of the OpenAPI document a running server serves', async () => {
    const served = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(await generateClientTypes(served), STALE).toBe(readFileSync(CLIENT_TYPES_FILE, 'utf8'));
  });

  it('has the types `npm run client:types` writes without a server', async () => {
    expect(await generateClientTypes(), STALE).toBe(readFileSync(CLIENT_TYPES_FILE, 'utf8'));
  });
});
