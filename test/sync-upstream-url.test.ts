import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upstreamUrlProblem } from '../main/sync/upstream-url.js';
import { runCli } from './support/cli.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let orgId: string;
beforeAll(async () => {
  server = await startTestServer();
  orgId = server.createOrg().id;
});
afterAll(async () => {
  await server.destroy();
});

const configure = (url: string, env: Record<string, string> = {}) => runCli(server.dataDir, ['sync', 'configure', orgId, '--url', url, '--key', 'wk_upstream', '--json'], env);

describe('sync configure --url', () => {
  it('refuses a plain http:// upstream on the network, saying why and what to do', async () => {
    const res = await configure('http://192.168.1.10:8787/api/v1');
    expect(res.status).toBe(1);
    expect(res.json.error).toBe(
      '--url: must start with https://: plain http:// would send the upstream write key readable by anyone on the network (plain http only to this computer, or to hosts listed in SYNC_ALLOW_HTTP_HOSTS)',
    );
    expect(server.sqlite().prepare('SELECT COUNT(*) FROM sync_config').pluck().get()).toBe(0);
  });

  it('takes https://, http:// to this computer, and http:// to a host SYNC_ALLOW_HTTP_HOSTS lists', async () => {
    expect(await configure('https://shop.example/api/v1')).toMatchObject({ status: 0, json: { configured: true, upstream: 'https://shop.example/api/v1' } });
    expect(await configure('http://127.0.0.1:8787/api/v1')).toMatchObject({ status: 0, json: { configured: true } });
    expect(await configure('http://192.168.1.10:8787/api/v1', { SYNC_ALLOW_HTTP_HOSTS: 'lab.local, 192.168.1.10' })).toMatchObject({
      status: 0,
      json: { configured: true, upstream: 'http://192.168.1.10:8787/api/v1' },
    });
  });
});

describe('upstream URL rule', () => {
  it.each([
    ['https://shop.example/api/v1', [], true],
    ['http://localhost:8787/api/v1', [], true],
    ['http://127.0.0.5/api/v1', [], true],
    ['http://[::1]:8787/api/v1', [], true],
    ['http://shop.example/api/v1', [], false],
    ['http://10.0.0.2/api/v1', [], false],
    ['http://10.0.0.2/api/v1', ['10.0.0.2'], true],
    ['http://[fd00::2]/api/v1', ['fd00::2'], true],
    ['ftp://shop.example/', [], false],
  ])('%s (allowed: %j): %s', (url, hosts, ok) => {
    expect(upstreamUrlProblem(new URL(url), hosts) === undefined).toBe(ok);
  });
});
