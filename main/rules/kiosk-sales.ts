import type { OrderLine } from '../../shared/api/orders.js';
import type { LineFlagReason } from '../../shared/api/reports.js';
import { multiplyCents, unitPriceAt, type PricedProduct } from '../../shared/order-pricing.js';
import { SALE_RESEND_WINDOW_MS } from '../../shared/sales-journal.js';
import { taxRateOf } from '../../shared/tax.js';

/** How far a kiosk's clock may run ahead of the server's. */
export const CLOCK_MARGIN_MS = 5 * 60 * 1000;
/** A kiosk sale recorded more than this after its order date is listed as late on the day it was recorded. */
export const LATE_SALE_AFTER_MS = 30 * 60 * 1000;
/** The payment states a kiosk's own sales have: it records a sale once it is paid (`renderer/kiosk/checkout.ts`). */
export const KIOSK_PAYMENT_STATES: readonly string[] = ['successful'];

const DAY_MS = 24 * 60 * 60 * 1000;

/** Why a kiosk key's `orderDate` is refused, or undefined when it lies within the journal's resend window. */
export function kioskOrderDateProblem(orderDate: string, now: Date): string | undefined {
  const at = Date.parse(orderDate);
  const latest = new Date(now.getTime() + CLOCK_MARGIN_MS);
  if (at > latest.getTime()) {
    return `orderDate: ${orderDate} is in the future; a kiosk key records sales up to ${CLOCK_MARGIN_MS / 60_000} minutes ahead of the server's clock (${now.toISOString()}). Check the kiosk's clock.`;
  }
  const earliest = new Date(now.getTime() - SALE_RESEND_WINDOW_MS);
  if (at < earliest.getTime()) {
    return (
      `orderDate: ${orderDate} is more than ${SALE_RESEND_WINDOW_MS / DAY_MS} days ago (before ${earliest.toISOString()}), ` +
      "older than a kiosk's journal resends a sale; staff record such a sale with a write key."
    );
  }
  return undefined;
}

/** Why a kiosk key's `paymentState` is refused, or undefined for a state a kiosk produces. */
export function kioskPaymentStateProblem(paymentState: string | undefined): string | undefined {
  if (paymentState === undefined || KIOSK_PAYMENT_STATES.includes(paymentState)) return undefined;
  return (
    `paymentState: a kiosk key records paid sales only (${KIOSK_PAYMENT_STATES.map((s) => JSON.stringify(s)).join(', ')}), not ${JSON.stringify(paymentState)}; ` +
    'staff change a payment state with POST /orders/{id} and a write key.'
  );
}

/** The catalog's values for a line, next to the reasons the recorded line differs from them. */
export interface LineCheck {
  reasons: LineFlagReason[];
  catalogPrice: number | null;
  catalogTaxRate: number | null;
  catalogDeposit: number | null;
}

/**
 * How a kiosk's recorded line differs from the catalog at the order's date
 * (sale price within its window): an unknown product, a price, tax rate or
 * deposit of its own, or a total of 0 for a product that has a price.
 */
export function checkKioskLine(line: OrderLine, product: PricedProduct | undefined, orderDate: string): LineCheck {
  if (!product) return { reasons: ['unknown-product'], catalogPrice: null, catalogTaxRate: null, catalogDeposit: null };
  const unitPrice = unitPriceAt(product, orderDate);
  const catalogPrice = multiplyCents(unitPrice, line.quantity);
  const catalogTaxRate = taxRateOf(product.taxCategory);
  const catalogDeposit = multiplyCents(product.depositProduct ?? 0, line.quantity);
  const reasons: LineFlagReason[] = [];
  if (line.price !== catalogPrice) reasons.push('price');
  if (line.taxRate !== catalogTaxRate) reasons.push('tax-rate');
  if (line.deposit !== catalogDeposit) reasons.push('deposit');
  if (line.price === 0 && unitPrice > 0) reasons.push('zero-total');
  return { reasons, catalogPrice, catalogTaxRate, catalogDeposit };
}

/** Whether a sale was recorded so long after its order date that staff should see it on the day it was recorded. */
export function isLateSale(orderDate: string, recordedAt: string): boolean {
  return Date.parse(recordedAt) - Date.parse(orderDate) > LATE_SALE_AFTER_MS;
}
