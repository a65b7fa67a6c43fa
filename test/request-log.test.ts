import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/version.js';
import { capturedLog } from './support/log-lines.js';
import { api } from './support/api.js';
import { compiled } from './support/compiled-product.js';
import { freePort } from './support/processes.js';
import { makeDataDir, startTestServer, type TestOrg, type TestServer } from './support/server.js';

const { logger, lines } = capturedLog();

let server: TestServer;
let org: TestOrg;
beforeAll(async () => {
  server = await startTestServer({ logger });
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

  it('reaches standard output in full when the server is stopped, though lines are written in batches', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const child = spawn(process.execPath, [compiled('main/start.js')], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const health = `http://127.0.0.1:${port}/api/v1/health`;
      while (!(await fetch(health).then((r) => r.ok, () => false))) {
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      for (let i = 0; i < 5; i++) expect((await fetch(`http://127.0.0.1:${port}/api/v1/products/p${i}`)).status).toBe(403);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const requests = stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
      expect(requests.filter((r) => r.status === 403).map((r) => r.path)).toEqual(['/api/v1/products/p0', '/api/v1/products/p1', '/api/v1/products/p2', '/api/v1/products/p3', '/api/v1/products/p4']);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
