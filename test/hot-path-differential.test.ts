import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';

/**
 * One HTTP behaviour: the hot reads and writes (main/http/hot-reads.ts,
 * hot-writes.ts) answer in front of Express only what they copy exactly.
 * The same matrix of requests goes to the server (hot path first) and to
 * its Express app alone, listening over the same database, with the same
 * `Host`; status, headers and bytes must be the same. Only what differs by
 * the moment of the answer (an error's `timestamp`, a feed page's
 * `completeUntil`) is left out, and then the length with it.
 */

let server: TestServer;
let expressAlone: Server;
let hotBase: { port: number; host: string };
let expressPort: number;
const keys: Record<string, string | undefined> = {};
const ids: Record<string, string> = {};
const PREFIX = '/api/v1';
const BARCODE = '7610000000024';

beforeAll(async () => {
  server = await startTestServer();
  const url = new URL(server.url);
  hotBase = { port: Number(url.port), host: url.host };
  expressAlone = createServer(server.running.app);
  await new Promise<void>((resolve) => expressAlone.listen(0, '127.0.0.1', resolve));
  expressPort = (expressAlone.address() as AddressInfo).port;

  const org = server.createOrg(['barcode-aliases']);
  server.createStores(org.id, ['door', 'mall']);
  const write = api(server.url, org.writeKey);
  keys.write = org.writeKey;
  keys.read = org.readKey;
  keys.kiosk = (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body.key;
  keys.scale = (await write.post('/keys', { kind: 'scale' })).body.key;
  keys.none = undefined;
  keys.unknown = 'rk_0000000000000000000000000000000000000000000';
  const supplier = (await write.post('/suppliers', { name: 'Käserei', iban: 'CH93 0076 2011 6238 5295 7' })).body.id;
  const hidden = (await write.post('/categories', { name: 'Käse', hideStore: ['door'] })).body.id;
  ids.product = (await write.post('/products', { name: 'Gruyère AOP', price: 590, costPrice: 380, taxCategory: '2.6', barcode: BARCODE, supplier, category: hidden, barcodeAliases: [{ code: 'ALIAS-1', quantity: 6, price: 3400 }] })).body.id;
  ids.long = (await write.post('/products', { name: 'Bergkäse', price: 720, taxCategory: '2.6', description: 'Aus der Region. '.repeat(120) })).body.id;
  ids.deleted = (await write.post('/products', { name: 'Tilsiter', price: 480, taxCategory: '2.6' })).body.id;
  await write.delete(`/products/${ids.deleted}`);
  const other = server.createOrg();
  ids.otherOrg = (await api(server.url, other.writeKey).post('/products', { name: 'Fremd', price: 100, taxCategory: '2.6' })).body.id;
});
afterAll(async () => {
  await new Promise((resolve) => expressAlone.close(resolve));
  await server.destroy();
});

interface Answer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** One request as written, request-target included, to `port`, with the hot server's `Host`. */
function send(port: number, method: string, target: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: target, headers: { host: hotBase.host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode!, headers: pairs.filter(([name]) => name !== 'date'), body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const MOMENTS = /"(timestamp|completeUntil)":"[^"]*"/g;

/** An answer as compared: its bytes, or, when it carries the moment it was given, its text without that moment (and without its length). */
function comparable(answer: Answer) {
  const encoding = answer.headers.find(([name]) => name === 'content-encoding')?.[1];
  const text = (encoding === 'br' ? brotliDecompressSync(answer.body) : encoding === 'gzip' ? gunzipSync(answer.body) : answer.body).toString('utf8');
  const masked = text.replace(MOMENTS, '"$1":"-"');
  if (masked === text) return { status: answer.status, headers: answer.headers, bytes: answer.body.toString('base64') };
  return { status: answer.status, headers: answer.headers.filter(([name]) => name !== 'content-length'), text: masked };
}

async function bothWays(method: string, target: string, headers: Record<string, string>, body?: string) {
  const hot = await send(hotBase.port, method, target, headers, body);
  const alone = await send(expressPort, method, target, headers, body);
  return { hot: comparable(hot), alone: comparable(alone) };
}

const keyHeader = (kind: string): Record<string, string> => (keys[kind] === undefined ? {} : { authorization: `Bearer ${keys[kind]}` });

function readTargets(): string[] {
  const p = PREFIX;
  return [
    `${p}/products/${ids.product}`,
    `${p}/products/${ids.long}`,
    `${p}/products/${ids.deleted}`,
    `${p}/products/${ids.otherOrg}`,
    `${p}/products/unknown0000000000000`,
    `${p}/products/${ids.product}#top`,
    `${p}/products/${ids.product}?`,
    `${p}/products/${ids.product}/`,
    `${p}/Products/${ids.product}`,
    `${p}//products/${ids.product}`,
    `${p}/products/%2e%2e`,
    `${p}/products?barcode=${BARCODE}`,
    `${p}/products?barcode=${BARCODE}#scan`,
    `${p}/products?barcode=7610000%30000024`,
    `${p}/products?barcode=alias-1`,
    `${p}/products?barcode=${BARCODE}&barcode=0`,
    `${p}/products?q=Gruy`,
    `${p}/products?store=door`,
    `${p}/products?store=mall&limit=1`,
    `${p}/products?limit=abc`,
    `${p}/products?cursor=bogus`,
    `${p}/products?updatedSince=2020-01-01T00:00:00.000Z`,
    `${p}/products?updatedSince=2020-01-01T00:00:00.000Z&store=door`,
    `${p}/products?includeDeleted=true`,
    `${p}/categories`,
    `${p}/suppliers`,
    `${p}/stores`,
    `${p}/stores?limit=1`,
    `${p}/health`,
    `${p}/health#x`,
    `http://${hotBase.host}${p}/products/${ids.product}`,
    `http://${hotBase.host}${p}/products?barcode=${BARCODE}`,
  ];
}

const VARIANTS: [string, Record<string, string>][] = [
  ['GET', {}],
  ['GET', { 'accept-encoding': 'gzip' }],
  ['GET', { 'accept-encoding': 'br' }],
  ['GET', { 'accept-encoding': 'gzip, deflate, br;q=0.5' }],
  ['GET', { 'accept-encoding': 'identity' }],
  ['GET', { 'if-none-match': '*' }],
  ['GET', { 'if-none-match': '"abc"' }],
  ['GET', { 'if-modified-since': 'Wed, 01 Jan 2025 00:00:00 GMT' }],
  ['HEAD', {}],
];

describe('the hot path and Express alone over one database', () => {
  it('answer every key kind the same status, headers and bytes for every read', async () => {
    const differ: string[] = [];
    for (const kind of Object.keys(keys)) {
      for (const target of readTargets()) {
        const { hot, alone } = await bothWays('GET', target, keyHeader(kind));
        if (JSON.stringify(hot) !== JSON.stringify(alone)) differ.push(`${kind} GET ${target}: ${JSON.stringify(hot).slice(0, 300)} | ${JSON.stringify(alone).slice(0, 300)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('answer encodings, conditional headers and HEAD the same way', async () => {
    const differ: string[] = [];
    for (const target of readTargets()) {
      for (const [method, headers] of VARIANTS) {
        const { hot, alone } = await bothWays(method, target, { ...keyHeader('write'), ...headers });
        if (JSON.stringify(hot) !== JSON.stringify(alone)) differ.push(`${method} ${target} ${JSON.stringify(headers)}: ${JSON.stringify(hot).slice(0, 300)} | ${JSON.stringify(alone).slice(0, 300)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('answer the hot writes the same way, for every body and spelling', async () => {
    const p = PREFIX;
    const now = new Date().toISOString();
    const sale = (orderId: string, store = 'door') => JSON.stringify({ store, orderId, products: [{ productId: ids.long, quantity: 2 }] });
    const heartbeat = JSON.stringify({ device: 'pc-diff-0001', name: 'kasse', version: '0.1.0', stores: ['door'], lastPushAt: now, lastPullAt: now, pending: 0, parked: 0, oldestPendingAt: null, lastSaleAt: now, printers: [], diskFreeBytes: 5e10, databaseBytes: 7e7 });
    const json = { 'content-type': 'application/json' };
    const cases: [string, string, Record<string, string>, string][] = [
      ['write', `${p}/orders`, json, sale('D-1')],
      ['write', `${p}/orders`, { ...json, 'accept-encoding': 'gzip' }, sale('D-1')],
      ['kiosk', `${p}/orders`, json, sale('D-2')],
      ['kiosk', `${p}/orders`, json, sale('D-3', 'mall')],
      ['read', `${p}/orders`, json, sale('D-4')],
      ['none', `${p}/orders`, json, sale('D-5')],
      ['unknown', `${p}/orders`, json, sale('D-6')],
      ['write', `${p}/orders`, json, JSON.stringify({ store: 'door', products: [] })],
      ['write', `${p}/orders`, json, JSON.stringify({ store: 'nowhere', products: [{ productId: ids.long, quantity: 1 }] })],
      ['write', `${p}/orders`, json, JSON.stringify({ store: 'door', products: [{ productId: ids.deleted, quantity: 1 }] })],
      ['write', `${p}/orders`, json, JSON.stringify({ store: 'door', surprise: 1, products: [{ productId: ids.long, quantity: 1 }] })],
      ['write', `${p}/orders`, json, '{"store": "door", "products": ['],
      ['write', `${p}/orders`, json, ''],
      ['write', `${p}/orders`, { 'content-type': 'text/plain' }, sale('D-7')],
      ['write', `${p}/orders#frag`, json, sale('D-9')],
      ['write', `${p}/orders?x=1`, json, sale('D-10')],
      ['write', `${p}/Orders`, json, sale('D-11')],
      ['write', `http://${hotBase.host}${p}/orders`, json, sale('D-12')],
      ['write', `${p}/fleet/heartbeat`, json, heartbeat],
      ['write', `${p}/fleet/heartbeat`, json, '{}'],
      ['kiosk', `${p}/fleet/heartbeat`, json, heartbeat],
    ];
    const differ: string[] = [];
    for (const [kind, target, headers, body] of cases) {
      const { hot, alone } = await bothWays('POST', target, { ...keyHeader(kind), ...headers }, body);
      if (JSON.stringify(hot) !== JSON.stringify(alone)) differ.push(`${kind} POST ${target} ${body.slice(0, 60)}: ${JSON.stringify(hot).slice(0, 300)} | ${JSON.stringify(alone).slice(0, 300)}`);
    }
    expect(differ).toEqual([]);
  });
});
