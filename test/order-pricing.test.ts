import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOnSale, multiplyCents, orderTotal, priceLine, taxOf, type PricedProduct } from '../shared/order-pricing.js';
import { TAX_CATEGORIES, taxRateOf } from '../shared/tax.js';

const milk: PricedProduct = { name: 'Vollmilch 1l', price: 195, taxCategory: '2.6' };
const onSale: PricedProduct = {
  ...milk,
  salePrice: 150,
  salePriceDateFrom: '2026-11-01T00:00:00.000Z',
  salePriceDateTo: '2026-11-30T23:59:59.000Z',
};
const IN_NOVEMBER = '2026-11-15T10:00:00.000Z';

const at1000 = (taxCategory: PricedProduct['taxCategory']): PricedProduct => ({ name: 'Artikel', price: 1000, taxCategory });

/** price, tax, netPrice, taxRate, deposit of the priced line. */
type Expected = [number, number, number, number, number];
type Own = { title?: string; price?: number; taxRate?: number; deposit?: number };
type Case = [name: string, product: PricedProduct, quantity: number, expected: Expected, options?: { at?: string; own?: Own }];

describe('priceLine', () => {
  const cases: Case[] = [
    ['regular price', milk, 1, [195, 5, 190, 0.026, 0]],
    ['quantity > 1', milk, 3, [585, 15, 570, 0.026, 0]],
    ['sale price inside its window', onSale, 1, [150, 4, 146, 0.026, 0]],
    ['sale price on the first instant of the window', onSale, 1, [150, 4, 146, 0.026, 0], { at: '2026-11-01T00:00:00.000Z' }],
    ['sale price on the last instant of the window', onSale, 1, [150, 4, 146, 0.026, 0], { at: '2026-11-30T23:59:59.000Z' }],
    ['regular price just before the window', onSale, 1, [195, 5, 190, 0.026, 0], { at: '2026-10-31T23:59:59.999Z' }],
    ['regular price just after the window', onSale, 1, [195, 5, 190, 0.026, 0], { at: '2026-11-30T23:59:59.001Z' }],
    ['sale price x quantity inside the window', onSale, 4, [600, 15, 585, 0.026, 0]],
    ['VAT 8.1 %', at1000('8.1'), 1, [1000, 75, 925, 0.081, 0]],
    ['VAT 2.6 %', at1000('2.6'), 1, [1000, 25, 975, 0.026, 0]],
    ['VAT 3.8 %', at1000('3.8'), 1, [1000, 37, 963, 0.038, 0]],
    ['VAT 0 %', at1000('0'), 1, [1000, 0, 1000, 0, 0]],
    ['deposit x quantity', { ...milk, depositProduct: 30 }, 6, [1170, 30, 1140, 0.026, 180]],
    ['weighed goods: half a unit of 199 is 99.5, rounded up', { ...milk, price: 199 }, 0.5, [100, 3, 97, 0.026, 0]],
    // 0.285 x 100 is 28.499999999999996 in floating point; the exact 28.5 rounds up.
    ['an exact half cent after a decimal quantity rounds up', { ...milk, price: 100 }, 0.285, [29, 1, 28, 0.026, 0]],
    ['weighed goods below half a cent round down', { ...milk, price: 333 }, 0.333, [111, 3, 108, 0.026, 0]],
    ['deposit of a fraction rounds half up', { ...milk, price: 200, depositProduct: 25 }, 0.5, [100, 3, 97, 0.026, 13]],
    [
      'a line recorded elsewhere keeps its own title, price, rate and deposit',
      onSale,
      2,
      [500, 36, 464, 0.077, 10],
      { own: { title: 'Milch (Aktion)', price: 500, taxRate: 0.077, deposit: 10 } },
    ],
    ['own price only: tax still from the catalog rate', milk, 1, [1000, 25, 975, 0.026, 0], { own: { price: 1000 } }],
    ['own rate only: price still from the catalog', milk, 1, [195, 15, 180, 0.081, 0], { own: { taxRate: 0.081 } }],
  ];

  for (const [name, product, quantity, [price, tax, netPrice, taxRate, deposit], options] of cases) {
    it(name, () => {
      const line = priceLine(product, { productId: 'p1', quantity, ...options?.own }, options?.at ?? IN_NOVEMBER);
      expect(line).toEqual({
        productId: 'p1',
        quantity,
        title: options?.own?.title ?? product.name,
        price,
        netPrice,
        tax,
        taxRate,
        type: 'product',
        deposit,
      });
    });
  }

  it('copies supplier and category from the product', () => {
    const line = priceLine({ ...milk, supplier: 's1', category: 'c1' }, { productId: 'p1', quantity: 1 }, IN_NOVEMBER);
    expect(line).toMatchObject({ supplier: 's1', category: 'c1' });
  });
});

describe('isOnSale', () => {
  const sale = { ...milk, salePrice: 100 };
  const from = '2026-11-01T00:00:00.000Z';
  const to = '2026-11-30T00:00:00.000Z';
  const cases: [name: string, product: PricedProduct, at: string, expected: boolean][] = [
    ['no sale price', { ...milk, salePriceDateFrom: from }, IN_NOVEMBER, false],
    ['a sale price without any date is not scheduled', sale, IN_NOVEMBER, false],
    ['only a start: open-ended after it', { ...sale, salePriceDateFrom: from }, '2030-01-01T00:00:00.000Z', true],
    ['only a start: not before it', { ...sale, salePriceDateFrom: from }, '2026-10-31T00:00:00.000Z', false],
    ['only an end: on from any earlier time', { ...sale, salePriceDateTo: to }, '2020-01-01T00:00:00.000Z', true],
    ['only an end: not after it', { ...sale, salePriceDateTo: to }, '2026-12-01T00:00:00.000Z', false],
    ['a time with an offset is compared in UTC: before the start', onSale, '2026-11-01T00:30:00+01:00', false],
    ['a time with an offset is compared in UTC: on the start', onSale, '2026-11-01T01:00:00+01:00', true],
  ];
  for (const [name, product, at, expected] of cases) {
    it(name, () => expect(isOnSale(product, at)).toBe(expected));
  }
});

describe('taxOf and multiplyCents', () => {
  const cases: [string, () => number, number][] = [
    ['tax on 0 is 0', () => taxOf(0, 0.081), 0],
    ['an exact half cent of tax rounds up (3 x 0.2 / 1.2 = 0.5)', () => taxOf(3, 0.2), 1],
    ['an exact 1.5 cents of tax rounds up (9 x 0.2 / 1.2 = 1.5)', () => taxOf(9, 0.2), 2],
    ['quantity 0 of nothing', () => multiplyCents(0, 2.5), 0],
    ['large totals stay exact', () => multiplyCents(123_456_789, 1000), 123_456_789_000],
  ];
  for (const [name, run, expected] of cases) it(name, () => expect(run()).toBe(expected));
});

describe('orderTotal', () => {
  it('adds every line price and deposit', () => {
    expect(orderTotal([{ price: 100, deposit: 30 }, { price: 250, deposit: 0 }])).toBe(380);
    expect(orderTotal([])).toBe(0);
  });
});

describe('properties against naive arithmetic', () => {
  const cents = fc.integer({ min: 0, max: 1_000_000_000 });
  const category = fc.constantFrom(...TAX_CATEGORIES);

  it('tax of the four VAT rates equals Math.round(price x rate / (1 + rate)), and netPrice + tax = price', () => {
    fc.assert(
      fc.property(cents, category, (price, taxCategory) => {
        const rate = taxRateOf(taxCategory);
        const line = priceLine({ name: 'x', price, taxCategory }, { productId: 'p', quantity: 1 }, IN_NOVEMBER);
        expect(line.tax).toBe(Math.round((price * rate) / (1 + rate)));
        expect(line.netPrice + line.tax).toBe(line.price);
        expect(line.tax).toBeGreaterThanOrEqual(0);
        expect(line.tax).toBeLessThanOrEqual(line.price);
      }),
    );
  });

  it('tax of any rate with 6 decimals equals the naive rounding of the exact fraction', () => {
    fc.assert(
      fc.property(cents, fc.integer({ min: 0, max: 999_999 }), (price, millionths) => {
        // price x millionths is an exact integer and the division is correctly rounded, so Math.round sees the true side of .5.
        expect(taxOf(price, millionths / 1e6)).toBe(Math.round((price * millionths) / (1e6 + millionths)));
      }),
    );
  });

  it('a weighed line (quantity in grams) equals Math.round(unit x grams / 1000)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 1_000_000 }), (unit, grams) => {
        expect(multiplyCents(unit, grams / 1000)).toBe(Math.round((unit * grams) / 1000));
      }),
    );
  });

  it('the order price is the sum of the naively rounded line prices and deposits', () => {
    const spec = fc.record({
      price: fc.integer({ min: 0, max: 100_000 }),
      depositProduct: fc.integer({ min: 0, max: 500 }),
      grams: fc.integer({ min: 1, max: 50_000 }),
      taxCategory: category,
    });
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 20 }), (specs) => {
        const lines = specs.map(({ grams, ...product }) =>
          priceLine({ name: 'x', ...product }, { productId: 'p', quantity: grams / 1000 }, IN_NOVEMBER),
        );
        const naive = specs.reduce(
          (sum, s) => sum + Math.round((s.price * s.grams) / 1000) + Math.round((s.depositProduct * s.grams) / 1000),
          0,
        );
        expect(orderTotal(lines)).toBe(naive);
      }),
    );
  });
});
