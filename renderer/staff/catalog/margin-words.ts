import type { Category } from '../../../shared/api/categories.js';
import { productMargin, type MarginStanding } from '../../../shared/product-margin.js';
import type { StaffTranslate } from '../texts.js';

export interface MarginWords {
  /** "12.5 %". */
  percent: string;
  standing: MarginStanding;
  /** Why the margin is marked: below the category's minimum or above its maximum; undefined inside the range. */
  outside: string | undefined;
}

/** A product's margin as the catalog shows it, by the rule the catalog file's check applies; undefined without a cost price or a price. */
export function marginWords(t: StaffTranslate, product: { price?: number | undefined; costPrice?: number | undefined }, category: Category | undefined): MarginWords | undefined {
  const margin = productMargin(product, category);
  if (!margin) return undefined;
  const percent = (value: number) => `${new Intl.NumberFormat(t.locale, { maximumFractionDigits: 1 }).format(value)} %`;
  const outside =
    margin.standing === 'below-min'
      ? t('catalogMarginBelow', { min: percent(category!.marginMinPercent!) })
      : margin.standing === 'above-max'
        ? t('catalogMarginAbove', { max: percent(category!.marginMaxPercent!) })
        : undefined;
  return { percent: percent(margin.percent), standing: margin.standing, outside };
}
