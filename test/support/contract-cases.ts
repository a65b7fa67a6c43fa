import { expect } from 'vitest';
import type { Api } from './api.js';
import { runCli } from './cli.js';
import { imageForm, makeImage, nameOf } from './images.js';
import { waitForSync } from './sync.js';
import type { SyncPair } from './sync-pair.js';
import type { ReadyLine } from './terminal-simulator.js';

/** Which key a call carries: the organization's read or write key, a kiosk key of the seeded store, or none. */
export type KeyChoice = 'read' | 'write' | 'kiosk' | 'none';

/** One request against one operation of the OpenAPI document, and the status it must answer. */
export interface ContractCall {
  /** Values of the operation's path parameters, by name. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** A JSON body. */
  body?: unknown;
  /** A multipart body (uploads). */
  form?: () => FormData;
  /** A file sent as the body itself, with its type (catalog files). */
  file?: { type: string; text: string };
  /** Default: the write key, or none when the operation needs no key. */
  key?: KeyChoice;
  headers?: Record<string, string>;
  status: number;
}

/** Records the contract test reads, written through the API before it starts. */
export interface ContractSeed {
  store: string;
  product: string;
  productToDelete: string;
  productWithImage: string;
  imageFile: string;
  supplier: string;
  category: string;
  order: string;
  /** The till's order number of `order`. */
  orderNumber: string;
  blocked: string;
  blockedToDelete: string;
  parkedToRetry: string;
  parkedToDiscard: string;
  /** Where the fake printer listens. */
  printerAddress: { host: string; port: number };
  /** Id of a printer registered for the store, at the fake printer. */
  printer: string;
  printerToDelete: string;
  /** Id of a printer that was registered and removed. */
  removedPrinter: string;
  /** Installation id of a store PC that reported to the fleet. */
  device: string;
  deviceToDelete: string;
  day: string;
  kioskKey: string;
  keyToRevoke: string;
  /** The terminal simulator's ready line, and the terminals registered with it. */
  terminalLine: ReadyLine;
  terminal: string;
  terminalToDelete: string;
  /** Approved payments at the seeded terminal. */
  payment: string;
  paymentToRefund: string;
  /** A settlement of the seeded order; a later sale is left for `POST /settlements` to take. */
  settlement: string;
}

type CaseBuilder = (seed: ContractSeed) => ContractCall[];

const CATALOG_FILE = { type: 'text/csv', text: 'barcode;name;price;taxCategory\n7610000000990;Brot;4,20;2.6\n' };

/** Success cases per operation (`METHOD /path` as in the document): each operation needs at least one. */
export const SUCCESS_CASES: Record<string, CaseBuilder> = {
  'GET /health': () => [{ status: 200 }],
  'GET /update': () => [{ status: 200 }],
  'GET /openapi.json': () => [{ status: 200 }],
  'GET /system': () => [{ status: 200 }, { key: 'read', status: 200 }],
  'GET /products': (s): ContractCall[] => [{ status: 200 }, { query: { q: 'Milch', limit: '5' }, status: 200 }, { query: { barcode: '7610000000017', store: s.store }, key: 'read', status: 200 }],
  'POST /products': () => [{ body: { name: 'Brot', price: 420, taxCategory: '2.6' }, status: 200 }],
  'GET /products/{productId}': (s) => [{ params: { productId: s.product }, key: 'read', status: 200 }],
  'POST /products/{productId}': (s) => [{ params: { productId: s.product }, body: { price: 210 }, status: 200 }],
  'DELETE /products/{productId}': (s) => [{ params: { productId: s.productToDelete }, status: 200 }],
  'POST /products/{productId}/image': (s) => [{ params: { productId: s.product }, form: pngForm, status: 200 }],
  'DELETE /products/{productId}/image': (s) => [{ params: { productId: s.productWithImage }, status: 200 }],
  'GET /images/{file}': (s) => [{ params: { file: s.imageFile }, status: 200 }],
  'POST /catalog/import': () => [{ query: { dryRun: 'true' }, file: CATALOG_FILE, status: 200 }, { file: CATALOG_FILE, status: 200 }],
  'GET /catalog/export': () => [{ key: 'read', status: 200 }],
  'GET /catalog/columns': () => [{ key: 'read', status: 200 }],
  'POST /catalog/columns': () => [{ body: { Strichcode: 'barcode', Notiz: '' }, status: 200 }],
  'GET /suppliers': () => [{ query: { limit: '10' }, status: 200 }],
  'POST /suppliers': () => [{ body: { name: 'Molkerei Alpen' }, status: 200 }],
  'GET /suppliers/{supplierId}': (s) => [{ params: { supplierId: s.supplier }, status: 200 }],
  'POST /suppliers/{supplierId}': (s) => [{ params: { supplierId: s.supplier }, body: { name: 'Molkerei Tal' }, status: 200 }],
  'GET /categories': () => [{ status: 200 }],
  'POST /categories': () => [{ body: { name: 'Getränke' }, status: 200 }],
  'GET /categories/{categoryId}': (s) => [{ params: { categoryId: s.category }, status: 200 }],
  'POST /categories/{categoryId}': (s) => [{ params: { categoryId: s.category }, body: { name: 'Milchprodukte' }, status: 200 }],
  'GET /stores': () => [{ status: 200 }],
  'POST /stores': () => [{ body: { name: 'Filiale Bahnhof' }, status: 200 }],
  'GET /stores/{storeId}': (s) => [{ params: { storeId: s.store }, status: 200 }],
  'POST /stores/{storeId}': (s) => [{ params: { storeId: s.store }, body: { languageMain: 'de' }, status: 200 }],
  'GET /orders': () => [{ query: { start: '2020-01-01T00:00:00.000Z', end: '2100-01-01T00:00:00.000Z' }, status: 200 }],
  'POST /orders': (s) => [{ body: { store: s.store, products: [{ productId: s.product, quantity: 2 }] }, status: 200 }],
  'GET /orders/{orderId}': (s) => [{ params: { orderId: s.order }, status: 200 }],
  'POST /orders/{orderId}': (s) => [{ params: { orderId: s.order }, body: { paymentMethod: 'card' }, status: 200 }],
  'POST /receipts/{orderId}/print': (s) => [{ params: { orderId: s.order }, body: { printer: s.printer }, status: 200 }, { params: { orderId: s.order }, key: 'kiosk', body: { printer: s.printer, language: 'en' }, status: 200 }],
  'POST /printers': (s) => [{ body: { store: s.store, name: 'Kasse 2', host: s.printerAddress.host, port: s.printerAddress.port }, status: 201 }, { body: { store: s.store, name: 'Kasse LAN', host: '192.168.1.50' }, status: 201 }],
  'GET /printers': () => [{ status: 200 }, { key: 'read', status: 200 }, { key: 'kiosk', status: 200 }],
  'DELETE /printers/{printerId}': (s) => [{ params: { printerId: s.printerToDelete }, status: 200 }],
  'POST /printers/{printerId}/check': (s) => [{ params: { printerId: s.printer }, status: 200 }, { params: { printerId: s.printer }, key: 'kiosk', status: 200 }],
  'POST /terminals': (s) => [
    { body: { ...s.terminalLine, store: s.store, name: 'Terminal 2', protocol: 'nexo-local' }, status: 201 },
  ],
  'GET /terminals': () => [{ status: 200 }, { key: 'read', status: 200 }, { key: 'kiosk', status: 200 }],
  'DELETE /terminals/{terminalId}': (s) => [{ params: { terminalId: s.terminalToDelete }, status: 200 }],
  'POST /terminals/{terminalId}/check': (s) => [{ params: { terminalId: s.terminal }, key: 'kiosk', status: 200 }],
  'GET /terminals/{terminalId}/totals': (s) => [{ params: { terminalId: s.terminal }, key: 'read', status: 200 }],
  'POST /payments': (s) => [{ key: 'kiosk', body: { store: s.store, amount: 195, currency: 'CHF', reference: 'contract-sale', terminal: s.terminal }, status: 202 }],
  'GET /payments': () => [{ query: { reference: 'contract-paid' }, key: 'kiosk', status: 200 }, { query: { reference: 'contract-paid' }, key: 'read', status: 200 }],
  'GET /payments/{paymentId}': (s) => [{ params: { paymentId: s.payment }, key: 'kiosk', status: 200 }],
  'POST /payments/{paymentId}/cancel': (s) => [{ params: { paymentId: s.payment }, key: 'kiosk', status: 202 }],
  'POST /payments/{paymentId}/refund': (s) => [{ params: { paymentId: s.paymentToRefund }, body: { amount: 50 }, status: 202 }],
  'GET /reports/daily': (s) => [{ query: { store: s.store, date: s.day }, key: 'read', status: 200 }],
  'POST /reports/daily/print': (s) => [{ body: { store: s.store, date: s.day, printer: s.printer }, status: 200 }],
  'GET /identity-logs': () => [{ query: { access: 'denied' }, status: 200 }],
  'POST /identity-logs': (s) => [{ body: { access: false, store: s.store, birthDate: '2012-03-04' }, status: 200 }],
  'GET /identity-logs/blocked': () => [{ status: 200 }],
  'POST /identity-logs/blocked': () => [{ body: { comment: 'Hausverbot', first_name: 'Max', last_name: 'Muster' }, status: 200 }],
  'GET /identity-logs/blocked/{blockedId}': (s) => [{ params: { blockedId: s.blocked }, status: 200 }],
  'POST /identity-logs/blocked/{blockedId}': (s) => [{ params: { blockedId: s.blocked }, body: { comment: 'Diebstahl', first_name: 'Eva', last_name: 'Muster' }, status: 200 }],
  'DELETE /identity-logs/blocked/{blockedId}': (s) => [{ params: { blockedId: s.blockedToDelete }, status: 200 }],
  'POST /identity-logs/verdict': () => [{ key: 'kiosk', body: { lastName: 'Muster', firstNames: 'Eva', birthDate: '1990-01-01' }, status: 200 }],
  'GET /keys': () => [{ status: 200 }],
  'POST /keys': (s) => [{ body: { kind: 'kiosk', store: s.store, name: 'Kiosk by the door' }, status: 201 }, { body: { kind: 'scale' }, status: 201 }],
  'GET /keys/current': () => [{ key: 'kiosk', status: 200 }, { key: 'read', status: 200 }],
  'DELETE /keys/{keyId}': (s) => [{ params: { keyId: s.keyToRevoke }, status: 200 }],
  'POST /staff/sign-in': () => [{ status: 201 }, { key: 'read', status: 201 }],
  'DELETE /staff/sign-in': () => [{ status: 200 }],
  'GET /sync': () => [{ key: 'read', status: 200 }],
  'GET /sync/parked': () => [{ status: 200 }],
  'POST /sync/parked/{entryId}/retry': (s) => [{ params: { entryId: s.parkedToRetry }, status: 200 }],
  'POST /sync/parked/{entryId}/discard': (s) => [{ params: { entryId: s.parkedToDiscard }, status: 200 }],
  'POST /fleet/heartbeat': (s) => [{ body: heartbeat(s.device), status: 200 }, { body: { ...heartbeat(s.device), addedByANewerVersion: 1 }, status: 200 }],
  'GET /fleet': () => [{ key: 'read', status: 200 }, { query: { behindSeconds: '60', offlineSeconds: '120' }, status: 200 }],
  'DELETE /fleet/{device}': (s) => [{ params: { device: s.deviceToDelete }, status: 200 }],
  'POST /payout-account': () => [{ body: { name: 'Hofladen AG', iban: 'CH93 0076 2011 6238 5295 7', city: 'Bern', country: 'CH' }, status: 200 }],
  'GET /payout-account': () => [{ key: 'read', status: 200 }],
  'POST /settlements': () => [{ body: { to: new Date().toISOString() }, status: 201 }],
  'GET /settlements': () => [{ key: 'read', status: 200 }],
  'GET /settlements/{settlementId}': (s) => [{ params: { settlementId: s.settlement }, key: 'read', status: 200 }],
  'GET /settlements/{settlementId}/payout-file': (s) => [{ params: { settlementId: s.settlement }, key: 'read', status: 200 }],
  'GET /settlements/{settlementId}/statements/{supplierId}': (s) => [
    { params: { settlementId: s.settlement, supplierId: s.supplier }, key: 'read', status: 200 },
    { params: { settlementId: s.settlement, supplierId: s.supplier }, query: { format: 'csv' }, status: 200 },
  ],
  'POST /settlements/{settlementId}/send': (s) => [{ params: { settlementId: s.settlement }, status: 200 }],
  'GET /mail': () => [{ status: 200 }, { query: { limit: '5' }, status: 200 }],
  'POST /mail/test': () => [{ body: { to: 'owner@example.ch' }, status: 202 }],
  'POST /mail/settings': () => [{ body: { smtpUrl: 'smtp://laden:secret@127.0.0.1:2525', from: 'Laden <laden@example.ch>' }, status: 200 }],
  'POST /mail/daily': () => [{ body: { date: '2026-11-24' }, status: 200 }],
  'GET /alerts': () => [{ status: 200 }],
};

/**
 * Error cases beyond the ones derived from the document for every operation
 * (no key, a foreign origin, an unknown id, a body or query that breaks the schema).
 */
export const ERROR_CASES: Record<string, CaseBuilder> = {
  'POST /products/{productId}': (s) => [{ params: { productId: s.product }, body: { price: 230 }, headers: { 'if-match': '"not-its-tag"' }, status: 412 }],
  'POST /products': () => [
    { key: 'read', body: { name: 'Brot', price: 420, taxCategory: '2.6' }, status: 403 },
    { body: { name: 'Brot', price: -1, taxCategory: '2.6' }, status: 400 },
    { body: { name: 'Brot', price: 420, taxCategory: '2.6', category: 'no-such-category' }, status: 400 },
  ],
  'GET /products': (): ContractCall[] => [{ query: { store: '' }, status: 400 }, { query: { store: 'nope' }, status: 400 }, { query: { q: 'Milch', store: 'nope' }, status: 400 }],
  'POST /catalog/import': () => [
    { key: 'read', file: CATALOG_FILE, status: 403 },
    { key: 'kiosk', file: CATALOG_FILE, status: 403 },
    { file: { type: 'text/csv', text: 'name,price,taxCategory\nBrot,-4.20,2.6\n' }, status: 400 },
    { query: { dryRun: 'maybe' }, file: CATALOG_FILE, status: 400 },
  ],
  'GET /catalog/export': () => [{ key: 'kiosk', status: 403 }, { key: 'read', query: { format: 'pdf' }, status: 400 }],
  'GET /catalog/columns': () => [{ key: 'kiosk', status: 403 }],
  'POST /catalog/columns': () => [
    { key: 'read', body: { Strichcode: 'barcode' }, status: 403 },
    { body: { Strichcode: 'strichcode' }, status: 400 },
  ],
  'POST /orders': (s) => [
    { body: { store: s.store, products: [{ productId: 'no-such-product', quantity: 1 }] }, status: 400 },
    { body: { store: s.store, orderId: s.orderNumber, products: [{ productId: s.product, quantity: 3 }] }, status: 409 },
    { key: 'kiosk', body: { store: s.store, paymentState: 'refunded', products: [{ productId: s.product, quantity: 1 }] }, status: 400 },
  ],
  'GET /reports/daily': (s) => [{ query: { store: s.store, date: '2026-02-30' }, status: 400 }],
  'POST /reports/daily/print': (s) => [
    { body: { store: s.store, date: s.day }, status: 400 },
    { body: { store: 'no-such-store', date: s.day, printer: s.printer }, status: 400 },
    { body: { store: s.store, date: s.day, printer: 'no-such-printer' }, status: 400 },
    { body: { store: s.store, date: s.day, printer: s.removedPrinter }, status: 400 },
    { body: { store: s.store, date: s.day, printer: s.printerAddress }, status: 400 },
    { key: 'read', body: { store: s.store, date: s.day, printer: s.printer }, status: 403 },
    { key: 'kiosk', body: { store: s.store, date: s.day, printer: s.printer }, status: 403 },
  ],
  'POST /receipts/{orderId}/print': (s) => [
    { params: { orderId: s.order }, body: { printer: 'no-such-printer' }, status: 400 },
    { params: { orderId: s.order }, body: { printer: s.removedPrinter }, status: 400 },
    { params: { orderId: s.order }, body: { printer: { host: s.printerAddress.host, port: s.printerAddress.port } }, status: 400 },
    { params: { orderId: s.order }, key: 'read', body: { printer: s.printer }, status: 403 },
    { params: { orderId: s.order }, key: 'kiosk', body: { printer: s.printer, receiptUrl: 'https://evil.example/r/{orderId}' }, status: 400 },
  ],
  'POST /printers': (s) => [
    { key: 'read', body: { store: s.store, name: 'Kasse 3', host: s.printerAddress.host, port: s.printerAddress.port }, status: 403 },
    { key: 'kiosk', body: { store: s.store, name: 'Kasse 3', host: s.printerAddress.host, port: s.printerAddress.port }, status: 403 },
    { body: { store: s.store, host: s.printerAddress.host }, status: 400 },
    { body: { store: 'no-such-store', name: 'Kasse 3', host: s.printerAddress.host, port: s.printerAddress.port }, status: 400 },
    { body: { store: s.store, name: 'Kasse 3', host: 'http://evil', port: 9100 }, status: 400 },
    { body: { store: s.store, name: 'Kasse 3', host: '169.254.1.20', port: 9100 }, status: 400 },
    { body: { store: s.store, name: 'Kasse 3', host: '192.168.1.50', port: 0 }, status: 400 },
  ],
  'POST /terminals': (s) => [
    { key: 'kiosk', body: { ...s.terminalLine, store: s.store, name: 'T', protocol: 'nexo-local' }, status: 403 },
    { body: { ...s.terminalLine, store: s.store, name: 'T', protocol: 'nexo-local', host: '8.8.8.8' }, status: 400 },
    // The address passes the address rule; nothing listens there to connect to.
    { body: { ...s.terminalLine, store: s.store, name: 'T', protocol: 'nexo-local', port: 9 }, status: 400 },
    { body: { ...s.terminalLine, store: s.store, name: 'T', protocol: 'zvt' }, status: 400 },
  ],
  'POST /payments': (s) => [
    { key: 'kiosk', body: { store: s.store, amount: 195, currency: 'EUR', reference: 'contract-eur', terminal: s.terminal }, status: 400 },
    { key: 'kiosk', body: { store: s.store, amount: 195, currency: 'CHF', reference: 'contract-x', terminal: 'no-such-terminal' }, status: 400 },
    { key: 'read', body: { store: s.store, amount: 195, currency: 'CHF', reference: 'contract-y' }, status: 403 },
  ],
  'POST /payments/{paymentId}/refund': (s) => [
    { params: { paymentId: s.paymentToRefund }, body: { amount: 100000 }, status: 400 },
    { params: { paymentId: s.paymentToRefund }, key: 'kiosk', body: {}, status: 403 },
  ],
  'DELETE /printers/{printerId}': (s) => [{ params: { printerId: s.printer }, key: 'read', status: 403 }, { params: { printerId: s.printer }, key: 'kiosk', status: 403 }, { params: { printerId: s.removedPrinter }, status: 404 }],
  'POST /printers/{printerId}/check': (s) => [{ params: { printerId: s.printer }, key: 'read', status: 403 }, { params: { printerId: s.removedPrinter }, status: 404 }],
  'POST /fleet/heartbeat': (s) => [
    { key: 'read', body: heartbeat(s.device), status: 403 },
    { key: 'kiosk', body: heartbeat(s.device), status: 403 },
    { body: heartbeat('short'), status: 400 },
    { body: { ...heartbeat(s.device), pending: -1 }, status: 400 },
  ],
  'GET /fleet': (): ContractCall[] => [{ key: 'kiosk', status: 403 }, { query: { offlineSeconds: '0' }, status: 400 }, { query: { behindSeconds: 'soon' }, status: 400 }, { query: { everySeconds: '60' }, status: 400 }],
  'DELETE /fleet/{device}': (s) => [{ params: { device: s.device }, key: 'read', status: 403 }, { params: { device: s.device }, key: 'kiosk', status: 403 }],
  'GET /mail': (): ContractCall[] => [{ key: 'read', status: 403 }, { query: { cursor: 'nonsense' }, status: 400 }],
  'POST /mail/test': () => [{ body: { to: 'ja' }, status: 400 }, { key: 'kiosk', body: { to: 'owner@example.ch' }, status: 403 }],
  'POST /mail/settings': () => [{ body: { smtpUrl: 'smtp//nope', from: 'laden@example.ch' }, status: 400 }, { key: 'read', body: { smtpUrl: 'smtp://127.0.0.1:25', from: 'a@b.ch' }, status: 403 }],
  'POST /mail/daily': () => [{ body: { date: '24.11.2026' }, status: 400 }],
  'GET /alerts': () => [{ key: 'read', status: 403 }],
  'POST /sync/parked/{entryId}/retry': () => [{ params: { entryId: 'abc' }, status: 400 }],
  'POST /payout-account': () => [{ body: { name: 'Hofladen AG', iban: 'CH4431999123000889012' }, status: 400 }, { key: 'read', body: { name: 'Hofladen AG', iban: 'CH9300762011623852957' }, status: 403 }],
  'POST /settlements': () => [{ body: { to: new Date(Date.now() + 3_600_000).toISOString() }, status: 400 }, { key: 'kiosk', body: { to: new Date().toISOString() }, status: 403 }],
  'GET /settlements/{settlementId}/statements/{supplierId}': (s) => [{ params: { settlementId: s.settlement, supplierId: s.supplier }, query: { format: 'xls' }, status: 400 }],
  'GET /sync': () => [{ key: 'kiosk', status: 403 }],
  'GET /identity-logs/blocked': () => [{ key: 'kiosk', status: 403 }],
  'POST /keys': () => [{ body: { kind: 'kiosk' }, status: 400 }, { key: 'kiosk', body: { kind: 'write' }, status: 403 }],
  'POST /identity-logs/blocked/{blockedId}': (s) => [{ params: { blockedId: s.blocked }, body: { comment: 'x', first_name: 'Eva', last_name: 'Muster', birthDate: null }, status: 400 }],
};

/** A store PC's report after a sync round, as `POST /fleet/heartbeat` takes it. */
function heartbeat(device: string) {
  return {
    device,
    name: 'kasse-bern-1',
    version: '0.1.0',
    stores: ['upstream-store-1'],
    lastPushAt: '2026-11-25T12:00:00.000Z',
    lastPullAt: '2026-11-25T11:59:58.000Z',
    pending: 0,
    parked: 0,
    oldestPendingAt: null,
    lastSaleAt: '2026-11-25T11:42:10.000Z',
    printers: [{ name: 'Kasse 1', state: 'ready' }],
    diskFreeBytes: 51234567890,
    databaseBytes: 73400320,
  };
}

const pngBytes = await makeImage('png');
const pngForm = () => imageForm(pngBytes, 'image/png');

/** Creates a product the upstream refuses (it lacks barcode aliases) and returns its parked entry's id. */
async function parkOne(pair: SyncPair, code: string): Promise<string> {
  const res = await pair.write.post('/products', { name: 'Wasser 6er', price: 600, taxCategory: '2.6', barcode: code, barcodeAliases: [{ code: `${code}-6`, quantity: 6 }] });
  await waitForSync(pair.write, (s) => s.state === 'idle' && s.pending === 0 && s.parked > 0);
  const parked = (await pair.write.get('/sync/parked')).body.data as { id: number; resourceId: string }[];
  const entry = parked.find((p) => p.resourceId === res.body.id);
  if (!entry) throw new Error(`product ${res.body.id} was not parked: ${JSON.stringify(parked)}`);
  return String(entry.id);
}

/**
 * A supplier deleted 100 days ago and purged by `purge run`: the change feeds
 * then have a horizon, and a read from before it answers 410.
 */
async function purgeOneDeletion(pair: SyncPair): Promise<void> {
  const gone = await created(pair.write, '/suppliers', { name: 'Alte Mühle' });
  expect((await pair.write.post(`/suppliers/${gone}`, { deleted: true })).status).toBe(200);
  await waitForSync(pair.write, (s) => s.state === 'idle' && s.pending === 0);
  // Through the server's own connection: it runs in this process (see `RunningServer.inProcess`).
  pair.local.running.inProcess.db.prepare('UPDATE suppliers SET lastupdate = ? WHERE id = ?').run(new Date(Date.now() - 100 * 86_400_000).toISOString(), gone);
  const purge = await runCli(pair.local.dataDir, ['purge', 'run', '--json']);
  expect(purge.json).toMatchObject({ deleted: 1 });
}

async function created(client: Api, path: string, body: unknown, status = 200): Promise<string> {
  const res = await client.post(path, body);
  expect(res.status, `seeding ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body.id as string;
}

/** Writes the records every case refers to, through the API of the pair's store server. */
export async function seedContractData(pair: SyncPair, printerAddress: { host: string; port: number }, terminalLine: ReadyLine): Promise<ContractSeed> {
  await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--disable', 'barcode-aliases', '--json']);
  const write = pair.write;
  const store = await created(write, '/stores', { name: 'Hofladen' });
  const supplier = await created(write, '/suppliers', { name: 'Molkerei' });
  const category = await created(write, '/categories', { name: 'Milch' });
  const product = await created(write, '/products', { name: 'Milch 1 l', price: 195, taxCategory: '2.6', barcode: '7610000000017', category, supplier });
  const productToDelete = await created(write, '/products', { name: 'Quark', price: 150, taxCategory: '2.6' });
  const productWithImage = await created(write, '/products', { name: 'Butter', price: 350, taxCategory: '2.6' });
  const withImage = await created(write, '/products', { name: 'Rahm', price: 250, taxCategory: '2.6' });
  for (const id of [productWithImage, withImage]) expect((await write.request('POST', `/products/${id}/image`, { body: pngForm() })).status).toBe(200);
  const imageFile = nameOf((await write.get(`/products/${withImage}`)).body.data.imageUrl);
  const orderNumber = 'till-1-0001';
  const order = await created(write, '/orders', { store, orderId: orderNumber, products: [{ productId: product, quantity: 1 }] });
  const blocked = await created(write, '/identity-logs/blocked', { comment: 'Hausverbot', first_name: 'Eva', last_name: 'Muster', birthDate: '1990-01-01' });
  const blockedToDelete = await created(write, '/identity-logs/blocked', { comment: 'Hausverbot', first_name: 'Tim', last_name: 'Muster' });
  const kioskKey = (await write.post('/keys', { kind: 'kiosk', store, name: 'Kiosk 1' })).body.key as string;
  const keyToRevoke = (await write.post('/keys', { kind: 'scale', name: 'Scale 1' })).body.id as string;
  const parkedToRetry = await parkOne(pair, '7610000000024');
  const parkedToDiscard = await parkOne(pair, '7610000000031');
  // The store server must allow loopback printers (`printerNetwork: TEST_PRINTER_NETWORK`): the fake printer listens on 127.0.0.1.
  const printer = await created(write, '/printers', { store, name: 'Kasse 1', ...printerAddress }, 201);
  const printerToDelete = await created(write, '/printers', { store, name: 'Kasse alt', ...printerAddress }, 201);
  const removedPrinter = await created(write, '/printers', { store, name: 'Kasse entfernt', ...printerAddress }, 201);
  expect((await write.delete(`/printers/${removedPrinter}`)).status).toBe(200);
  const terminal = await created(write, '/terminals', { ...terminalLine, store, name: 'Terminal 1', protocol: 'nexo-local' }, 201);
  const terminalToDelete = await created(write, '/terminals', { ...terminalLine, store, name: 'Terminal alt', protocol: 'nexo-local' }, 201);
  const approved = async (reference: string) => {
    const id = (await write.post('/payments', { store, amount: 195, currency: 'CHF', reference, terminal })).body.data.id as string;
    await expect.poll(async () => (await write.get(`/payments/${id}`)).body.data.state).toBe('approved');
    return id;
  };
  const payment = await approved('contract-paid');
  const paymentToRefund = await approved('contract-refund');
  const device = 'contract-device-1';
  const deviceToDelete = 'contract-device-2';
  for (const id of [device, deviceToDelete]) expect((await write.post('/fleet/heartbeat', heartbeat(id))).status).toBe(200);
  expect((await write.post('/payout-account', { name: 'Hofladen AG', iban: 'CH9300762011623852957' })).status).toBe(200);
  const settlement = await created(write, '/settlements', { to: new Date().toISOString() }, 201);
  await created(write, '/orders', { store, products: [{ productId: product, quantity: 2 }] });
  await purgeOneDeletion(pair);
  return {
    store,
    product,
    productToDelete,
    productWithImage,
    imageFile,
    supplier,
    category,
    order,
    orderNumber,
    blocked,
    blockedToDelete,
    parkedToRetry,
    parkedToDiscard,
    printerAddress,
    printer,
    printerToDelete,
    removedPrinter,
    device,
    deviceToDelete,
    day: new Date().toISOString().slice(0, 10),
    kioskKey,
    keyToRevoke,
    terminalLine,
    terminal,
    terminalToDelete,
    payment,
    paymentToRefund,
    settlement,
  };
}
