import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideRoundingHalfUp, marginOf, marginPercentOf, spreadRefund } from '../main/rules/settlement-amounts.js';
import { refundLines, saleLines } from '../main/settlements/take-lines.js';
import { isSpsText, spsText } from '../main/settlements/sps-text.js';
import type { CandidateOrder } from '../main/storage/settlements.js';

describe('marginOf: rounded half up, once per supplier and store', () => {
  it.each([
    [900, 15, 135],
    [450, 15, 68],
    [-450, 15, -68],
    [2016, 20, 403],
    [4335, 25, 1084],
    [1000, 12.5, 125],
    [1, 50, 1],
    [0, 20, 0],
    [999, 0, 0],
  ])('%i cents at %d %% is %i', (gross, percent, margin) => {
    expect(marginOf(gross, percent)).toBe(margin);
  });

  it('undoes a sale’s margin exactly when the sale is refunded', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 10_000 }), (gross, basis) => {
      expect(marginOf(-gross, basis / 100) + marginOf(gross, basis / 100)).toBe(0);
    }));
  });

  it('divides half away from zero', () => {
    expect([divideRoundingHalfUp(5, 10), divideRoundingHalfUp(4, 10), divideRoundingHalfUp(-5, 10), divideRoundingHalfUp(15, 10)]).toEqual([1, 0, -1, 2]);
  });
});

describe('marginPercentOf', () => {
  it.each([
    [15, 20, 15],
    [0, 20, 0],
    [undefined, 20, 20],
    [null, 25, 25],
    [undefined, undefined, 0],
  ])('supplier %s, store %s: %d', (supplier, store, percent) => {
    expect(marginPercentOf(supplier, store)).toBe(percent);
  });
});

describe('spreadRefund', () => {
  it('spreads in proportion to price, adding up exactly, capped at what the lines cost', () => {
    expect(spreadRefund(100, [300, 100])).toEqual([75, 25]);
    expect(spreadRefund(100, [100, 100, 100])).toEqual([34, 33, 33]);
    expect(spreadRefund(5000, [300, 100])).toEqual([300, 100]);
    expect(spreadRefund(0, [300, 100])).toEqual([0, 0]);
  });

  it('always adds up to the refund (or the lines’ total) and never gives a line more than its price', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 20 }), fc.integer({ min: 0, max: 3_000_000 }), (prices, refunded) => {
      const shares = spreadRefund(refunded, prices);
      const total = prices.reduce((s, p) => s + p, 0);
      expect(shares.reduce((s, p) => s + p, 0)).toBe(Math.min(refunded, total));
      shares.forEach((share, i) => expect(share).toBeLessThanOrEqual(prices[i]!));
    }));
  });
});

describe('the lines a settlement takes of an order', () => {
  const order = (refunded: number, accounted: number): CandidateOrder => ({
    id: 'o1',
    store: 's1',
    orderDate: '2026-11-02T10:00:00.000Z',
    recordedAt: '2026-11-02T10:00:01.000Z',
    refunded,
    accounted,
    products: JSON.stringify([
      { productId: 'p1', quantity: 0.355, title: 'Käse', price: 1026, netPrice: 1000, tax: 26, taxRate: 0.026, type: 'product', supplier: 'a', deposit: 0 },
      { productId: 'p2', quantity: 1, title: 'Kaffee', price: 800, netPrice: 740, tax: 60, taxRate: 0.081, type: 'product', deposit: 0 },
      { productId: 'p3', quantity: 2, title: 'Saft', price: 900, netPrice: 877, tax: 23, taxRate: 0.026, type: 'product', supplier: 'b', deposit: 100 },
    ]),
  });

  it('takes the lines with a supplier at their price less their share of the refunds so far', () => {
    expect(saleLines(order(0, 0)).map((l) => [l.line, l.supplier, l.amount])).toEqual([[0, 'a', 1026], [2, 'b', 900]]);
    expect(saleLines(order(500, 0)).map((l) => l.amount)).toEqual([1026 - 266, 900 - 234]);
  });

  it('takes a refund after settlement as the difference of the two spreads, negative', () => {
    const later = refundLines(order(500, 0));
    expect(later.map((l) => [l.kind, l.supplier, l.amount])).toEqual([['refund', 'a', -266], ['refund', 'b', -234]]);
    const settledFirst = saleLines(order(200, 0)).reduce((s, l) => s + l.amount, 0);
    const thenRefunded = refundLines(order(500, 200)).reduce((s, l) => s + l.amount, 0);
    expect(settledFirst + thenRefunded).toBe(1926 - 500);
  });
});

describe('spsText: the Swiss Payment Standards’ characters', () => {
  it.each([
    ['Müller & Söhne', 'Müller & Söhne'],
    ['“Bio” Hof – Nguyễn', '"Bio" Hof - Nguyen'],
    ['Łódź Ørsted Œuvre', 'Łódź Ørsted Œuvre'],
    ['Ферма 🍎 Hof', '..... . Hof'],
    ['  Hof\tam\nSee  ', 'Hof am See'],
  ])('%s -> %s', (text, sps) => {
    expect(spsText(text, 70)).toBe(sps);
    expect(isSpsText(spsText(text, 70))).toBe(true);
  });

  it('cuts to the length allowed', () => {
    expect(spsText('Ä'.repeat(80), 70)).toBe('Ä'.repeat(70));
  });
});
