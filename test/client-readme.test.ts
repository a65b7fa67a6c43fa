import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/version.js';
import { api } from './support/api.js';
import { runProcess } from './support/processes.js';
import { startTestServer, type TestServer } from './support/server.js';

const EXAMPLE = join(PROJECT_ROOT, 'client', 'examples', 'integration.mjs');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.destroy();
});

describe("the client README's ten-line integration", () => {
  it('is the example file, verbatim', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'client', 'README.md'), 'utf8');
    const snippets = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(snippets).toContain(readFileSync(EXAMPLE, 'utf8'));
  });

  it('reads the changes, looks up the scanned code and records the sale on a real server', async () => {
    const org = server.createOrg();
    const write = api(server.url, org.writeKey);
    const store = (await write.post('/stores', { name: 'Dorfladen' })).body.id as string;
    await write.post('/products', { name: 'Bergkäse', price: 2490, taxCategory: '2.6', barcode: '7610000000017' });
    await write.post('/products', { name: 'Brot', price: 450, taxCategory: '2.6' });

    const run = await runProcess(process.execPath, [EXAMPLE], {
      env: { BASE_URL: server.url, KEY: org.writeKey, SINCE: new Date(Date.now() - 86_400_000).toISOString(), SCANNED: '7610000000017', STORE: store },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.slice(0, 2).sort()).toEqual(['changed Bergkäse 2490', 'changed Brot 450']);
    const orderId = /^sold Bergkäse order (\S+)$/.exec(lines[2] ?? '')?.[1];
    expect(lines).toHaveLength(3);

    const order = (await write.get(`/orders/${orderId}`)).body.data;
    expect(order).toMatchObject({ store, price: 2490, products: [{ title: 'Bergkäse', quantity: 1, price: 2490 }] });
  });
});
