import type { Payment } from '../../shared/api/payments.js';
import { ApiError } from './api-client.js';

/** What the card step reads of a payment (`GET /payments/{id}`). */
export type TerminalPayment = Pick<Payment, 'id' | 'state' | 'amount' | 'brand' | 'message' | 'receipt' | 'createdAt' | 'order'>;

/** The server's payment endpoints, as the card step needs them. */
export interface PaymentApi {
  startPayment(body: { store: string; amount: number; currency: string; reference: string }): Promise<TerminalPayment>;
  payment(id: string): Promise<TerminalPayment>;
  paymentsOf(reference: string): Promise<TerminalPayment[]>;
  cancelPayment(id: string): Promise<TerminalPayment>;
}

/** The sale a card payment is for: its store, total and the till's order number as the terminal's reference. */
export interface CardSale {
  store: string;
  amount: number;
  reference: string;
}

/** How often the card step asks the server how the payment stands. */
const POLL_MS = 400;
/** Pause after a request that got no answer, before asking again. */
const RETRY_MS = 1500;

/** Not settled yet: the server still waits for, or asks, the terminal. */
export const isUnsettled = (payment: TerminalPayment) => payment.state === 'pending' || payment.state === 'unknown';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The payment of a sale that is to be followed rather than started again:
 * one still open at the terminal, or one approved whose sale is not recorded
 * yet. The newest counts; a declined or cancelled one is over.
 */
export function paymentToFollow(payments: readonly TerminalPayment[]): TerminalPayment | undefined {
  const newest = [...payments].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  return newest && (isUnsettled(newest) || (newest.state === 'approved' && newest.order === null)) ? newest : undefined;
}

/**
 * One card payment of a sale, from the first tap until the terminal has
 * settled it. The payment lives in the server: before starting one, the sale's
 * reference is looked up, and a payment still open or already approved for it
 * is followed instead, so that a reload or a second tap never charges twice.
 * Cancel only asks the terminal to abort; what the terminal answers decides
 * (an approval that comes after it stands).
 */
export class CardPayment {
  private current: TerminalPayment | undefined;
  private cancelAsked = false;
  private cancelSent = false;
  private stopped = false;

  constructor(
    private readonly api: PaymentApi,
    private readonly sale: CardSale,
    /** Every change of the payment as the server reports it; `waiting` while a request got no answer. */
    private readonly onChange: (payment: TerminalPayment | undefined, waiting: boolean) => void,
  ) {}

  get payment(): TerminalPayment | undefined {
    return this.current;
  }

  /**
   * Follows the sale's open payment, or starts one (`start`; when false and
   * none is open, answers undefined and charges nothing). Resolves with the
   * settled payment: approved, declined or cancelled.
   */
  async run(start: boolean): Promise<TerminalPayment | undefined> {
    const open = await this.retrying(async () => paymentToFollow(await this.api.paymentsOf(this.sale.reference)));
    if (!open && !start) return undefined;
    let payment: TerminalPayment = open ?? (await this.retrying(() => this.begin()));
    const { id } = payment;
    this.show(payment);
    while (isUnsettled(payment) && !this.stopped) {
      if (this.cancelAsked && !this.cancelSent) await this.sendCancel(id);
      await sleep(POLL_MS);
      payment = await this.retrying(() => this.api.payment(id));
      this.show(payment);
    }
    return payment;
  }

  /** Asks the terminal to abort; the payment ends as the terminal says. */
  cancel(): void {
    this.cancelAsked = true;
  }

  /** The card step was left (the sale was recorded from another path, the page goes): polling ends. */
  stop(): void {
    this.stopped = true;
  }

  /** A start refused with 409 means a payment for the sale is already open: that one is followed. */
  private async begin(): Promise<TerminalPayment> {
    try {
      return await this.api.startPayment({ ...this.sale, currency: 'CHF' });
    } catch (err) {
      const open = paymentToFollow(await this.api.paymentsOf(this.sale.reference));
      if (open) return open;
      throw err;
    }
  }

  private async sendCancel(id: string): Promise<void> {
    try {
      this.show(await this.api.cancelPayment(id));
      this.cancelSent = true;
    } catch (err) {
      console.warn(`asking the terminal to abort payment ${id} failed; asking again`, err);
    }
  }

  private show(payment: TerminalPayment): void {
    this.current = payment;
    this.onChange(payment, false);
  }

  /**
   * A request without an answer (or with a 5xx) is asked again until it gets
   * one: while a payment may be open at the terminal, the kiosk neither gives
   * up on it nor starts another. A refusal (4xx) ends the step.
   */
  private async retrying<T>(request: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await request();
      } catch (err) {
        if (this.stopped || (err instanceof ApiError && err.status < 500)) throw err;
        console.warn(`the server did not answer about the card payment of sale ${this.sale.reference}; asking again`, err);
        this.onChange(this.current, true);
        await sleep(RETRY_MS);
      }
    }
  }
}
