import { transform } from 'receiptline';
import type { ReceiptPrintRequest, ReceiptPrintResult } from '../../shared/api/receipts.js';
import { STORE_LANGUAGES, type StoreLanguage } from '../../shared/languages.js';
import { buildReceipt } from '../../shared/receipt/receipt.js';
import { RECEIPT_CHARS_PER_LINE, receiptDocument } from '../../shared/receipt/receipt-document.js';
import type { Store } from '../../shared/api/stores.js';
import type { Caller } from '../services/caller.js';
import { BadRequest } from '../services/errors.js';
import type { Clock } from '../services/clock.js';
import type { Services } from '../services/index.js';
import type { PrinterConnection } from './printer-connection.js';
import type { PrinterRegistry } from './printer-registry.js';
import type { PrinterStates } from './printer-states.js';

/**
 * ESC/POS commands for a receipt document: CP858 holds the letters of the
 * four languages and the euro sign; receiptline writes them as a byte string.
 */
export function escPosCommands(document: string): Buffer {
  return Buffer.from(transform(document, { command: 'escpos', encoding: 'cp858', cpl: RECEIPT_CHARS_PER_LINE, cutting: true }), 'binary');
}

/** The store's main language when it is one of the receipt's, German otherwise. */
export const languageOf = (value: unknown): StoreLanguage => ((STORE_LANGUAGES as readonly unknown[]).includes(value) ? (value as StoreLanguage) : 'de');

/**
 * The e-receipt address a receipt may carry as its QR code. Staff may print
 * any; a kiosk key only its store's own (`receiptUrl` of the store), so a
 * kiosk key cannot put a QR code of another site on a real receipt.
 */
export function receiptUrlFor(caller: Caller, store: Pick<Store, 'id' | 'receiptUrl'>, asked: string | undefined): string | undefined {
  if (asked === undefined || caller.keyKind !== 'kiosk' || asked === store.receiptUrl) return asked;
  const own = store.receiptUrl === undefined ? 'has no e-receipt address' : `has the e-receipt address ${JSON.stringify(store.receiptUrl)}`;
  throw new BadRequest(
    `receiptUrl: a kiosk key prints only its store's own e-receipt address; store ${JSON.stringify(store.id)} ${own}, not ${JSON.stringify(asked)}. ` +
      'Staff set it with POST /stores/{storeId} {"receiptUrl": …}, or leave receiptUrl out to print without a QR code.',
  );
}

/** Builds the receipt of a stored order and sends it to a registered network receipt printer; the outcome is remembered for the status page. */
export function createReceiptPrinting(deps: {
  services: Pick<Services, 'orders' | 'retailStores' | 'stores'>;
  clock: Clock;
  registry: PrinterRegistry;
  connection: PrinterConnection;
  states: PrinterStates;
  /** The terminal's customer receipt lines of a card sale, printed under it exactly as the terminal gave them. */
  cardReceiptOf: (caller: Caller, orderId: string) => string[] | undefined;
}) {
  return {
    async print(caller: Caller, orderId: string, request: ReceiptPrintRequest): Promise<ReceiptPrintResult> {
      const printer = deps.registry.named(caller, request.printer);
      const order = deps.services.orders.get(caller, orderId);
      const store = deps.services.retailStores.get(caller, order.store);
      const receipt = buildReceipt(order, store, {
        language: request.language ?? languageOf(store.languageMain),
        receiptUrlTemplate: receiptUrlFor(caller, store, request.receiptUrl),
        productOf: (id) => deps.services.stores.products.get(caller.orgId, id),
        cardReceipt: deps.cardReceiptOf(caller, order.id),
      });
      const attempt = await deps.connection.send(printer, escPosCommands(receiptDocument(receipt)));
      return deps.states.record(printer, order.id, attempt, deps.clock.now());
    },
  };
}

export type ReceiptPrinting = ReturnType<typeof createReceiptPrinting>;
