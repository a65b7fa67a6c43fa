import type { Logger } from 'pino';
import type { Clock } from '../services/clock.js';
import type { PaymentOutcome, PaymentRecord, PaymentStore } from '../storage/payments.js';
import type { RefundSettling } from './refund-settling.js';
import type { TerminalRegistry } from './terminal-registry.js';
import { TerminalAnswerLost, TerminalNotReached, type TerminalProtocol, type TransactionResult } from './terminal-protocol.js';

/** How often an unsettled payment's terminal is asked: the first wait, doubled up to the longest. */
export interface FollowPace {
  firstMs: number;
  maxMs: number;
}

export const DEFAULT_FOLLOW_PACE: FollowPace = { firstMs: 1000, maxMs: 30_000 };

/** Moments at which a test may cut the power (see main/system/crash-point.ts). */
export type PaymentInstant = 'after-payment-sent' | 'after-payment-approved';

const francs = (cents: number, currency: string) => `${currency} ${(cents / 100).toFixed(2)}`;

const outcomeOf = (p: PaymentRecord): PaymentOutcome => ({
  state: p.state,
  brand: p.brand,
  maskedPan: p.maskedPan,
  poiTransaction: p.poiTransaction,
  message: p.message,
  reason: p.reason,
  customerReceipt: p.customerReceipt,
  cashierReceipt: p.cashierReceipt,
  refunded: p.refunded,
  refused: p.refused,
  charged: p.charged,
});

/**
 * Drives each payment attempt to a final state: sends it, applies the
 * terminal's answer to the attempt it names (by its transaction reference),
 * and asks the terminal again, with growing pauses, for every attempt whose
 * answer was lost, until the terminal says how it ended.
 */
export function createPaymentSettling(deps: {
  payments: PaymentStore;
  registry: TerminalRegistry;
  protocol: TerminalProtocol;
  clock: Clock;
  logger: Logger;
  /** Resolves once every write so far is on disk. */
  durable: () => Promise<void>;
  pace: FollowPace;
  crash: (instant: PaymentInstant) => void;
  refunds: RefundSettling;
}) {
  const { payments, registry, protocol, clock, logger } = deps;
  const timers = new Map<string, NodeJS.Timeout>();
  let stopped = false;

  const settle = (p: PaymentRecord, change: Partial<PaymentOutcome>) => payments.settle(p.id, { ...outcomeOf(p), ...change }, clock.now().toISOString());

  /**
   * An approval of another amount or currency than asked is never used: the
   * payment is stored `refunding`, with what the terminal charged, and the
   * server reverses it until the terminal confirms.
   */
  async function refuse(p: PaymentRecord, result: Extract<TransactionResult, { kind: 'approved' }>): Promise<void> {
    const what = `the terminal approved ${francs(result.amount, result.currency)} for a payment of ${francs(p.amount, p.currency)}`;
    logger.warn({ payment: p.id, reference: p.reference, asked: p.amount, approved: result.amount, currency: result.currency }, 'card payment refused: the terminal approved another amount or currency');
    settle(p, {
      state: 'refunding',
      reason: null,
      brand: result.brand,
      maskedPan: result.maskedPan,
      poiTransaction: result.poiTransaction,
      customerReceipt: result.receipt.customer,
      cashierReceipt: result.receipt.cashier,
      refused: true,
      charged: { amount: result.amount, currency: result.currency },
      message: `Refused: ${what}; reversing it: the server asks the terminal until it confirms; staff may refund it meanwhile`,
    });
    await deps.durable();
    await deps.refunds.reverse(p.id);
  }

  async function apply(result: TransactionResult): Promise<void> {
    const p = payments.byServiceId(result.serviceId);
    if (!p) {
      logger.warn({ serviceId: result.serviceId }, 'the terminal answered for a transaction this server did not start: ignored');
      return;
    }
    const late = p.state !== 'pending' && p.state !== 'unknown';
    // An approval is applied even after another verdict: the money was taken, and staff must see it.
    if (late && !(result.kind === 'approved' && (p.state === 'cancelled' || p.state === 'declined'))) return;
    if (result.kind === 'approved') {
      if (result.amount !== p.amount || result.currency !== p.currency) return refuse(p, result);
      settle(p, {
        state: 'approved',
        reason: null,
        brand: result.brand,
        maskedPan: result.maskedPan,
        poiTransaction: result.poiTransaction,
        message: result.message,
        customerReceipt: result.receipt.customer,
        cashierReceipt: result.receipt.cashier,
      });
      await deps.durable();
      deps.crash('after-payment-approved');
      return;
    }
    const message = result.kind === 'busy' ? 'The terminal is busy with another payment: nothing was charged; try again in a moment' : result.message;
    settle(p, { state: result.kind === 'cancelled' ? 'cancelled' : 'declined', message, reason: result.kind === 'busy' ? 'terminal-busy' : null, customerReceipt: result.receipt.customer, cashierReceipt: result.receipt.cashier });
  }

  /**
   * Runs work on a payment that nobody awaits. Once the server stopped (its
   * database closed under a request still out at the terminal), what the work
   * meets is dropped: the attempt stays open in the database, and the next
   * start settles it with the terminal.
   */
  const unawaited = async (paymentId: string, work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (err) {
      if (!stopped) logger.error({ err, payment: paymentId }, 'following a card payment failed');
    }
  };

  const schedule = (id: string, attempt: number) => {
    if (stopped || timers.has(id)) return;
    const wait = Math.min(deps.pace.firstMs * 2 ** attempt, deps.pace.maxMs);
    timers.set(
      id,
      setTimeout(() => {
        timers.delete(id);
        void unawaited(id, () => ask(id, attempt));
      }, wait),
    );
  };

  /** The attempt as it stands now, while it is still open: answers arrive while others are awaited. */
  const stillOpen = (serviceId: string): PaymentRecord | undefined => {
    const p = payments.byServiceId(serviceId);
    return p && (p.state === 'pending' || p.state === 'unknown') ? p : undefined;
  };

  /** One status query; false when the payment is still open afterwards. */
  async function askOnce(p: PaymentRecord): Promise<boolean> {
    const endpoint = registry.endpoint(p.terminal);
    if (!endpoint) return false;
    try {
      const answer = await protocol.status(endpoint, p.serviceId, p.saleId);
      if (answer.kind === 'in-progress') return false;
      if (answer.kind === 'not-found') {
        const current = stillOpen(p.serviceId);
        if (current) settle(current, { state: 'cancelled', message: 'The terminal has no record of this payment: nothing was charged', reason: 'unknown-to-terminal' });
        return true;
      }
      await apply(answer);
      return true;
    } catch (err) {
      if (!(err instanceof TerminalNotReached || err instanceof TerminalAnswerLost)) logger.error({ err, payment: p.id }, 'asking the terminal for a payment failed');
      const current = stillOpen(p.serviceId);
      if (current) settle(current, { message: 'The terminal does not answer; the server keeps asking it how this payment ended' });
      return false;
    }
  }

  async function ask(id: string, attempt: number): Promise<void> {
    const p = stillOpen(id);
    if (p && !(await askOnce(p))) schedule(id, attempt + 1);
  }

  /** Sends a stored attempt to its terminal and settles it with the answer, or follows it when the answer is lost. */
  async function sendNow(p: PaymentRecord): Promise<void> {
    const endpoint = registry.endpoint(p.terminal);
    if (!endpoint) return;
    try {
      const result = await protocol.start(endpoint, { serviceId: p.serviceId, saleId: p.saleId, reference: p.reference, amount: p.amount, currency: p.currency });
      if (result.serviceId !== p.serviceId) logger.warn({ payment: p.id, answeredFor: result.serviceId }, 'the terminal answered a payment request for another transaction');
      await apply(result);
      // An answer for another transaction leaves this one open: ask for its own.
      if (stillOpen(p.serviceId)) {
        payments.markLost(p.id, clock.now().toISOString());
        schedule(p.serviceId, 0);
      }
    } catch (err) {
      if (err instanceof TerminalNotReached) {
        const current = stillOpen(p.serviceId);
        if (current) settle(current, { state: 'cancelled', message: `${err.message}: nothing was charged`, reason: 'terminal-not-reached' });
        return;
      }
      logger.warn({ payment: p.id, err: err instanceof Error ? err.message : String(err) }, 'the answer to a card payment was lost: asking the terminal');
      payments.markLost(p.id, clock.now().toISOString());
      schedule(p.serviceId, 0);
    }
  }

  return {
    apply,

    /** `sendNow`, for the request that stored the attempt: it answers at once and does not wait for the terminal. */
    send(p: PaymentRecord): Promise<void> {
      return unawaited(p.id, () => sendNow(p));
    },

    /**
     * At start: every attempt left open (the process stopped while it was out)
     * is asked about once, all at once; those whose terminal does not answer
     * are asked again in the background, and their sales stay locked.
     */
    async settleOpen(): Promise<void> {
      const open = payments.open();
      for (const p of open) payments.markLost(p.id, clock.now().toISOString());
      await Promise.all(
        open.map(async (p) => {
          const current = payments.byServiceId(p.serviceId) ?? p;
          if (!(await askOnce(current))) schedule(p.serviceId, 0);
        }),
      );
    },

    stop(): void {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type PaymentSettling = ReturnType<typeof createPaymentSettling>;
