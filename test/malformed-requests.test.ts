import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';
import { ISO } from './support/shapes.js';

interface Endpoint {
  method: string;
  /** Path template relative to the API base, e.g. `/products/{productId}`. */
  path: string;
  queryNames: string[];
  bodyNames: string[];
}

type Schema = { $ref?: string; properties?: Record<string, unknown> };
type Operation = {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

/** Every operation of the server's own OpenAPI document, so endpoints added later are covered too. */
function endpointsOf(doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } }): Endpoint[] {
  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref ? doc.components.schemas[schema.$ref.split('/').at(-1) ?? ''] : schema;
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      queryNames: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      bodyNames: Object.keys(resolve(op.requestBody?.content?.['application/json']?.schema)?.properties ?? {}),
    })),
  );
}

let server: TestServer;
let key: string;
let endpoints: Endpoint[];
const existing: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const org = server.createOrg(['identity-logs', 'barcode-aliases']);
  key = org.writeKey;
  const write = api(server.url, key);
  existing.push((await write.post('/products', { name: 'Milch', price: 195, taxCategory: '2.6' })).body.id);
  existing.push((await write.post('/stores', { name: 'Filiale' })).body.id);
  existing.push((await write.post('/identity-logs/blocked', { comment: '', first_name: 'A', last_name: 'B' })).body.id);
  endpoints = endpointsOf((await api(server.url).get('/openapi.json')).body);
  while ((await api(server.url).get('/health')).body.search !== 'ready') await new Promise((r) => setTimeout(r, 20));
});
afterAll(async () => {
  await server.destroy();
});

/** Names every plain object inherits: a body or query that uses one must still name a field, not reach the prototype. */
const INHERITED_NAMES = ['__proto__', 'constructor', 'valueOf', 'toString', 'hasOwnProperty', 'isPrototypeOf'];

const oddText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', '..', '%', '%00', '\u0000', '-1', '0', '1e309', 'NaN', '9'.repeat(30), 'x'.repeat(2000), 'null', '[]', '{}'),
);
const pathParam = fc.oneof(oddText.filter((s) => s !== ''), fc.constant('doesnotexist00000000'), fc.nat(2).map((i) => `@${i}`));
const jsonValue = fc.jsonValue({ maxDepth: 3 });

const request = fc.record({
  endpoint: fc.nat(),
  param: pathParam,
  query: fc.array(fc.tuple(fc.oneof(fc.constantFrom('limit', 'cursor', 'q', 'offset', 'start', 'end', 'store', 'barcode', '@'), oddText), oddText), {
    maxLength: 4,
  }),
  body: fc.oneof(
    fc.constant(undefined),
    oddText.map((text) => ({ type: 'application/json', text })),
    jsonValue.map((v) => ({ type: 'application/json', text: JSON.stringify(v) })),
    fc.dictionary(fc.constantFrom('@', 'name', 'price', 'id', 'deleted', 'products', 'access', 'store', ...INHERITED_NAMES), jsonValue, { maxKeys: 6 }).map((v) => ({ type: '@', value: v })),
    fc.tuple(fc.constantFrom('text/plain', 'multipart/form-data; boundary=xyz', 'application/x-www-form-urlencoded', 'image/png'), oddText).map(([type, text]) => ({ type, text })),
  ),
});

/** The spec's error shapes: the validation one, or the standard one (a refused catalog file carries its report beside it). */
function expectSpecError(endpoint: Endpoint, status: number, text: string, what: string) {
  const parsed = JSON.parse(text);
  const validation = status === 400 && typeof parsed.error === 'object' && parsed.error !== null;
  if (validation) {
    expect(parsed, what).toEqual({ error: { formErrors: expect.any(Array), fieldErrors: expect.any(Object) } });
    return;
  }
  const report = endpoint.path === '/catalog/import' && status === 400 ? { data: expect.any(Object) } : {};
  expect({ ...report, ...parsed }, what).toEqual({ statusCode: status, message: expect.any(String), timestamp: expect.stringMatching(ISO), path: expect.any(String), ...report });
  expect(parsed.message.length, what).toBeGreaterThan(0);
}

describe('generated malformed requests to every endpoint', () => {
  it('derives the endpoints from the OpenAPI document', () => {
    expect(endpoints.length).toBeGreaterThanOrEqual(33);
  });

  it('never answer 5xx, and every error comes in one of the spec shapes', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const endpoint = endpoints[r.endpoint % endpoints.length] as Endpoint;
        const param = r.param.startsWith('@') ? (existing[Number(r.param.slice(1))] as string) : r.param;
        const path = endpoint.path.replace(/\{[^}]+\}/g, encodeURIComponent(param));
        const query = new URLSearchParams(r.query.map(([name, value]): [string, string] => [name === '@' ? (endpoint.queryNames[0] ?? 'limit') : name, value]));
        let body: string | undefined;
        const headers: Record<string, string> = { authorization: `Bearer ${key}` };
        if (r.body !== undefined && endpoint.method !== 'GET') {
          if ('value' in r.body) {
            // Declared fields with values of any type.
            const named = Object.entries(r.body.value).map(([k, v], i) => [k === '@' ? (endpoint.bodyNames[i % Math.max(1, endpoint.bodyNames.length)] ?? k) : k, v]);
            body = JSON.stringify(Object.fromEntries(named));
            headers['content-type'] = 'application/json';
          } else {
            body = r.body.text;
            headers['content-type'] = r.body.type;
          }
        }
        const url = `${server.url}${path}${query.size > 0 ? `?${query}` : ''}`;
        const res = await fetch(url, { method: endpoint.method, headers, ...(body === undefined ? {} : { body }) });
        const text = await res.text();
        const what = `${endpoint.method} ${url} ${body ?? ''} -> ${res.status} ${text.slice(0, 300)}`;
        expect(res.status, what).toBeLessThan(500);
        if (res.status >= 400) expectSpecError(endpoint, res.status, text, what);
      }),
      { numRuns: 400 },
    );
    expect((await api(server.url).get('/health')).status).toBe(200);
  });

  it('answer a body or query named like what every object inherits as any unknown name, never 5xx', async () => {
    for (const endpoint of endpoints) {
      const path = endpoint.path.replace(/\{[^}]+\}/g, existing[0] as string);
      for (const name of INHERITED_NAMES) {
        const body = endpoint.method === 'GET' ? undefined : `{${JSON.stringify(name)}:false}`;
        const url = `${server.url}${path}?${new URLSearchParams([[name, '1']])}`;
        const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
        const res = await fetch(url, { method: endpoint.method, headers, ...(body === undefined ? {} : { body }) });
        const text = await res.text();
        const what = `${endpoint.method} ${url} ${body ?? ''} -> ${res.status} ${text.slice(0, 300)}`;
        expect(res.status, what).toBeLessThan(500);
        if (res.status >= 400) expectSpecError(endpoint, res.status, text, what);
      }
    }
    expect((await api(server.url).get('/health')).status).toBe(200);
  });
});
