import type { CalendarDate } from './age.js';
import { verifyAge, type AgeEvidence } from './age-verification.js';
import { ApiError } from './api-client.js';
import type { KioskApp } from './app.js';
import { newOrderId, recordSale } from './checkout.js';
import { isMrzLine, readMrz } from './mrz.js';
import { paymentTerminalStep, type PaymentOutcome } from './payment-terminal.js';
import { ageCheckScreen, refusedScreen } from './screens/age-check.js';
import { helpScreen } from './screens/help.js';
import { ReceiptView } from './receipt-view.js';
import { paymentScreen, recordingScreen } from './screens/payment.js';
import { paymentMethodsOffered, type PaymentMethod } from './store-settings.js';

type Step =
  | { name: 'age'; error?: string }
  | { name: 'refused'; blocked: boolean }
  | { name: 'staff'; back: Step }
  | { name: 'payment' }
  | { name: 'terminal'; method: PaymentMethod }
  | { name: 'recording'; retrying: boolean; error?: string }
  | { name: 'receipt'; view: ReceiptView };

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** From "Pay" to the receipt: age check when needed, payment method, the terminal step, recording the sale. */
export class CheckoutFlow {
  private step: Step | undefined;
  private orderId = '';
  private startedAt = '';
  private mrzLines: string[] = [];

  constructor(private readonly app: KioskApp) {}

  get active(): boolean {
    return this.step !== undefined;
  }

  /** The idle reset may cancel any step but a payment under way, a sale being recorded, or a receipt that did not print yet. */
  cancellable(): boolean {
    return this.step?.name !== 'terminal' && this.step?.name !== 'recording' && !(this.step?.name === 'receipt' && this.step.view.holding);
  }

  /** Checkout starts: the order id every attempt to record this sale will carry is made now. */
  begin(): void {
    if (this.app.cart.isEmpty) return;
    this.orderId = newOrderId();
    this.startedAt = new Date().toISOString();
    this.go(this.app.cart.needsAgeCheck ? { name: 'age' } : { name: 'payment' });
  }

  end(): void {
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
        return app.show(ageCheckScreen(t, { birthDate: (d) => this.typedBirthDate(d), mrz: (text) => this.typedMrz(text), cancel: back }, step.error));
      case 'refused':
        return app.show(refusedScreen(t, step.blocked, () => (app.cart.removeAgeRestricted(), back()), () => this.go({ name: 'staff', back: step })));
      case 'staff':
        return app.show(helpScreen(t, () => this.go(step.back)));
      case 'payment':
        return app.show(paymentScreen(t, total, paymentMethodsOffered(app.settings, app.offline), (method) => this.go({ name: 'terminal', method }), back));
      case 'terminal':
        return app.show(paymentTerminalStep(t, step.method, total, (outcome) => void this.record(outcome), () => this.go({ name: 'payment' })));
      case 'recording':
        return app.show(recordingScreen(t, step, () => this.go({ name: 'staff', back: step })));
      case 'receipt':
        return app.show(step.view.screen(t, () => app.reset()));
    }
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

  private async checkAge(evidence: AgeEvidence): Promise<void> {
    try {
      const verdict = await verifyAge(this.app.api, evidence, this.app.settings.storeId, new Date());
      this.go(verdict.access ? { name: 'payment' } : { name: 'refused', blocked: verdict.reason === 'blocked' });
    } catch (err) {
      this.go({ name: 'age', error: errorText(err) });
    }
  }

  private async record(outcome: PaymentOutcome): Promise<void> {
    const { app } = this;
    this.go({ name: 'recording', retrying: false });
    try {
      const id = await recordSale(
        app.api,
        { orderId: this.orderId, store: app.settings.storeId, products: app.cart.orderLines(), orderDate: this.startedAt, ...outcome },
        () => this.go({ name: 'recording', retrying: true }),
      );
      const products = new Map(app.cart.lines.map((line) => [line.product.id, line.product]));
      app.cart.clear();
      const view = new ReceiptView(app.api, app.receiptSetup, app.settings, await app.api.order(id), (productId) => products.get(productId));
      this.go({ name: 'receipt', view });
      void view.print(app.language, () => document.querySelector('.receipt-paper'));
    } catch (err) {
      this.go({ name: 'recording', retrying: false, error: err instanceof ApiError ? err.message : errorText(err) });
    }
  }
}
