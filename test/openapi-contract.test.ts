import { afterAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { ERROR_CASES, SUCCESS_CASES, seedContractData, type ContractCall, type ContractSeed } from './support/contract-cases.js';
import { startFakePrinter } from './support/fake-printer.js';
import { operationsOf, responseValidator, type OperationEntry } from './support/openapi-document.js';
import { TEST_PRINTER_NETWORK } from './support/printers.js';
import type { TestServerOptions } from './support/server.js';
import { startSyncPair } from './support/sync-pair.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK } from './support/terminal-simulator.js';

// The operations come from the served document, so the cases are listed before any test runs.
// The fake printer listens on loopback: the store server is told to allow it, as `PRINTER_ALLOW_ADDRESSES=loopback` would.
// So does the terminal simulator, as `TERMINAL_ALLOW_ADDRESSES=loopback` would allow it.
const local: TestServerOptions = { printerNetwork: TEST_PRINTER_NETWORK, terminalNetwork: TEST_TERMINAL_NETWORK };
const pair = await startSyncPair({ features: ['identity-logs', 'barcode-aliases'], local });
const printer = await startFakePrinter();
const terminal = await startTerminalSimulator();
const doc = (await api(pair.local.url).get('/openapi.json')).body;
const operations = operationsOf(doc);
const validatorOf = responseValidator(doc);
let seed: ContractSeed | undefined;
afterAll(async () => {
  await printer.close();
  await pair.destroy();
  await terminal.stop();
});

const FOREIGN_ORIGIN = 'http://shop.example.com';
/** Ids that name nothing: the first that fits the parameter's pattern is used. */
const UNKNOWN_IDS = ['zzzzzzzzzzzzzzzzzzzz', '999999999'];

const needsKey = (entry: OperationEntry) => entry.operation.security?.length !== 0;
const documents = (entry: OperationEntry, status: number) => String(status) in entry.operation.responses;

/** Error cases every operation gets from its document, each a variation of its first success case. */
function derivedErrors(entry: OperationEntry, base: ContractCall): ContractCall[] {
  const { operation } = entry;
  const out: ContractCall[] = [{ ...base, headers: { origin: FOREIGN_ORIGIN }, status: 403 }];
  if (needsKey(entry)) out.push({ ...base, key: 'none', status: 403 });
  const parameters = operation.parameters ?? [];
  for (const param of parameters.filter((p) => p.in === 'path')) {
    const pattern = param.schema?.pattern;
    const unknown = UNKNOWN_IDS.find((id) => pattern === undefined || new RegExp(pattern).test(id));
    if (unknown !== undefined && documents(entry, 404)) out.push({ ...base, params: { ...base.params, [param.name]: unknown }, status: 404 });
  }
  const content = operation.requestBody?.content ?? {};
  if ('application/json' in content) out.push({ ...base, body: { notAField: true }, status: 400 });
  if ('multipart/form-data' in content) out.push({ ...base, form: () => wrongPartForm(), status: 400 });
  if ('text/csv' in content) out.push({ ...base, file: { type: 'application/json', text: '{}' }, status: 400 });
  const query = parameters.filter((p) => p.in === 'query');
  // The seed purged a deletion of 100 days ago: a change feed read from before it is gone.
  if (query.some((p) => p.name === 'updatedSince')) out.push({ ...base, query: { ...base.query, updatedSince: '2001-01-01T00:00:00.000Z' }, status: 410 });
  if (query.some((p) => p.name === 'limit')) out.push({ ...base, query: { ...base.query, limit: '0' }, status: 400 });
  else if (query.some((p) => p.required)) out.push({ ...base, query: {}, status: 400 });
  return out;
}

function wrongPartForm(): FormData {
  const form = new FormData();
  form.append('notAField', new Blob(['text'], { type: 'text/plain' }), 'note.txt');
  return form;
}

async function send(entry: OperationEntry, call: ContractCall, keys: { read: string; write: string; kiosk: string }) {
  const keyChoice = call.key ?? (needsKey(entry) ? 'write' : 'none');
  const path = entry.path.replace(/\{(\w+)\}/g, (_all, name: string) => encodeURIComponent(call.params?.[name] ?? `missing-${name}`));
  const query = call.query && Object.keys(call.query).length > 0 ? `?${new URLSearchParams(call.query)}` : '';
  const headers: Record<string, string> = { ...call.headers };
  let body: string | FormData | undefined;
  if (call.form) body = call.form();
  else if (call.file) {
    body = call.file.text;
    headers['content-type'] = call.file.type;
  } else if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${pair.local.url}${path}${query}`, {
    method: entry.method,
    headers: { ...(keyChoice === 'none' ? {} : { authorization: `Bearer ${keys[keyChoice]}` }), ...headers },
    ...(body !== undefined ? { body } : {}),
  });
  return { res, text: await res.text(), label: `${entry.name}${query} (${keyChoice} key${call.headers?.origin ? ', foreign origin' : ''}${call.body !== undefined ? `, body ${JSON.stringify(call.body)}` : ''})` };
}

/** What is wrong with one answer: an unexpected status, an undocumented status, or a body off the schema. */
async function problemsOf(entry: OperationEntry, call: ContractCall): Promise<string[]> {
  const { res, text, label } = await send(entry, call, { read: pair.org.readKey, write: pair.org.writeKey, kiosk: seed?.kioskKey ?? '' });
  const problems: string[] = [];
  if (res.status !== call.status) problems.push(`${label}: answered ${res.status} where the case expects ${call.status}: ${text.slice(0, 300)}`);
  const documented = entry.operation.responses[String(res.status)];
  if (!documented) return [...problems, `${label}: answered ${res.status}, which the document does not list (it lists ${Object.keys(entry.operation.responses).join(', ')})`];
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  if (!documented.content) return text === '' ? problems : [...problems, `${label}: ${res.status} documents no body, got ${text.slice(0, 200)}`];
  if (!(mediaType in documented.content)) return [...problems, `${label}: ${res.status} came as ${mediaType || 'no content type'}, documented: ${Object.keys(documented.content).join(', ')}`];
  if (mediaType !== 'application/json') return problems;
  const validate = validatorOf(entry, res.status, mediaType);
  if (!validate(JSON.parse(text))) problems.push(`${label}: ${res.status} body ${text.slice(0, 300)} breaks the document's schema: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
  return problems;
}

describe('every operation of /openapi.json answers as the document says', () => {
  it('the case tables name only operations the document has', () => {
    const names = new Set(operations.map((entry) => entry.name));
    const stale = [...Object.keys(SUCCESS_CASES), ...Object.keys(ERROR_CASES)].filter((name) => !names.has(name));
    expect(stale, 'cases for operations the document no longer has').toEqual([]);
  });

  for (const entry of operations) {
    it(entry.name, async () => {
      const success = SUCCESS_CASES[entry.name];
      if (!success) {
        throw new Error(`${entry.name} has no success case: add one to SUCCESS_CASES in test/support/contract-cases.ts (and error cases to ERROR_CASES if the derived ones do not reach its 4xx answers)`);
      }
      seed ??= await seedContractData(pair, { host: printer.host, port: printer.port }, terminal.ready);
      const successes = success(seed);
      const [base] = successes;
      if (!base) throw new Error(`${entry.name}: SUCCESS_CASES lists no call`);
      const errors = [...derivedErrors(entry, base), ...(ERROR_CASES[entry.name]?.(seed) ?? [])];
      expect(errors.length, `${entry.name} has no error case`).toBeGreaterThan(0);
      for (const call of successes) expect(call.status, `${entry.name}: a success case expects ${call.status}`).toBeLessThan(400);
      for (const call of errors) expect(call.status, `${entry.name}: an error case expects ${call.status}`).toBeGreaterThanOrEqual(400);
      const problems: string[] = [];
      // Errors first: a successful DELETE would turn the unknown-id case's neighbours into 404s too.
      for (const call of [...errors, ...successes]) problems.push(...(await problemsOf(entry, call)));
      expect(problems).toEqual([]);
      // The first operation's test also seeds the records (through sync, and a purge run by the CLI).
    });
  }
});
