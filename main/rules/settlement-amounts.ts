/** The arithmetic of settlements: refunds spread over lines, margins rounded once per supplier and store. */

/**
 * `value / divisor` rounded half away from zero, in integers: a refund that
 * undoes a sale undoes its margin to the cent.
 */
export function divideRoundingHalfUp(value: number, divisor: number): number {
  const sign = value < 0 ? -1 : 1;
  const magnitude = Math.abs(value);
  const quotient = Math.floor(magnitude / divisor);
  const rest = magnitude - quotient * divisor;
  // + 0 turns -0 into 0: no margin is "minus nothing".
  return sign * (rest * 2 >= divisor ? quotient + 1 : quotient) + 0;
}

/** Percent carried to four decimals, so 12.5 % of cents stays exact in integers. */
const PERCENT_SCALE = 10_000;

/** The margin of `gross` cents at `percent`, rounded half up to a cent. */
export function marginOf(gross: number, percent: number): number {
  return divideRoundingHalfUp(gross * Math.round(percent * PERCENT_SCALE), 100 * PERCENT_SCALE);
}

/** The margin percent of a supplier's sales at a store: the supplier's own, else the store's, else 0. */
export function marginPercentOf(supplierMargin: number | null | undefined, storeMargin: number | null | undefined): number {
  if (typeof supplierMargin === 'number' && Number.isFinite(supplierMargin)) return supplierMargin;
  if (typeof storeMargin === 'number' && Number.isFinite(storeMargin)) return storeMargin;
  return 0;
}

/**
 * An order's `refunded` cents spread over its lines with a supplier in
 * proportion to their price (largest remainder, so the shares add up
 * exactly), capped at what those lines cost. A function of the cumulative
 * refund, so a later refund enters as the difference of two spreads.
 */
export function spreadRefund(refunded: number, prices: readonly number[]): number[] {
  const total = prices.reduce((sum, price) => sum + price, 0);
  const spread = Math.min(Math.max(refunded, 0), total);
  if (spread === 0 || total === 0) return prices.map(() => 0);
  const exact = prices.map((price) => (spread * price) / total);
  const shares = exact.map(Math.floor);
  let left = spread - shares.reduce((sum, share) => sum + share, 0);
  const byRemainder = exact.map((value, i) => ({ i, rest: value - Math.floor(value) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}
