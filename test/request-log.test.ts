import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
    done();
  },
});

let server: TestServer;
let org: TestOrg;
beforeAll(async () => {
  server = await startTestServer({ logger: pino({ level: 'info' }, sink) });
  org = server.createOrg();
});
afterAll(async () => {
  await server.destroy();
});

describe('request log', () => {
  it('writes one JSON line per request with method, path, status and time, and never a key or a body', async () => {
    const client = api(server.url, org.writeKey);
    await client.post('/products', { name: 'Geheimrezept', price: 1, taxCategory: '0' });
    await api(server.url, org.readKey).get('/products?limit=5');
    await api(server.url, 'wk_wrong-key').get('/products');
    await new Promise((resolve) => setTimeout(resolve, 50));

    const requests = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
    expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', '/api/v1/products', 200],
      ['GET', '/api/v1/products', 200],
      ['GET', '/api/v1/products', 403],
    ]);
    for (const entry of requests) expect(entry.ms).toEqual(expect.any(Number));
    expect(lines.some((line) => /refused/.test(line) && /unknown or revoked key/.test(line))).toBe(true);

    const log = lines.join('\n');
    for (const secret of [org.writeKey, org.readKey, 'wk_wrong-key', 'Geheimrezept', 'authorization', 'Bearer']) {
      expect(log).not.toContain(secret);
    }
  });
});
