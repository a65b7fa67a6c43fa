import type { Order } from '../../shared/api/orders.js';
import { KIOSK_BRIDGE } from '../../shared/kiosk-bridge.js';
import type { KioskConfig } from '../../shared/kiosk-config.js';
import type { PricedProduct } from '../../shared/order-pricing.js';
import { buildReceipt, type Receipt } from '../../shared/receipt/receipt.js';
import type { ApiClient } from './api-client.js';
import { h, replaceChildren } from './dom.js';
import type { MessageKey, Translate } from './i18n/index.js';
import { receiptPaper } from './screens/receipt.js';
import type { KioskSettings, StoreLanguage } from './store-settings.js';

/** Where the receipt's printing stands: `none` when the kiosk has no printer. */
export type PrintState = 'none' | 'printing' | 'printed' | 'failed';

/** The kiosk's receipt settings (kiosk.json, or the set-up screen in a browser). */
export type ReceiptSetup = Pick<KioskConfig, 'printer' | 'receiptUrl'>;

/**
 * A receipt that did not print stays this long before the idle timer may
 * close it, so the customer can photograph it or scan its QR code.
 */
export const UNPRINTED_RECEIPT_HOLD_MS = 120_000;

/** CSS pixels are 1/96 inch. */
const MM_PER_PX = 25.4 / 96;
/** Paper fed after the receipt, in millimetres, so the cut does not touch the last line. */
const FEED_MM = 10;

const STATUS_TEXT: Record<PrintState, MessageKey> = {
  none: 'receiptNoPrinter',
  printing: 'receiptPrinting',
  printed: 'receiptPrinted',
  failed: 'receiptNotPrinted',
};

type PrintThroughBridge = (heightMm: number) => Promise<{ printed: boolean; message: string | null }>;

function bridgePrint(): PrintThroughBridge | undefined {
  const bridge = (window as unknown as Record<string, { printReceipt?: PrintThroughBridge } | undefined>)[KIOSK_BRIDGE];
  return bridge?.printReceipt;
}

/**
 * Prints on the PC's printer through the desktop app: a copy of the receipt in
 * its paper layout (`.paper-print`, off screen) is what the page prints, and
 * its measured length is the page's length.
 */
async function printOnPc(print: PrintThroughBridge, paper: HTMLElement): Promise<boolean> {
  const copy = paper.cloneNode(true) as HTMLElement;
  copy.classList.add('paper-print');
  for (const el of [copy, ...copy.querySelectorAll('[id]')]) el.removeAttribute('id');
  copy.removeAttribute('aria-labelledby');
  copy.setAttribute('aria-hidden', 'true');
  document.body.append(copy);
  try {
    return (await print(copy.scrollHeight * MM_PER_PX + FEED_MM)).printed;
  } finally {
    copy.remove();
  }
}

/**
 * The receipt step of a sale: prints the stored order's receipt once, from the
 * moment the server has stored it, and shows the receipt of the order as read
 * back (or as the till sent it, when reading it back failed).
 */
export class ReceiptView {
  private state: PrintState;
  private holdUntil = 0;
  private order: Order | undefined;
  private productOf: ((id: string) => PricedProduct | undefined) | undefined;
  private status: HTMLElement | undefined;
  private t: Translate | undefined;
  private paper: HTMLElement | undefined;
  private shown: () => void = () => {};
  private readonly onScreen = new Promise<void>((resolve) => (this.shown = resolve));

  constructor(
    private readonly api: ApiClient,
    private readonly setup: ReceiptSetup,
    private readonly settings: Pick<KioskSettings, 'receiptStore' | 'receiptUrl'>,
    /** Id of the stored order. */
    private readonly orderId: string,
    /** The receipt printed before the page was reloaded: it is not printed again. */
    printedBefore: boolean,
    /** The card terminal's customer receipt lines, for a sale paid by card. */
    private readonly cardReceipt?: readonly string[],
  ) {
    this.state = !setup.printer ? 'none' : printedBefore ? 'printed' : 'printing';
    if (!setup.printer) this.hold();
  }

  /** The receipt stays on screen: printing failed or there is no printer. */
  get holding(): boolean {
    return Date.now() < this.holdUntil;
  }

  /** The order the receipt shows; `productOf` tells sale prices apart while the cart's products are known. */
  showOrder(order: Order, productOf?: (id: string) => PricedProduct | undefined): void {
    this.order = order;
    this.productOf = productOf;
  }

  receipt(language: StoreLanguage): Receipt {
    if (!this.order) throw new Error(`the receipt of order ${this.orderId} has no order to show yet`);
    return buildReceipt(this.order, this.settings.receiptStore, { language, receiptUrlTemplate: this.settings.receiptUrl ?? this.setup.receiptUrl, productOf: this.productOf, cardReceipt: this.cardReceipt });
  }

  /** The receipt screen in the customer's language; the print state updates in place. */
  screen(t: Translate, onDone: () => void): HTMLElement {
    this.t = t;
    this.status = h('p', { class: 'lead print-state', role: 'status', 'data-print': this.state });
    this.paper = receiptPaper(t, this.receipt(t.language));
    this.showState();
    this.shown();
    return h(
      'section',
      { class: 'screen panel receipt', 'data-screen': 'receipt', 'data-order': this.orderId, 'aria-labelledby': 'receipt-title' },
      h('h1', { id: 'receipt-title' }, t('receiptTitle')),
      this.status,
      this.paper,
      h('div', { class: 'actions' }, h('button', { class: 'primary', 'data-action': 'done', onclick: onDone }, t('newSale'))),
    );
  }

  /**
   * Prints once, on the network printer through the local server (at once: the
   * server builds the receipt from the stored order) or on the PC's printer
   * through the desktop app (once the receipt is on screen). `printed` runs
   * before the screen says it printed, so that what it notes holds by then.
   */
  async print(language: () => StoreLanguage, printed: () => Promise<void>): Promise<void> {
    const printer = this.setup.printer;
    if (!printer || this.state !== 'printing') return;
    let done = false;
    try {
      if (printer.type === 'network') {
        // The server prints a kiosk's QR code only for its store's own address.
        const request = { printer: printer.id, language: language(), ...(this.settings.receiptUrl ? { receiptUrl: this.settings.receiptUrl } : {}) };
        done = (await this.api.printReceipt(this.orderId, request)).printed;
      } else {
        const print = bridgePrint();
        await this.onScreen;
        if (print && this.paper) done = await printOnPc(print, this.paper);
      }
    } catch (err) {
      console.error('the receipt did not print', err);
    }
    if (done) await printed();
    this.state = done ? 'printed' : 'failed';
    if (!done) this.hold();
    this.showState();
  }

  private hold(): void {
    this.holdUntil = Date.now() + UNPRINTED_RECEIPT_HOLD_MS;
  }

  private showState(): void {
    if (!this.status || !this.t) return;
    this.status.dataset.print = this.state;
    replaceChildren(this.status, this.t(STATUS_TEXT[this.state]));
  }
}
