import type { Payment } from '../../shared/api/payments.js';
import { ApiError } from './api-client.js';

/** What the card step reads of a payment (`GET /payments/{id}`). */
export type TerminalPayment = Pick<Payment, 'id' | 'state' | 'amount' | 'brand' | 'message' | 'reason' | 'receipt' | 'createdAt' | 'order'>;

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

/**
 * A declined or cancelled payment charged nothing, and a refunded one gave it
 * all back (the server also reverses an approval of a wrong amount that way):
 * the sale may be paid anew. Any other may hold the customer's money.
 */
const holdsNoMoney = (payment: TerminalPayment) => payment.state === 'declined' || payment.state === 'cancelled' || payment.state === 'refunded';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The payment of a sale that is to be followed rather than started again: any
 * that may hold the customer's money (open at the terminal, approved whether
 * or not its sale is recorded yet, partly given back). An open one comes
 * first, then an approved one, then the newest.
 */
export function paymentToFollow(payments: readonly TerminalPayment[]): TerminalPayment | undefined {
  const candidates = payments.filter((p) => !holdsNoMoney(p)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return candidates.find(isUnsettled) ?? candidates.find((p) => p.state === 'approved') ?? candidates[0];
}

/** The payment a `409` names in `data`: the server holds one for the sale already. */
function paymentOfConflict(err: unknown): TerminalPayment | undefined {
  if (!(err instanceof ApiError) || err.status !== 409 || typeof err.body !== 'object' || err.body === null) return undefined;
  const data = (err.body as { data?: Partial<TerminalPayment> }).data;
  return typeof data?.id === 'string' && typeof data.state === 'string' ? (data as TerminalPayment) : undefined;
}

/**
 * One card payment of a sale, from the first tap until the terminal has
 * settled it. The payment lives in the server: before starting one, the sale's
 * reference is looked up, and a payment that may hold the customer's money is
 * followed instead, so that a reload or a second tap never charges twice. A
 * start whose outcome is unknown (no answer, a 5xx) is never simply sent
 * again: the sale is looked up first, and only when it has no such payment is
 * the start repeated. Cancel only asks the terminal to abort; what the terminal
 * answers decides (an approval that comes after it stands).
 */
export class CardPayment {
  private current: TerminalPayment | undefined;
  private cancelAsked = false;
  private cancelSent = false;
  private stopped = false;
  private lastMessage: string | null = null;

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
   * Follows the sale's payment, or starts one (`start`; when false and none
   * is under way, answers undefined and charges nothing). Resolves with the
   * settled payment: approved, declined, cancelled or given back.
   */
  async run(start: boolean): Promise<TerminalPayment | undefined> {
    const found = await this.lookUp();
    if (!found && !start) return undefined;
    let payment: TerminalPayment = found ?? (await this.begin());
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

  /** The sale's payment to follow, asked until the server answers. */
  private async lookUp(): Promise<TerminalPayment | undefined> {
    return paymentToFollow(await this.retrying(() => this.api.paymentsOf(this.sale.reference)));
  }

  /**
   * Starts the payment. A 409 naming the sale's payment means the server holds
   * one already: that one is followed. Without an answer the server may have
   * started it all the same, so the sale is looked up before any new start.
   */
  private async begin(): Promise<TerminalPayment> {
    for (;;) {
      try {
        return await this.api.startPayment({ ...this.sale, currency: 'CHF' });
      } catch (err) {
        const held = paymentOfConflict(err);
        if (held) return held;
        if (this.stopped || (err instanceof ApiError && err.status < 500 && err.status !== 409)) throw err;
        console.warn(`starting the card payment of sale ${this.sale.reference} had no clear outcome; looking the sale up before starting again`, err);
        this.onChange(this.current, true);
        const found = await this.lookUp();
        if (found) return found;
        await sleep(RETRY_MS);
      }
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
    // The terminal's and the server's words are for staff; the customer reads the kiosk's own.
    if (payment.message !== this.lastMessage && payment.message) console.info(`card payment ${payment.id} (${payment.state}): ${payment.message}`);
    this.lastMessage = payment.message;
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
