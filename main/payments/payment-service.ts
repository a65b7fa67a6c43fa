import type { Payment, PaymentCreate, PaymentListQuery, PaymentRefund } from '../../shared/api/payments.js';
import type { TerminalCheck, TerminalTotals } from '../../shared/api/terminals.js';
import { newId } from '../rules/ids.js';
import type { Caller } from '../services/caller.js';
import type { Clock } from '../services/clock.js';
import { ApiError, BadRequest, Conflict, NotAllowed, NotFound, UnprocessableEntity } from '../services/errors.js';
import { requireStores } from '../services/store-references.js';
import { toStoredTime } from '../rules/timestamps.js';
import type { PaymentRecord, PaymentStore } from '../storage/payments.js';
import type { StoreStore } from '../storage/stores.js';
import type { PaymentSettling } from './payment-settling.js';
import type { TerminalRegistry } from './terminal-registry.js';
import type { RefundSettling, RefundTold } from './refund-settling.js';
import type { TerminalProtocol } from './terminal-protocol.js';

/** The terminal did not take or confirm what was asked: 502, nothing changed here. */
export class TerminalUnavailable extends ApiError {
  readonly status = 502;
}

/** nexo's ServiceID holds at most 10 characters. */
const SERVICE_ID_LENGTH = 10;

export const paymentOf = (p: PaymentRecord): Payment => ({
  id: p.id,
  store: p.store,
  terminal: p.terminal,
  reference: p.reference,
  amount: p.amount,
  refunded: p.refunded,
  currency: p.currency,
  state: p.state,
  brand: p.brand,
  maskedPan: p.maskedPan,
  message: p.message,
  reason: p.reason,
  order: p.orderId,
  refusal: p.refused && p.charged ? { amount: p.charged.amount, currency: p.charged.currency, reversed: p.state === 'refunded' } : null,
  receipt: { customer: p.customerReceipt, cashier: p.cashierReceipt },
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

const isOpen = (p: PaymentRecord) => p.state === 'pending' || p.state === 'unknown';

/**
 * Card payments at the store's terminal. Each attempt is stored, with its own
 * transaction reference, and on disk before the terminal hears of it; one
 * sale has at most one open attempt.
 */
export function createPaymentService(deps: {
  payments: PaymentStore;
  stores: StoreStore;
  registry: TerminalRegistry;
  protocol: TerminalProtocol;
  settling: PaymentSettling;
  refunds: RefundSettling;
  clock: Clock;
  /** Largest amount one payment may charge, in cents. */
  maxAmount: number;
  /** Resolves once every write so far is on disk. */
  durable: () => Promise<void>;
  /** This installation's name towards terminals, stored with each attempt. */
  saleId: string;
}) {
  const { payments, registry, settling, clock } = deps;

  /** A kiosk key sees its own store's payments only; another's is answered like an unknown one. */
  const mustGet = (caller: Caller, id: string): PaymentRecord => {
    const p = payments.get(caller.orgId, id);
    if (!p || (caller.store && p.store !== caller.store)) throw new NotFound('Payment', id);
    return p;
  };

  /** The sale's payment that charged or may still charge: answered with 409 instead of a second charge. */
  const chargeConflict = (p: PaymentRecord) =>
    new Conflict(
      `reference: sale ${JSON.stringify(p.reference)} already has payment ${p.id}, ${p.state}; follow it with GET /payments/${p.id} instead of charging the sale again`,
      paymentOf(p),
    );

  return {
    async start(caller: Caller, body: PaymentCreate): Promise<Payment> {
      if (caller.store && body.store !== caller.store) {
        throw new NotAllowed(`store: a kiosk key of store ${JSON.stringify(caller.store)} takes payments of that store only, not of ${JSON.stringify(body.store)}`);
      }
      if (body.amount > deps.maxAmount) {
        throw new BadRequest(`amount: ${body.amount} cents is more than the ${deps.maxAmount} cents one card payment may charge here (PAYMENT_MAX_CENTS); take the rest another way`);
      }
      requireStores(deps.stores, caller.orgId, 'store', [body.store]);
      const terminal = registry.forPayment(caller, body.store, body.terminal);
      const charging = payments.charging(caller.orgId, body.store, body.reference);
      if (charging) throw chargeConflict(charging);
      const id = newId();
      const record = { id, orgId: caller.orgId, store: body.store, terminal: terminal.id, reference: body.reference, amount: body.amount, currency: body.currency, createdAt: clock.now().toISOString() };
      try {
        payments.insert({ ...record, serviceId: newId().slice(0, SERVICE_ID_LENGTH), saleId: deps.saleId });
      } catch (err) {
        // Another process stored an attempt of the sale since: the unique index of open payments lets one through.
        const other = payments.charging(caller.orgId, body.store, body.reference);
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && other) throw chargeConflict(other);
        throw err;
      }
      await deps.durable();
      const stored = payments.get(caller.orgId, id) as PaymentRecord;
      void settling.send(stored);
      return paymentOf(stored);
    },

    get(caller: Caller, id: string): Payment {
      return paymentOf(mustGet(caller, id));
    },

    /** The terminal's customer receipt lines of the card payment that paid an order; undefined for an order paid otherwise. */
    cardReceiptOf(caller: Caller, orderId: string): string[] | undefined {
      return payments.byOrder(caller.orgId, orderId)?.customerReceipt;
    },

    /** A sale's attempts, the payments since a time, or the approved ones no order names; a kiosk key sees its store's only. */
    list(caller: Caller, query: PaymentListQuery): Payment[] {
      const found =
        query.reference !== undefined
          ? payments.byReference(caller.orgId, query.reference)
          : query.unrecorded !== undefined
            ? payments.unrecorded(caller.orgId)
            : payments.since(caller.orgId, toStoredTime(query.since as string));
      const store = caller.store ?? query.store;
      return found
        .filter((p) => store === undefined || p.store === store)
        .filter((p) => query.since === undefined || p.createdAt >= toStoredTime(query.since))
        .map(paymentOf);
    },

    /** Asks the terminal to stop; the terminal's own answer still decides, and an approval wins. */
    async cancel(caller: Caller, id: string): Promise<Payment> {
      const p = mustGet(caller, id);
      if (!isOpen(p)) return paymentOf(p);
      payments.askCancel(p.id, clock.now().toISOString());
      const endpoint = registry.endpoint(p.terminal);
      if (endpoint) await deps.protocol.abort(endpoint, p.serviceId, p.saleId).catch(() => undefined);
      return paymentOf(mustGet(caller, id));
    },

    /** Asks the terminal about a transaction it cannot know: any secured answer means it is reachable. */
    async checkTerminal(caller: Caller, terminalId: string): Promise<TerminalCheck> {
      const endpoint = registry.visibleEndpoint(caller, terminalId);
      try {
        await deps.protocol.status(endpoint, newId().slice(0, SERVICE_ID_LENGTH));
        return { terminal: terminalId, reachable: true, message: null };
      } catch (err) {
        return { terminal: terminalId, reachable: false, message: err instanceof Error ? err.message : String(err) };
      }
    },

    async terminalTotals(caller: Caller, terminalId: string): Promise<TerminalTotals> {
      const endpoint = registry.visibleEndpoint(caller, terminalId);
      try {
        return { terminal: terminalId, totals: await deps.protocol.totals(endpoint) };
      } catch (err) {
        throw new TerminalUnavailable(`The terminal did not tell its totals: ${err instanceof Error ? err.message : String(err)}`);
      }
    },

    /**
     * Gives money back at the terminal. The refund is stored, and its payment
     * `refunding`, before the terminal hears of it; the answer is awaited, and
     * when it is lost the payment stays `refunding` while the server asks the
     * terminal how it ended. A refused approval not yet reversed is reversed now.
     */
    async refund(caller: Caller, id: string, body: PaymentRefund): Promise<Payment> {
      const p = mustGet(caller, id);
      const busy = () => new Conflict(`payment ${p.id} has a refund out at the terminal; wait until GET /payments/${p.id} tells how it ended`, paymentOf(mustGet(caller, id)));
      if (p.refused && p.state === 'refunding') {
        if (body.amount !== undefined && body.amount !== p.charged?.amount) {
          throw new BadRequest(`amount: payment ${p.id} is a refused approval; its whole ${p.charged?.amount ?? 0} cents go back, leave amount out`);
        }
        const told = await deps.refunds.reverse(p.id);
        if (!told) throw busy();
        return answerOf(caller, id, told);
      }
      if (p.state === 'refunding') throw busy();
      if ((p.state !== 'approved' && p.state !== 'partially-refunded') || p.refused) {
        throw new Conflict(`payment ${p.id} is ${p.refused ? 'refused and reversed' : p.state}: only an approved payment can be refunded`, paymentOf(p));
      }
      const left = p.amount - p.refunded;
      const amount = body.amount ?? left;
      if (amount > left) throw new BadRequest(`amount: at most ${left} cents of payment ${p.id} are left to refund, not ${amount}`);
      if (!registry.endpoint(p.terminal) || !p.poiTransaction) throw new UnprocessableEntity(`payment ${p.id} has no terminal transaction to reverse; refund it on the terminal`);
      const refund = deps.refunds.store(p, amount, p.currency, false);
      if (!refund) throw busy();
      return answerOf(caller, id, await deps.refunds.send(refund));
    },
  };

  function answerOf(caller: Caller, id: string, told: RefundTold): Payment {
    if (told.kind === 'refused') throw new UnprocessableEntity(`The terminal refused the refund: ${told.message}`);
    if (told.kind === 'not-reached') throw new TerminalUnavailable(`The terminal could not be reached: nothing was refunded (${told.message})`);
    return paymentOf(mustGet(caller, id));
  }
}

export type PaymentService = ReturnType<typeof createPaymentService>;
