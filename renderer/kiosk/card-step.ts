import { CardPayment, isUnsettled, type CardSale, type PaymentApi, type TerminalPayment } from './card-payment.js';
import { CardTerminalScreen } from './screens/card-terminal.js';

/** What the card step needs of the checkout it runs in. */
export interface CardStepHost {
  readonly payments: PaymentApi;
  /** The customer's words for a refused request. */
  errorText(err: unknown): string;
  show(screen: CardTerminalScreen): void;
  approved(payment: TerminalPayment): void;
  /** Back to the choice of payment method. */
  otherMethod(): void;
  /** The help screen, whose way back leads to the card step again. */
  callStaff(): void;
}

/**
 * The card payment of the sale on screen. One at a time: a second tap on
 * *Card* while a payment runs shows that payment again rather than start
 * another, and the server refuses a second open payment for the sale anyway.
 */
export class CardStep {
  private running: { payment: CardPayment; screen: CardTerminalScreen } | undefined;

  constructor(private readonly host: CardStepHost) {}

  /** A payment is open at the terminal, or the kiosk does not know yet whether it is. */
  get busy(): boolean {
    const payment = this.running?.payment.payment;
    return this.running !== undefined && (!payment || isUnsettled(payment) || payment.state === 'approved');
  }

  /** Pays `sale` by card; with `start` false only a payment already under way is taken up (after a reload). */
  pay(sale: CardSale, start: boolean): void {
    if (this.running) return this.host.show(this.running.screen);
    const screen = new CardTerminalScreen(sale.amount, {
      cancel: () => payment.cancel(),
      retry: () => (this.stop(), this.pay(sale, true)),
      otherMethod: () => (this.stop(), this.host.otherMethod()),
      callStaff: () => this.host.callStaff(),
    });
    const payment = new CardPayment(this.host.payments, sale, (p, waiting) => screen.update(p, waiting));
    const running = { payment, screen };
    this.running = running;
    this.host.show(screen);
    payment.run(start).then(
      (settled) => {
        if (this.running !== running) return;
        if (!settled) return this.stop(), this.host.otherMethod();
        if (settled.state === 'approved') return this.stop(), this.host.approved(settled);
      },
      (err: unknown) => {
        if (this.running === running) screen.fail(this.host.errorText(err));
      },
    );
  }

  /** The checkout left the card step for good: the payment is no longer followed here. */
  stop(): void {
    this.running?.payment.stop();
    this.running = undefined;
  }
}
