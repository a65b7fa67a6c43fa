import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { pinnedRequest } from './support/pinned-https.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

/** An IPv4 address of this machine that is not loopback: requests to it arrive as from another computer would. */
function lanAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    const found = list?.find((net) => net.family === 'IPv4' && !net.internal);
    if (found) return found.address;
  }
  throw new Error('this machine has no non-loopback IPv4 address to test with');
}

const ip = lanAddress();
const viaLan = (server: TestServer) => server.url.replace('0.0.0.0', ip);

describe('a write key over plain HTTP from another computer', () => {
  let server: TestServer;
  let org: TestOrg;
  beforeAll(async () => {
    server = await startTestServer({ host: '0.0.0.0' });
    org = server.createOrg();
  });
  afterAll(async () => {
    await server.destroy();
  });

  it('is refused with 403 saying to use HTTPS, and changes nothing', async () => {
    const res = await api(viaLan(server), org.writeKey).post('/stores', { name: 'Laden' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      statusCode: 403,
      message: 'A write key is not accepted over plain HTTP from another computer, where anyone on the network could read it: call this server over https:// (see docs/security.md, TLS=self-signed or TLS_CERT and TLS_KEY)',
    });
    expect((await api(viaLan(server), org.writeKey).get('/stores')).status).toBe(403);
    expect(server.sqlite().prepare('SELECT COUNT(*) FROM stores').pluck().get()).toBe(0);
  });

  it('still works from this computer, and a read key works from another computer', async () => {
    const local = server.url.replace('0.0.0.0', '127.0.0.1');
    expect((await api(local, org.writeKey).post('/stores', { name: 'Laden' })).status).toBe(200);
    const read = await api(viaLan(server), org.readKey).get('/stores');
    expect(read.status).toBe(200);
    expect(read.body.data.map((s: { name: string }) => s.name)).toEqual(['Laden']);
  });
});

describe('TLS=self-signed', () => {
  let server: TestServer;
  let org: TestOrg;
  let cert: string;
  let fingerprint: string;
  beforeAll(async () => {
    server = await startTestServer({ host: '0.0.0.0', tls: { mode: 'self-signed' } });
    org = server.createOrg();
    cert = readFileSync(join(server.dataDir, 'tls', 'server-cert.pem'), 'utf8');
    fingerprint = new X509Certificate(cert).fingerprint256;
  });
  afterAll(async () => {
    await server.destroy();
  });

  it('serves HTTPS with a certificate made in the data folder, whose fingerprint GET /system shows', async () => {
    expect(server.url).toMatch(/^https:\/\//);
    expect(server.running.tlsFingerprint).toBe(fingerprint);
    const system = await pinnedRequest(`${viaLan(server)}/system`, { key: org.readKey, cert, fingerprint });
    expect(system.status).toBe(200);
    expect(system.body.data.tlsFingerprint).toBe(fingerprint);
    expect(fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('takes a write key from another computer over HTTPS', async () => {
    const res = await pinnedRequest(`${viaLan(server)}/stores`, { method: 'POST', key: org.writeKey, body: { name: 'Laden' }, cert, fingerprint });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true });
  });

  it('is refused by a till that pinned another certificate', async () => {
    await expect(pinnedRequest(`${viaLan(server)}/health`, { cert, fingerprint: fingerprint.replace(/^../, '00') })).rejects.toThrow('is not the pinned one');
  });

  it('keeps its certificate across restarts, so tills that pinned it keep trusting it', async () => {
    server = await server.restart();
    expect(server.running.tlsFingerprint).toBe(fingerprint);
    expect((await pinnedRequest(`${viaLan(server)}/health`, { cert, fingerprint })).status).toBe(200);
  });
});

describe('device keys over plain HTTP from another computer', () => {
  it('keep working: a kiosk key sells and a scale key reads', async () => {
    const server = await startTestServer({ host: '0.0.0.0' });
    try {
      const org = server.createOrg();
      const local = api(server.url.replace('0.0.0.0', '127.0.0.1'), org.writeKey);
      const store = (await local.post('/stores', { name: 'Laden' })).body.id;
      const kiosk = api(viaLan(server), (await local.post('/keys', { kind: 'kiosk', store })).body.key);
      const scale = api(viaLan(server), (await local.post('/keys', { kind: 'scale' })).body.key);
      const product = (await local.post('/products', { name: 'Brot', price: 450, taxCategory: '2.6' })).body.id;
      expect((await kiosk.post('/orders', { store, paymentMethod: 'cash', products: [{ productId: product, quantity: 1 }] })).status).toBe(200);
      expect((await scale.get('/products')).status).toBe(200);
    } finally {
      await server.destroy();
    }
  });
});
