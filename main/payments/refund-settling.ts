import type { Logger } from 'pino';
import type { PaymentState } from '../../shared/api/payments.js';
import { newId } from '../rules/ids.js';
import type { Clock } from '../services/clock.js';
import type { Db } from '../storage/database.js';
import type { OrderStore } from '../storage/orders.js';
import type { OutboxStore } from '../storage/outbox.js';
import type { PaymentRecord, PaymentStore } from '../storage/payments.js';
import type { RefundRecord, RefundStore } from '../storage/refunds.js';
import { immediateTransaction } from '../storage/transactions.js';
import type { FollowPace } from './payment-settling.js';
import { createFollowTimers } from './follow-timers.js';
import { refundOrder } from './order-refunds.js';
import type { TerminalRegistry } from './terminal-registry.js';
import { TerminalNotReached, type RefundResult, type TerminalProtocol } from './terminal-protocol.js';

/** nexo's ServiceID holds at most 10 characters. */
const SERVICE_ID_LENGTH = 10;

/** How a refund's own request ended, for the request that asked for it. */
export type RefundTold = { kind: 'done' } | { kind: 'refused'; message: string } | { kind: 'not-reached'; message: string } | { kind: 'lost' };

/** The state a payment returns to when a refund gave nothing back. */
const withoutRefund = (p: PaymentRecord): PaymentState => (p.refunded === 0 ? 'approved' : 'partially-refunded');

/**
 * Drives each refund to a known outcome, as payment-settling does for
 * payments: a refund is stored, its payment `refunding`, before the terminal
 * hears of it; a lost answer is followed by status queries with growing
 * pauses, also after a restart, until the terminal tells. What was given back
 * is added to the payment, and to the order it paid, only once the terminal
 * said so. The server's own reversal of an approval it refused is retried
 * until the terminal confirms it.
 */
export function createRefundSettling(deps: {
  db: Db;
  payments: PaymentStore;
  refunds: RefundStore;
  orders: OrderStore;
  outbox: OutboxStore;
  registry: TerminalRegistry;
  protocol: TerminalProtocol;
  clock: Clock;
  logger: Logger;
  /** Resolves once every write so far is on disk. */
  durable: () => Promise<void>;
  pace: FollowPace;
}) {
  const { db, payments, refunds, registry, protocol, clock, logger } = deps;
  const { later, unawaited, stop } = createFollowTimers(deps.pace, logger, 'refund');
  /** Failed reversals of each refused approval so far: the pause before the next grows with them. */
  const reversalAttempts = new Map<string, number>();
  const now = () => clock.now().toISOString();

  /** Applies the terminal's verdict to the attempt, once: a second answer for it changes nothing. */
  function decide(r: RefundRecord, result: RefundResult): void {
    immediateTransaction(db, () => {
      const at = now();
      if (!refunds.decide(r.id, result.done ? 'done' : 'failed', result.done ? null : result.message, at)) return;
      const p = payments.get(r.orgId, r.paymentId) as PaymentRecord;
      if (result.done) {
        const refunded = p.refunded + r.amount;
        const state: PaymentState = p.refused || refunded >= p.amount ? 'refunded' : 'partially-refunded';
        const message = p.refused ? (p.message ?? '').replace(/; reversing it.*$/, '; the approval was reversed') : p.message;
        payments.settle(p.id, { ...p, state, refunded, message }, at);
        if (!p.refused) refundOrder(deps, p, refunded, at);
      } else if (!p.refused) {
        payments.setState(p.id, withoutRefund(p), at);
      }
    });
    if (result.done) {
      reversalAttempts.delete(r.paymentId);
      return;
    }
    logger.warn({ payment: r.paymentId, refund: r.id, message: result.message }, r.reversal ? 'the terminal did not reverse a refused approval: trying again' : 'the terminal refused a refund');
    if (r.reversal) {
      const attempt = reversalAttempts.get(r.paymentId) ?? 0;
      reversalAttempts.set(r.paymentId, attempt + 1);
      scheduleReversal(r.paymentId, attempt);
    }
  }

  /** Nothing reached the terminal: the attempt gave nothing back. */
  const notReached = (r: RefundRecord, message: string) => decide(r, { done: false, message });

  const stillOpen = (serviceId: string): RefundRecord | undefined => {
    const r = refunds.byServiceId(serviceId);
    return r && (r.state === 'pending' || r.state === 'unknown') ? r : undefined;
  };

  /** One status query about a refund whose answer was lost; false while its outcome is still unknown. */
  async function askOnce(r: RefundRecord): Promise<boolean> {
    const endpoint = registry.endpoint((payments.get(r.orgId, r.paymentId) as PaymentRecord).terminal);
    if (!endpoint) return false;
    try {
      const answer = await protocol.refundStatus(endpoint, r.serviceId);
      if ('kind' in answer) {
        if (answer.kind === 'in-progress') return false;
        const current = stillOpen(r.serviceId);
        if (current) notReached(current, 'The terminal has no record of this refund: nothing was given back');
        return true;
      }
      const current = stillOpen(r.serviceId);
      if (current) decide(current, answer);
      return true;
    } catch (err) {
      logger.warn({ refund: r.id, err: err instanceof Error ? err.message : String(err) }, 'the terminal did not tell how a refund ended: asking again');
      return false;
    }
  }

  function follow(serviceId: string, attempt: number): void {
    later(serviceId, attempt, async () => {
      const r = stillOpen(serviceId);
      if (r && !(await askOnce(r))) follow(serviceId, attempt + 1);
    });
  }

  /** Sends a stored attempt and applies the answer; a lost answer is followed up. */
  async function sendNow(r: RefundRecord): Promise<RefundTold> {
    const p = payments.get(r.orgId, r.paymentId) as PaymentRecord;
    const endpoint = registry.endpoint(p.terminal);
    if (!endpoint || !p.poiTransaction) {
      const message = `payment ${p.id} has no terminal transaction to reverse; refund it on the terminal`;
      notReached(r, message);
      return { kind: 'not-reached', message };
    }
    try {
      const result = await protocol.refund(endpoint, { serviceId: r.serviceId, original: p.poiTransaction, amount: r.amount, currency: r.currency });
      decide(r, result);
      return result.done ? { kind: 'done' } : { kind: 'refused', message: result.message };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof TerminalNotReached) {
        notReached(r, `${message}: nothing was given back`);
        return { kind: 'not-reached', message };
      }
      logger.warn({ payment: p.id, refund: r.id, err: message }, 'the answer to a card refund was lost: asking the terminal');
      refunds.markLost(r.id, now());
      follow(r.serviceId, 0);
      return { kind: 'lost' };
    }
  }

  /**
   * Stores a refund attempt and marks its payment `refunding`, in one
   * transaction; undefined when the payment has a refund out already.
   */
  function store(p: PaymentRecord, amount: number, currency: string, reversal: boolean): RefundRecord | undefined {
    return immediateTransaction(db, () => {
      if (refunds.openOf(p.id)) return undefined;
      const at = now();
      const id = newId();
      const serviceId = newId().slice(0, SERVICE_ID_LENGTH);
      refunds.insert({ id, orgId: p.orgId, paymentId: p.id, serviceId, amount, currency, reversal, createdAt: at });
      payments.setState(p.id, 'refunding', at);
      return refunds.byServiceId(serviceId);
    });
  }

  /** A new attempt to reverse a refused approval, unless one is out or it was reversed meanwhile. */
  async function reverseNow(paymentId: string): Promise<RefundTold | undefined> {
    const p = payments.find(paymentId);
    if (!p || !p.refused || p.state !== 'refunding' || !p.charged) return undefined;
    const r = store(p, p.charged.amount, p.charged.currency, true);
    if (!r) return undefined;
    await deps.durable();
    return sendNow(r);
  }

  function scheduleReversal(paymentId: string, attempt: number): void {
    later(`reverse-${paymentId}`, attempt, async () => void (await reverseNow(paymentId)));
  }

  return {
    store,

    /** Sends a stored attempt and tells how its request ended; a lost answer goes on being followed. */
    async send(r: RefundRecord): Promise<RefundTold> {
      await deps.durable();
      return sendNow(r);
    },

    /** Reverses a refused approval now (the payment must be `refunding` and refused); undefined when an attempt is out already. */
    reverse(paymentId: string): Promise<RefundTold | undefined> {
      return reverseNow(paymentId);
    },

    /** Reverses a refused approval in the background, again and again until the terminal confirms. */
    reverseInBackground(paymentId: string): void {
      void unawaited(paymentId, async () => void (await reverseNow(paymentId)));
    },

    /**
     * At start: every refund left open is asked about once, all at once, and
     * followed in the background while its terminal does not tell; every
     * refused approval not yet reversed is reversed again.
     */
    async settleOpen(): Promise<void> {
      const open = refunds.open();
      for (const r of open) refunds.markLost(r.id, now());
      await Promise.all(
        open.map(async (r) => {
          if (!(await askOnce(r))) follow(r.serviceId, 0);
        }),
      );
      for (const p of payments.unreversed()) if (!refunds.openOf(p.id)) scheduleReversal(p.id, 0);
    },

    stop,
  };
}

export type RefundSettling = ReturnType<typeof createRefundSettling>;
