import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type ApiResponse } from './support/api.js';
import { pinnedRequest } from './support/pinned-https.js';
import { standardError } from './support/shapes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

/**
 * The staff page's sign-in from outside: the key is sent once, and the cookie
 * the answer sets then acts as that key, for 12 hours on the server's clock,
 * until sign-out or until the key is revoked.
 */
const LISTED_ORIGIN = 'https://backoffice.example';
const DAY_START = Date.parse('2026-11-27T07:00:00.000Z');
let now = DAY_START;
let server: TestServer;
let org: TestOrg;
let ownOrigin: string;

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => new Date(now) }, allowedOrigins: [LISTED_ORIGIN] });
  org = server.createOrg();
  ownOrigin = new URL(server.url).origin;
});
afterAll(async () => {
  await server.destroy();
});

/** The `name=value` of the sign-in cookie an answer sets, and its attributes. */
function cookieOf(res: ApiResponse): { pair: string; attributes: string[] } {
  const set = res.headers.getSetCookie().find((line) => line.startsWith('staff_sign_in='));
  if (!set) throw new Error(`no sign-in cookie in ${JSON.stringify(res.headers.getSetCookie())}`);
  const [pair, ...attributes] = set.split(';').map((part) => part.trim());
  return { pair: pair!, attributes };
}

async function signIn(key: string): Promise<string> {
  const res = await api(server.url, key).post('/staff/sign-in');
  expect(res.status).toBe(201);
  return cookieOf(res).pair;
}

/** A browser on this server's own page: the cookie, and `Origin` on writes as browsers send it. */
function page(cookie: string, origin: string | null = ownOrigin) {
  const headers = (write: boolean): Record<string, string> => ({ cookie, ...(write && origin !== null ? { origin } : {}) });
  return {
    get: (path: string) => api(server.url).request('GET', path, { headers: headers(false) }),
    post: (path: string, body: unknown) =>
      api(server.url).request('POST', path, { body: JSON.stringify(body), headers: { ...headers(true), 'content-type': 'application/json' } }),
    delete: (path: string) => api(server.url).request('DELETE', path, { headers: headers(true) }),
  };
}

const storeNames = async () => ((await api(server.url, org.readKey).get('/stores')).body.data as { name: string }[]).map((s) => s.name);

describe('POST /staff/sign-in', () => {
  it('answers when the sign-in ends and sets an HttpOnly, SameSite=Strict cookie whose secret is stored only as a hash', async () => {
    const res = await api(server.url, org.writeKey).post('/staff/sign-in');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, expiresAt: '2026-11-27T19:00:00.000Z' });
    const { pair, attributes } = cookieOf(res);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/', 'Max-Age=43200']));
    // Plain http://127.0.0.1: a Secure cookie would not come back.
    expect(attributes).not.toContain('Secure');
    const token = pair.slice('staff_sign_in='.length);
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(JSON.stringify(res.body)).not.toContain(token);
    const stored = server.sqlite().prepare('SELECT token_hash FROM staff_sign_ins').pluck().all() as string[];
    expect(stored).toContain(createHash('sha256').update(token).digest('hex'));
    expect(stored).not.toContain(token);
  });

  it('is not opened without a key, nor by a sign-in extending itself', async () => {
    expect((await api(server.url).post('/staff/sign-in')).body).toEqual(standardError(403, 'Forbidden'));
    const cookie = await signIn(org.writeKey);
    const renewed = await page(cookie).post('/staff/sign-in', {});
    expect(renewed.body).toEqual(standardError(403, 'A sign-in does not extend itself: sign in with the key in the Authorization header'));
  });
});

describe('the sign-in cookie', () => {
  it('acts as the write key that opened it: reads, and writes from the own page', async () => {
    const cookie = await signIn(org.writeKey);
    const current = await page(cookie).get('/keys/current');
    expect(current.status).toBe(200);
    expect(current.body.data).toMatchObject({ kind: 'write' });
    expect((await page(cookie).get('/products')).status).toBe(200);
    const created = await page(cookie).post('/stores', { name: 'Hofladen by cookie' });
    expect(created.status).toBe(200);
    expect(await storeNames()).toContain('Hofladen by cookie');
  });

  it('acts as a read key that opened it: reads, and is refused writes as that key is', async () => {
    const cookie = await signIn(org.readKey);
    expect((await page(cookie).get('/keys/current')).body.data).toMatchObject({ kind: 'read' });
    expect((await page(cookie).get('/stores')).status).toBe(200);
    expect((await page(cookie).post('/stores', { name: 'Read key store' })).body).toEqual(standardError(403, 'Forbidden'));
    expect(await storeNames()).not.toContain('Read key store');
  });

  it('does not write for another origin, a listed one or none: only for this server\'s own page', async () => {
    const cookie = await signIn(org.writeKey);
    const foreign = await page(cookie, 'https://evil.example').post('/stores', { name: 'Foreign' });
    expect(foreign.body).toEqual(standardError(403, /^Origin "https:\/\/evil.example" may not call this server/));
    const listed = await page(cookie, LISTED_ORIGIN).post('/stores', { name: 'Listed' });
    expect(listed.body).toEqual(standardError(403, /^A write made with the staff page's sign-in must come from this server's own page \(Origin "https:\/\/backoffice.example"/));
    const none = await page(cookie, null).post('/stores', { name: 'No origin' });
    expect(none.body).toEqual(standardError(403, /^A write made with the staff page's sign-in must come from this server's own page \(Origin ""/));
    expect((await storeNames()).filter((name) => ['Foreign', 'Listed', 'No origin'].includes(name))).toEqual([]);
  });

  it('ends after 12 hours on the server\'s clock: then 401, and a key-less request without it is refused as before', async () => {
    const cookie = await signIn(org.writeKey);
    now += 12 * 60 * 60 * 1000 - 1;
    expect((await page(cookie).get('/keys/current')).status).toBe(200);
    now += 1;
    try {
      const ended = await page(cookie).get('/keys/current');
      expect(ended.status).toBe(401);
      expect(ended.body).toEqual(standardError(401, /^The staff page's sign-in has ended \(it lasts 12 hours/));
      expect((await page(cookie).post('/stores', { name: 'Too late' })).status).toBe(401);
      expect((await api(server.url).get('/keys/current')).body).toEqual(standardError(403, 'Forbidden'));
      expect((await api(server.url).request('GET', '/stores', { headers: { cookie: 'staff_sign_in=made-up' } })).status).toBe(401);
    } finally {
      now = DAY_START;
    }
  });

  it('ends at once when the key that opened it is revoked, and only its own sign-ins', async () => {
    const clerk = await api(server.url, org.writeKey).post('/keys', { kind: 'write', name: 'Counter' });
    const revoked = await signIn(clerk.body.key);
    const kept = await signIn(org.writeKey);
    expect((await page(revoked).get('/stores')).status).toBe(200);
    expect((await api(server.url, org.writeKey).delete(`/keys/${clerk.body.id}`)).status).toBe(200);
    expect((await page(revoked).get('/stores')).status).toBe(401);
    expect((await page(kept).get('/stores')).status).toBe(200);
  });

  it('ends at sign-out: DELETE /staff/sign-in clears the cookie', async () => {
    const cookie = await signIn(org.writeKey);
    const out = await page(cookie).delete('/staff/sign-in');
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    const cleared = cookieOf(out);
    expect(cleared.pair).toBe('staff_sign_in=');
    expect(cleared.attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/']));
    expect((await page(cookie).get('/stores')).status).toBe(401);
  });

  it("counts as a use of its key: the key's lastUsedAt moves with the page's requests", async () => {
    const clerk = await api(server.url, org.writeKey).post('/keys', { kind: 'write', name: 'Till PC' });
    const cookie = await signIn(clerk.body.key);
    now += 5 * 60 * 1000;
    try {
      expect((await page(cookie).get('/stores')).status).toBe(200);
      const keys = (await api(server.url, org.writeKey).get('/keys')).body.data as { id: string; lastUsedAt: string }[];
      expect(keys.find((key) => key.id === clerk.body.id)?.lastUsedAt).toBe(new Date(now).toISOString());
    } finally {
      now = DAY_START;
    }
  });

  it('gives way to a key: a request with Authorization is the key\'s, whatever cookie it carries', async () => {
    const cookie = await signIn(org.writeKey);
    const res = await api(server.url, org.readKey).request('GET', '/keys/current', { headers: { cookie } });
    expect(res.body.data).toMatchObject({ kind: 'read' });
  });
});

/** An IPv4 address of this machine that is not loopback: requests to it arrive as from another computer would. */
function lanAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    const found = list?.find((net) => net.family === 'IPv4' && !net.internal);
    if (found) return found.address;
  }
  throw new Error('this machine has no non-loopback IPv4 address to test with');
}

describe('the sign-in beyond this PC', () => {
  it('over plain HTTP from another computer, a write key\'s sign-in is refused as the key itself is', async () => {
    const lan = await startTestServer({ host: '0.0.0.0' });
    try {
      const shop = lan.createOrg();
      const signedIn = await api(lan.url.replace('0.0.0.0', '127.0.0.1'), shop.writeKey).post('/staff/sign-in');
      const cookie = cookieOf(signedIn).pair;
      const res = await api(lan.url.replace('0.0.0.0', lanAddress())).request('GET', '/stores', { headers: { cookie } });
      expect(res.body).toEqual(standardError(403, /^A write key is not accepted over plain HTTP from another computer/));
    } finally {
      await lan.destroy();
    }
  });

  it('over HTTPS, the cookie is Secure', async () => {
    const tls = await startTestServer({ host: '0.0.0.0', tls: { mode: 'self-signed' } });
    try {
      const shop = tls.createOrg();
      const cert = readFileSync(join(tls.dataDir, 'tls', 'server-cert.pem'), 'utf8');
      const fingerprint = new X509Certificate(cert).fingerprint256;
      const url = `${tls.url.replace('0.0.0.0', lanAddress())}/staff/sign-in`;
      const res = await pinnedRequest(url, { method: 'POST', key: shop.writeKey, cert, fingerprint });
      expect(res.status).toBe(201);
      expect(cookieOf(res).attributes).toEqual(expect.arrayContaining(['Secure', 'HttpOnly', 'SameSite=Strict']));
    } finally {
      await tls.destroy();
    }
  });
});
