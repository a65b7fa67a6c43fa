/**
 * A product's margin and whether it lies in its category's range. The margin
 * is a percent of the selling price, VAT included on both sides: the same
 * basis as a settlement's `supplierMargin` and `generalMargin`, so the
 * category's range and a supplier's margin speak of the same number, and a
 * shop not registered for VAT has no net price to speak of.
 */

/** Where a margin lies against its category's range; `no-range` when the category sets no bound. */
export type MarginStanding = 'inside' | 'below-min' | 'above-max' | 'no-range';

export interface ProductMargin {
  /** (price - costPrice) / price, in percent to one decimal, rounded half up. */
  percent: number;
  standing: MarginStanding;
}

export interface MarginRange {
  marginMinPercent?: number | undefined;
  marginMaxPercent?: number | undefined;
}

/** The margin of a price over a cost price, in cents, as a percent to one decimal; undefined without a cost price or a price. */
export function marginPercent(price: number | undefined, costPrice: number | undefined): number | undefined {
  if (price === undefined || costPrice === undefined || !(price > 0)) return undefined;
  // In tenths of a percent, rounded on integers: 1 cent over 3 francs is 0.3 %, not 0.33333.
  const tenths = ((price - costPrice) * 1000) / price;
  return (Math.sign(tenths) * Math.round(Math.abs(tenths))) / 10 + 0;
}

/** Where `percent` lies against the range; a bound not set is not checked. */
export function marginStanding(percent: number, range: MarginRange | undefined): MarginStanding {
  const min = range?.marginMinPercent;
  const max = range?.marginMaxPercent;
  if (min === undefined && max === undefined) return 'no-range';
  if (min !== undefined && percent < min) return 'below-min';
  if (max !== undefined && percent > max) return 'above-max';
  return 'inside';
}

/** The product's margin at its regular price (a sale price is a passing exception) against its category's range. */
export function productMargin(product: { price?: number | undefined; costPrice?: number | undefined }, category: MarginRange | undefined): ProductMargin | undefined {
  const percent = marginPercent(product.price, product.costPrice);
  return percent === undefined ? undefined : { percent, standing: marginStanding(percent, category) };
}
