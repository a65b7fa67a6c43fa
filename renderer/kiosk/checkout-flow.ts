import type { Order } from '../../shared/api/orders.js';
import { DEFAULT_MINIMUM_AGE, minimumAgeOf } from '../../shared/minimum-age.js';
import type { CalendarDate } from './age.js';
import { verifyAge, type AgeEvidence } from './age-verification.js';
import type { ApiClient } from './api-client.js';
import type { TerminalPayment } from './card-payment.js';
import { cardSaleRecord, type CardSaleRecord } from './card-sale-record.js';
import { CardStep } from './card-step.js';
import type { Cart } from './cart.js';
import { newOrderId, orderOfSale, saleOf, sendSale, type SendFailure, type StoredSale } from './checkout.js';
import { errorText as customerErrorText } from './error-text.js';
import { isMrzLine, readMrz } from './mrz.js';
import type { Translate } from './i18n/index.js';
import { paymentTerminalStep, type PaymentOutcome } from './payment-terminal.js';
import { ageCheckScreen, refusedScreen } from './screens/age-check.js';
import type { CardTerminalScreen } from './screens/card-terminal.js';
import { helpScreen } from './screens/help.js';
import { ReceiptView, type ReceiptSetup } from './receipt-view.js';
import { paymentScreen, recordingScreen, type MethodChoice } from './screens/payment.js';
import type { SaleJournalEntry, SalesJournal } from './sales-journal.js';
import { paymentMethodsOffered, type KioskSettings, type PaymentMethod, type StoreLanguage } from './store-settings.js';

type Step =
  | { name: 'age'; error?: string }
  | { name: 'refused'; blocked: boolean; age: number }
  | { name: 'staff'; back: Step }
  | { name: 'payment' }
  | { name: 'terminal'; method: PaymentMethod }
  | { name: 'card'; screen: CardTerminalScreen }
  | { name: 'recording'; resumed: boolean; failure?: SendFailure }
  | { name: 'receipt'; view: ReceiptView };

/** What the checkout needs of the kiosk it runs in: the cart, the server, the texts, and the screen. */
export interface CheckoutHost {
  readonly cart: Cart;
  readonly api: ApiClient;
  readonly settings: KioskSettings;
  readonly receiptSetup: ReceiptSetup;
  /** The texts and language the customer chose; they change while a sale is under way. */
  readonly t: Translate;
  readonly language: StoreLanguage;
  readonly offline: boolean;
  /** The store's card terminal answers: *Card* is offered only then. */
  readonly terminalReachable: boolean;
  /** Shows a checkout screen in place of the shop. */
  show(screen: HTMLElement): void;
  /** Back to the shop, with `note` in its message line. */
  showShop(note?: string): void;
  /** Ends the purchase: empty cart, start screen. */
  reset(): void;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * From "Pay" to the receipt: age check when needed, payment method, the
 * terminal step, recording the sale. A paid sale goes into the sales journal
 * before anything else happens, and leaves it only once the server has stored
 * it and its receipt is closed.
 */
export class CheckoutFlow {
  private step: Step | undefined;
  private orderId = '';
  private startedAt = '';
  private mrzLines: string[] = [];
  /** The paid sale on screen, from the payment step until its receipt closes. */
  private paid: SaleJournalEntry | undefined;
  /** The approved card payment of the sale on screen, whose receipt lines the receipt carries. */
  private cardPayment: TerminalPayment | undefined;
  private readonly card: CardStep;

  constructor(
    private readonly app: CheckoutHost,
    private readonly journal: SalesJournal,
  ) {
    this.card = new CardStep({
      payments: app.api,
      errorText: (err) => customerErrorText(app.t, err),
      show: (screen) => this.go({ name: 'card', screen }),
      approved: (payment) => void this.paidByCard(payment),
      otherMethod: () => this.go({ name: 'payment' }),
      callStaff: () => this.step && this.go({ name: 'staff', back: this.step }),
    });
  }

  get active(): boolean {
    return this.step !== undefined;
  }

  /** The idle reset may cancel any step but a payment under way, a paid sale the server has not stored yet, or a receipt that did not print. */
  cancellable(): boolean {
    if (this.paid && this.paid.storedId === undefined) return false;
    if (this.step?.name === 'receipt' && this.step.view.holding) return false;
    // Also behind the help screen the customer opened from the card step.
    if (this.card.busy) return false;
    return this.step?.name !== 'terminal';
  }

  /**
   * On start, before the shop shows: every sale still in the journal is
   * recorded (the screen says the last sale is being recorded), and the last
   * one's receipt follows; earlier ones, whose customers are long gone, leave
   * the journal as soon as they are stored. With an empty journal the shop shows.
   */
  async resume(): Promise<void> {
    let entries: SaleJournalEntry[] = [];
    try {
      entries = await this.journal.list();
    } catch (err) {
      console.error('the sales journal could not be read', err);
    }
    const last = entries.at(-1);
    const underWay = cardSaleRecord.read();
    if (underWay && entries.some((e) => e.orderId === underWay.orderId)) cardSaleRecord.clear();
    else if (underWay && !last) return this.resumeCard(underWay);
    if (!last) return this.render();
    for (const entry of entries.slice(0, -1)) {
      this.paid = entry;
      this.go({ name: 'recording', resumed: true });
      if (entry.storedId === undefined) await this.store(entry, true);
      await this.journal.remove(entry.orderId).catch((err: unknown) => console.error(`the sales journal could not drop the stored sale ${entry.orderId}`, err));
    }
    this.paid = last;
    this.go({ name: 'recording', resumed: true });
    await this.finish(last, true);
  }

  /** Checkout starts: the order id every attempt to record this sale will carry is made now. */
  begin(): void {
    if (this.app.cart.isEmpty) return;
    this.orderId = newOrderId();
    this.startedAt = new Date().toISOString();
    this.go(this.app.cart.needsAgeCheck ? { name: 'age' } : { name: 'payment' });
  }

  /**
   * A reload during a card payment: the cart comes back, and the payment the
   * server holds for the sale is followed; none open means nothing was charged,
   * and the customer chooses how to pay again.
   */
  private resumeCard(record: CardSaleRecord): void {
    this.app.cart.restore(record.lines);
    this.orderId = record.orderId;
    this.startedAt = record.startedAt;
    this.card.pay({ store: this.app.settings.storeId, amount: this.app.cart.totals(this.startedAt).total, reference: this.orderId }, false);
  }

  end(): void {
    this.card.stop();
    cardSaleRecord.clear();
    this.cardPayment = undefined;
    const stored = this.paid?.storedId !== undefined ? this.paid : undefined;
    if (stored) void this.journal.remove(stored.orderId).catch((err: unknown) => console.error(`the sales journal could not drop the stored sale ${stored.orderId}`, err));
    this.paid = undefined;
    this.step = undefined;
    this.mrzLines = [];
  }

  /** Scans during checkout: MRZ lines on the age check, everything else is ignored. */
  takeScan(code: string): boolean {
    if (!this.step) return false;
    if (this.step.name === 'age' && isMrzLine(code)) {
      this.mrzLines.push(code);
      const doc = this.mrzLines.length >= 2 ? readMrz(this.mrzLines.slice(-3), new Date()) ?? readMrz(this.mrzLines.slice(-2), new Date()) : undefined;
      if (doc) {
        this.mrzLines = [];
        void this.checkAge({ birthDate: doc.birthDate, document: doc });
      }
    }
    return true;
  }

  render(): void {
    const { app } = this;
    const t = app.t;
    const step = this.step;
    if (!step) return app.showShop();
    const total = app.cart.totals(this.startedAt).total;
    const back = () => (this.end(), app.showShop());
    switch (step.name) {
      case 'age':
        return app.show(ageCheckScreen(t, app.cart.minimumAge ?? DEFAULT_MINIMUM_AGE, { birthDate: (d) => this.typedBirthDate(d), mrz: (text) => this.typedMrz(text), cancel: back }, step.error));
      case 'refused': {
        const refused = app.cart.linesAbove(step.age).map((l) => ({ productId: l.product.id, name: l.product.name, age: minimumAgeOf(l.product) ?? 0 }));
        return app.show(refusedScreen(t, step.blocked, refused, () => this.removeRefused(step.age), () => this.go({ name: 'staff', back: step })));
      }
      case 'staff':
        return app.show(helpScreen(t, () => this.go(step.back)));
      case 'payment':
        return app.show(paymentScreen(t, total, this.methodChoices(), (method) => this.choose(method, total), back));
      case 'card':
        return app.show(step.screen.render(t));
      case 'terminal':
        return app.show(paymentTerminalStep(t, step.method, total, (outcome) => void this.record(outcome), () => this.go({ name: 'payment' })));
      case 'recording':
        return app.show(recordingScreen(t, step, () => this.go({ name: 'staff', back: step })));
      case 'receipt':
        return app.show(step.view.screen(t, () => app.reset()));
    }
  }

  /** The methods the store takes now; card whose terminal does not answer stays in the list, greyed, with the reason. */
  private methodChoices(): MethodChoice[] {
    const { app } = this;
    return paymentMethodsOffered(app.settings, app.offline, true).map((method) =>
      method === 'providerA' && !app.terminalReachable ? { method, unavailable: 'cardUnavailable' } : { method },
    );
  }

  /** Card goes to the terminal; the other methods keep the step where the customer confirms on screen. */
  private choose(method: PaymentMethod, total: number): void {
    if (method !== 'providerA') return this.go({ name: 'terminal', method });
    cardSaleRecord.write({ orderId: this.orderId, startedAt: this.startedAt, lines: this.app.cart.lines });
    this.card.pay({ store: this.app.settings.storeId, amount: total, reference: this.orderId }, true);
  }

  /** The terminal approved: the sale is recorded with its payment, which gives the order its method and brand. */
  private paidByCard(payment: TerminalPayment): Promise<void> {
    this.cardPayment = payment;
    return this.record({ paymentMethod: 'card', payment: payment.id, ...(payment.brand ? { paymentBrand: payment.brand } : {}), transactionDate: new Date().toISOString() });
  }

  /** The methods offered may change while the customer chooses (the terminal answers again, the upstream went away). */
  methodsChanged(): void {
    if (this.step?.name === 'payment') this.render();
  }

  private go(step: Step): void {
    this.step = step;
    this.render();
  }

  private typedBirthDate(date: CalendarDate): void {
    if (Number.isNaN(date.year)) return this.go({ name: 'age', error: this.app.t('ageInvalid') });
    void this.checkAge({ birthDate: date });
  }

  private typedMrz(text: string): void {
    const doc = readMrz(text.split(/\r?\n/), new Date());
    if (!doc) return this.go({ name: 'age', error: this.app.t('mrzInvalid') });
    void this.checkAge({ birthDate: doc.birthDate, document: doc });
  }

  /**
   * Takes out what the customer may not buy. Lines left that still need an
   * age are ones the check just covered: on to payment. Otherwise back to
   * the cart, which says what was taken out.
   */
  private removeRefused(age: number): void {
    const { app } = this;
    const removed = app.cart.removeAbove(age).map((l) => l.product.name);
    if (app.cart.needsAgeCheck) return this.go({ name: 'payment' });
    this.end();
    app.showShop(app.t('ageRemoved', { names: new Intl.ListFormat(app.language).format(removed) }));
  }

  private async checkAge(evidence: AgeEvidence): Promise<void> {
    const { app } = this;
    try {
      const verdict = await verifyAge(app.api, evidence, app.settings.storeId, new Date(), app.cart.minimumAge ?? DEFAULT_MINIMUM_AGE);
      // A blocked identity may buy none of the restricted lines, whatever its age.
      this.go(verdict.access ? { name: 'payment' } : { name: 'refused', blocked: verdict.reason === 'blocked', age: verdict.reason === 'underage' ? verdict.age : 0 });
    } catch (err) {
      this.go({ name: 'age', error: errorText(err) });
    }
  }

  /** The payment step reported success: the sale is in the journal before it is sent. */
  private async record(outcome: PaymentOutcome): Promise<void> {
    if (this.paid) return;
    const { app } = this;
    const lines = app.cart.totals(this.startedAt).lines.map((l) => l.priced);
    const entry: SaleJournalEntry = { orderId: this.orderId, paidAt: outcome.transactionDate, sale: saleOf(this.orderId, app.settings.storeId, this.startedAt, lines, outcome) };
    this.paid = entry;
    this.go({ name: 'recording', resumed: false });
    await this.keep(entry);
    cardSaleRecord.clear();
    await this.finish(entry, false);
  }

  /**
   * Records the sale (unless already stored), starts printing its receipt and
   * shows it; the cart empties only once the server has the order. A receipt
   * the journal says printed before a reload is shown, not printed again.
   */
  private async finish(entry: SaleJournalEntry, resumed: boolean): Promise<void> {
    const { app } = this;
    const stored: StoredSale = { ...entry, storedId: entry.storedId ?? (await this.store(entry, resumed)) };
    this.paid = stored;
    const products = new Map(app.cart.lines.map((line) => [line.product.id, line.product]));
    app.cart.clear();
    await this.keep(stored);
    const view = new ReceiptView(app.api, app.receiptSetup, app.settings, stored.storedId, stored.receiptPrinted === true, await this.cardReceipt(stored));
    void view.print(() => app.language, () => this.printed(stored));
    view.showOrder(await this.readBack(stored), (productId) => products.get(productId));
    this.go({ name: 'receipt', view });
  }

  /**
   * The terminal's customer receipt lines of a sale paid by card, exactly as
   * the terminal gave them; after a reload they are read from its payment.
   */
  private async cardReceipt(stored: StoredSale): Promise<string[] | undefined> {
    const id = stored.sale.payment;
    if (!id) return undefined;
    if (this.cardPayment?.id === id) return this.cardPayment.receipt.customer;
    try {
      return (await this.app.api.payment(id)).receipt.customer;
    } catch (err) {
      console.warn(`the card receipt of payment ${id} could not be read; the receipt shows the sale without it`, err);
      return undefined;
    }
  }

  /** A printed receipt is noted in the journal, so that a reload before it is closed does not print it again. */
  private async printed(stored: StoredSale): Promise<void> {
    if (this.paid?.orderId !== stored.orderId) return;
    this.paid = { ...stored, receiptPrinted: true };
    await this.keep(this.paid);
  }

  /** Sends the sale until the server stores it; each failure shows on the recording screen, or behind the help screen the customer opened. */
  private store(entry: SaleJournalEntry, resumed: boolean): Promise<string> {
    return sendSale(this.app.api, entry.sale, (failure) => {
      const recording: Step = { name: 'recording', resumed, failure };
      if (this.step?.name === 'staff') this.step = { name: 'staff', back: recording };
      else this.go(recording);
    });
  }

  /** A journal that cannot be written is logged; the sale is still sent from memory. */
  private async keep(entry: SaleJournalEntry): Promise<void> {
    try {
      await this.journal.put(entry);
    } catch (err) {
      console.error(`the sales journal could not keep sale ${entry.orderId}`, err);
    }
  }

  /** The stored order for the receipt; when reading it back fails, the sale as the till sent it. */
  private async readBack(stored: StoredSale): Promise<Order> {
    try {
      return await this.app.api.order(stored.storedId);
    } catch (err) {
      console.warn(`order ${stored.storedId} is stored but could not be read back; the receipt shows the sale as sent`, err);
      return orderOfSale(stored);
    }
  }
}
