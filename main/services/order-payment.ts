import type { Order, OrderCreate } from '../../shared/api/orders.js';
import type { PaymentStore } from '../storage/payments.js';
import type { Caller } from './caller.js';
import { Conflict, UnprocessableEntity } from './errors.js';

/**
 * Ties a sale to the card payment that paid it: the payment must be approved,
 * of the order's total, at the order's store, and pay no other order.
 */
export function createOrderPayment(payments: PaymentStore) {
  return {
    /** The payment fields the order takes, and the claim to make once it is stored; undefined for a sale paid otherwise. */
    check(caller: Caller, body: OrderCreate, total: number): { fields: Pick<Order, 'paymentState' | 'paymentMethod' | 'paymentBrand'>; claim(orderId: string): void } | undefined {
      if (body.payment === undefined) {
        if (caller.keyKind === 'kiosk' && body.paymentMethod === 'card') {
          throw new UnprocessableEntity('payment: a kiosk records a card sale with the id of its approved payment (POST /payments); none was given');
        }
        return undefined;
      }
      const p = payments.get(caller.orgId, body.payment);
      if (!p || (caller.store && p.store !== caller.store)) throw new UnprocessableEntity(`payment: no payment ${JSON.stringify(body.payment)} in this organization`);
      if (p.store !== body.store) throw new UnprocessableEntity(`payment: payment ${p.id} was taken at store ${JSON.stringify(p.store)}, not at ${JSON.stringify(body.store)}`);
      if (p.state === 'refunding') {
        throw new Conflict(`payment: payment ${p.id} has a refund out at the terminal (refunding); it pays no sale while money may be going back`);
      }
      if (p.state !== 'approved' || p.refused) {
        throw new UnprocessableEntity(`payment: payment ${p.id} is ${p.refused ? 'refused (the terminal approved another amount)' : p.state}; only an approved payment pays a sale`);
      }
      if (p.amount !== total) throw new UnprocessableEntity(`payment: payment ${p.id} is of ${p.amount} cents, the order totals ${total} cents`);
      if (p.orderId !== null) throw new Conflict(`payment: payment ${p.id} already pays order ${p.orderId}`);
      const fields: Pick<Order, 'paymentState' | 'paymentMethod' | 'paymentBrand'> = { paymentState: 'successful', paymentMethod: 'card' };
      if (p.brand !== null) fields.paymentBrand = p.brand;
      return {
        fields,
        claim(orderId) {
          if (!payments.claim(p.id, orderId)) throw new Conflict(`payment: payment ${p.id} already pays another order`);
        },
      };
    },
  };
}

export type OrderPayment = ReturnType<typeof createOrderPayment>;
