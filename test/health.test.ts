import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.destroy();
});

describe('GET /health', () => {
  it('answers without a key', async () => {
    const res = await api(server.url).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: expect.any(String), search: 'ready' });
  });
});
