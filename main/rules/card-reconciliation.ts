/** Card takings of one brand: how many payments, and their amount net of refunds, in cents. */
export interface BrandTotal {
  brand: string;
  payments: number;
  total: number;
}

/** One brand's line of the day's card reconciliation. */
export interface BrandReconciliation extends BrandTotal {
  /** The terminal's own count and amount; null when the terminal did not answer. */
  terminalPayments: number | null;
  terminalTotal: number | null;
  /** `total - terminalTotal`; null when the terminal did not answer. Zero when both agree. */
  difference: number | null;
}

const byBrand = (a: { brand: string }, b: { brand: string }) => (a.brand < b.brand ? -1 : a.brand > b.brand ? 1 : 0);

/** Sums the totals of several terminals (or payments) per brand. */
export function sumByBrand(totals: readonly BrandTotal[]): BrandTotal[] {
  const sums = new Map<string, BrandTotal>();
  for (const t of totals) {
    const sum = sums.get(t.brand) ?? { brand: t.brand, payments: 0, total: 0 };
    sum.payments += t.payments;
    sum.total += t.total;
    sums.set(t.brand, sum);
  }
  return [...sums.values()].sort(byBrand);
}

/**
 * Puts the server's card payments of a day beside the terminal's own totals,
 * brand by brand. A brand only one side knows gets a line of its own with 0 on
 * the other side, so every difference shows; without the terminal's totals
 * (`undefined`) the terminal's figures and the differences are null.
 */
export function reconcileCardTotals(ours: readonly BrandTotal[], terminal: readonly BrandTotal[] | undefined): BrandReconciliation[] {
  const own = new Map(sumByBrand(ours).map((t) => [t.brand, t]));
  const theirs = terminal ? new Map(sumByBrand(terminal).map((t) => [t.brand, t])) : undefined;
  const brands = new Set([...own.keys(), ...(theirs?.keys() ?? [])]);
  return [...brands].sort().map((brand) => {
    const mine = own.get(brand) ?? { brand, payments: 0, total: 0 };
    if (!theirs) return { ...mine, terminalPayments: null, terminalTotal: null, difference: null };
    const other = theirs.get(brand) ?? { brand, payments: 0, total: 0 };
    return { ...mine, terminalPayments: other.payments, terminalTotal: other.total, difference: mine.total - other.total };
  });
}
