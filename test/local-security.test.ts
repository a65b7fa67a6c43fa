import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../main/config.js';
import { startServer, type RunningServer } from '../main/server.js';
import { makeDataDir } from './support/server.js';
import { ISO } from './support/shapes.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A request with the exact Host and Origin headers a browser or a rebinding page would send. */
function send(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const json = (res.headers['content-type'] ?? '').includes('json') && text !== '';
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: json ? JSON.parse(text) : text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

let dataDir: string;
let running: RunningServer;
let port: number;
beforeAll(async () => {
  dataDir = makeDataDir();
  running = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    logLevel: 'silent',
    publicUrl: 'http://kasse-1.local:8787',
    allowedHosts: ['till-2.shop.lan'],
    allowedOrigins: ['https://backoffice.example'],
  });
  port = running.port;
});
afterAll(async () => {
  await running.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const refused = (message: RegExp, path = '/api/v1/health') => ({
  statusCode: 403,
  message: expect.stringMatching(message),
  timestamp: expect.stringMatching(ISO),
  path,
});

describe('Host allow-list', () => {
  it.each([`127.0.0.1:PORT`, 'localhost:PORT', '[::1]:PORT', 'kasse-1.local:8787', 'TILL-2.shop.lan'])('serves Host %s', async (host) => {
    const res = await send(port, '/api/v1/health', { host: host.replace('PORT', String(port)) });
    expect(res.status).toBe(200);
  });

  it.each(['evil.example', 'evil.example:PORT', '127.0.0.1.evil.example', 'localhost.evil.example'])(
    'refuses Host %s with 403 in the standard shape, on the API and on the pages',
    async (host) => {
      const api = await send(port, '/api/v1/health', { host: host.replace('PORT', String(port)) });
      expect(api.status).toBe(403);
      expect(api.body).toEqual(refused(/is not a name of this server; add it to ALLOWED_HOSTS/));
      const page = await send(port, '/', { host: host.replace('PORT', String(port)) });
      expect(page.status).toBe(403);
      expect(page.body).toEqual(refused(/ALLOWED_HOSTS/, '/'));
    },
  );
});

describe('Origin check and CORS', () => {
  it('serves its own origin without CORS headers', async () => {
    const res = await send(port, '/api/v1/health', { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a foreign origin, also one that reaches the server under an allowed name', async () => {
    for (const origin of ['http://evil.example', 'null', `http://localhost:${port + 1}`]) {
      const res = await send(port, '/api/v1/health', { host: `127.0.0.1:${port}`, origin });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(refused(/may not call this server; add it to ALLOWED_ORIGINS/));
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('gives a listed origin CORS headers, preflight included', async () => {
    const res = await send(port, '/api/v1/health', { host: `127.0.0.1:${port}`, origin: 'https://backoffice.example' });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://backoffice.example');
    const preflight = await send(
      port,
      '/api/v1/products',
      {
        host: `127.0.0.1:${port}`,
        origin: 'https://backoffice.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
      'OPTIONS',
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://backoffice.example');
    expect(String(preflight.headers['access-control-allow-headers'])).toMatch(/Authorization/);
    expect(String(preflight.headers['access-control-allow-methods'])).toMatch(/POST/);
  });
});

describe('ALLOWED_HOSTS and ALLOWED_ORIGINS', () => {
  it('are read as comma-separated lists', () => {
    const config = readConfig({ ALLOWED_HOSTS: 'Kasse-1.local, 192.168.1.20,[fe80::1]', ALLOWED_ORIGINS: 'https://backoffice.example, http://10.0.0.5:3000/' });
    expect(config.allowedHosts).toEqual(['kasse-1.local', '192.168.1.20', 'fe80::1']);
    expect(config.allowedOrigins).toEqual(['https://backoffice.example', 'http://10.0.0.5:3000']);
    expect(readConfig({}).allowedHosts).toEqual([]);
  });

  it('refuse values that are not names or origins, saying what is expected', () => {
    expect(() => readConfig({ ALLOWED_HOSTS: 'http://kasse-1.local' })).toThrow(
      'ALLOWED_HOSTS holds names without port or scheme, comma-separated; "http://kasse-1.local" is not one',
    );
    for (const origin of ['backoffice.example', 'https://backoffice.example/app', 'ftp://x.example']) {
      expect(() => readConfig({ ALLOWED_ORIGINS: origin })).toThrow(/^ALLOWED_ORIGINS holds origins such as https:\/\/backoffice.example/);
    }
  });
});

describe('security headers', () => {
  it('let other origins show product images, and nothing else', async () => {
    const image = await send(port, '/api/v1/images/AAAAAAAAAAAAAAAAAAAA.png', { host: `127.0.0.1:${port}` });
    expect(image.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const health = await send(port, '/api/v1/health', { host: `127.0.0.1:${port}` });
    expect(health.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('sends nosniff, the page policy, no referrer and no framing on every answer', async () => {
    for (const path of ['/', '/api/v1/health', '/api/v1/products', '/api/v1/no-such-thing']) {
      const res = await send(port, path, { host: `127.0.0.1:${port}` });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data: blob: http: https:;" +
          "media-src 'self' data: blob:;font-src 'self';connect-src 'self';object-src 'none';base-uri 'none';" +
          "form-action 'self';frame-ancestors 'none'",
      );
    }
  });

  it('sends the same full set on pages, answers, refusals and images, and nothing that advertises the server', async () => {
    const expected = {
      'content-security-policy':
        "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data: blob: http: https:;" +
        "media-src 'self' data: blob:;font-src 'self';connect-src 'self';object-src 'none';base-uri 'none';" +
        "form-action 'self';frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    const own = { host: `127.0.0.1:${port}` };
    const answers = [
      ['/', own, 'same-origin'],
      ['/api/v1/products', own, 'same-origin'],
      ['/api/v1/health', { ...own, origin: 'https://backoffice.example' }, 'same-origin'],
      ['/api/v1/health', { host: 'evil.example' }, 'same-origin'],
      ['/api/v1/IMAGES/AAAAAAAAAAAAAAAAAAAA.png', own, 'cross-origin'],
      ['/api/v1/images', own, 'cross-origin'],
      ['/api/v1/imagesx', own, 'same-origin'],
    ] as const;
    for (const [path, headers, resourcePolicy] of answers) {
      const res = await send(port, path, headers);
      expect(res.headers, path).toMatchObject({ ...expected, 'cross-origin-resource-policy': resourcePolicy });
      expect(res.headers['x-powered-by'], path).toBeUndefined();
    }
  });
});
