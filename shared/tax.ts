/** Swiss VAT category codes the API accepts, with the rate each stands for (as a fraction). */
export const TAX_RATES = {
  '8.1': 0.081,
  '2.6': 0.026,
  '3.8': 0.038,
  '0': 0,
} as const;

export type TaxCategory = keyof typeof TAX_RATES;

export const TAX_CATEGORIES = Object.keys(TAX_RATES) as [TaxCategory, ...TaxCategory[]];

export function taxRateOf(category: TaxCategory): number {
  return TAX_RATES[category];
}
