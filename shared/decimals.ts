/** Quantities and tax rates are exact to this many decimal places. */
export const QUANTITY_DECIMALS = 6;

/** Whether `value` is exact to `QUANTITY_DECIMALS` places (so it has an exact integer form in millionths). */
export function hasExactDecimals(value: number): boolean {
  const scale = 10 ** QUANTITY_DECIMALS;
  return Number.isFinite(value) && Math.round(value * scale) / scale === value;
}
