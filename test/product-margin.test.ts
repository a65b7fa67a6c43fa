import { describe, expect, it } from 'vitest';
import { marginPercent, marginStanding, productMargin } from '../shared/product-margin.js';

describe('marginPercent: (price - costPrice) / price, to one decimal', () => {
  it.each([
    [400, 350, 12.5],
    [300, 299, 0.3],
    [400, 399, 0.3],
    [300, 200, 33.3],
    [300, 100, 66.7],
    [500, 500, 0],
    [400, 500, -25],
    [300, 301, -0.3],
    [500, 0, 100],
  ])('price %i, cost price %i: %d %%', (price, costPrice, percent) => {
    expect(marginPercent(price, costPrice)).toBe(percent);
  });

  it('is unknown without a cost price or a price above 0', () => {
    expect([marginPercent(400, undefined), marginPercent(undefined, 300), marginPercent(0, 300)]).toEqual([undefined, undefined, undefined]);
  });
});

describe('marginStanding', () => {
  it('checks each bound the category sets, and only those', () => {
    const range = { marginMinPercent: 20, marginMaxPercent: 40 };
    expect([19.9, 20, 40, 40.1].map((p) => marginStanding(p, range))).toEqual(['below-min', 'inside', 'inside', 'above-max']);
    expect(marginStanding(90, { marginMinPercent: 20 })).toBe('inside');
    expect(marginStanding(-5, { marginMaxPercent: 40 })).toBe('inside');
    expect(marginStanding(5, {})).toBe('no-range');
    expect(marginStanding(5, undefined)).toBe('no-range');
  });

  it('judges the rounded percent that staff see', () => {
    // 19.96 % shows as 20 % and is not marked below a minimum of 20 %.
    expect(productMargin({ price: 2505, costPrice: 2005 }, { marginMinPercent: 20 })).toEqual({ percent: 20, standing: 'inside' });
  });
});
