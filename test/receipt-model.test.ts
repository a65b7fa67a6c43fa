import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Order } from '../shared/api/orders.js';
import { orderTotal, taxOf } from '../shared/order-pricing.js';
import { buildReceipt, eReceiptUrlOf } from '../shared/receipt/receipt.js';
import { receiptFormat } from '../shared/receipt/receipt-format.js';
import { shortOrderNumber } from '../shared/receipt/short-number.js';
import { TAX_RATES } from '../shared/tax.js';

const STORE = { name: 'Hofladen', address: 'Dorfstrasse 1', zipCode: '3000', city: 'Bern', vatNumber: 'CHE-123.456.789 MWST' };

/** Order lines as the server stores them: VAT per line, rounded half up. */
const lineArb = fc
  .record({
    price: fc.integer({ min: 0, max: 500_000 }),
    rate: fc.constantFrom(...Object.values(TAX_RATES)),
    quantity: fc.integer({ min: 1, max: 50_000 }).map((q) => q / 1000),
    deposit: fc.constantFrom(0, 0, 30, 50, 100),
  })
  .map(({ price, rate, quantity, deposit }) => {
    const tax = taxOf(price, rate);
    return { productId: 'p', quantity, title: 'Ware', price, netPrice: price - tax, tax, taxRate: rate, type: 'product', deposit };
  });

const orderOf = (products: Order['products'], orderId = 'till-1'): Order => ({
  id: 'order-1',
  orderId,
  store: 's',
  price: orderTotal(products),
  paymentState: 'successful',
  paymentMethod: 'cash',
  orderDate: '2026-11-24T13:03:00.000Z',
  deleted: false,
  products,
});

describe('the receipt model', () => {
  it('adds up: VAT per rate plus deposits is the total, net plus VAT is each rate\'s gross, to the cent', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 60 }), (products) => {
        const receipt = buildReceipt(orderOf(products), STORE, { language: 'de' });
        const gross = receipt.vat.reduce((sum, v) => sum + v.gross, 0);
        expect(gross + receipt.deposits).toBe(receipt.total);
        expect(receipt.lines.reduce((sum, l) => sum + l.amount + l.deposit, 0)).toBe(receipt.total);
        for (const vat of receipt.vat) {
          expect(vat.net + vat.tax).toBe(vat.gross);
          const atRate = products.filter((l) => l.taxRate === vat.rate);
          // Each line's VAT is rounded on its own, as the order stores it: the rate's VAT is theirs, within half a cent per line of the VAT of the sum.
          expect(vat.tax).toBe(atRate.reduce((sum, l) => sum + l.tax, 0));
          expect(Math.abs(vat.tax - taxOf(vat.gross, vat.rate))).toBeLessThanOrEqual(Math.ceil(atRate.length / 2));
        }
        expect(receipt.vat.map((v) => v.rate)).toEqual([...new Set(products.map((l) => l.taxRate))].sort((a, b) => b - a));
      }),
    );
  });

  it('writes the date and time in the store\'s time zone, Europe/Zurich when it has none', () => {
    const products = [{ productId: 'p', quantity: 1, title: 'Brot', price: 450, netPrice: 439, tax: 11, taxRate: 0.026, type: 'product', deposit: 0 }];
    const at = (store: typeof STORE & { timeZone?: string }) => receiptFormat(buildReceipt(orderOf(products), store, { language: 'de' })).dateTime;
    // 13:03 UTC on 24 November: 14:03 in Zurich, 08:03 in New York.
    expect(buildReceipt(orderOf(products), STORE, { language: 'de' }).timeZone).toBe('Europe/Zurich');
    expect(at(STORE)).toMatch(/14:03$/);
    expect(at({ ...STORE, timeZone: 'America/New_York' })).toMatch(/08:03$/);
  });

  it('takes the store, the payment and the unit prices from the stored order', () => {
    const products = [
      { productId: 'apples', quantity: 2, title: 'Äpfel', price: 700, netPrice: 682, tax: 18, taxRate: 0.026, type: 'product', deposit: 0 },
      { productId: 'juice', quantity: 1, title: 'Apfelsaft', price: 395, netPrice: 365, tax: 30, taxRate: 0.081, type: 'product', deposit: 50 },
      { productId: 'cheese', quantity: 0.485, title: 'Bergkäse', price: 1164, netPrice: 1134, tax: 30, taxRate: 0.026, type: 'product', deposit: 0 },
    ];
    const juice = { name: 'Apfelsaft', price: 450, salePrice: 395, salePriceDateFrom: '2026-11-01T00:00:00.000Z', taxCategory: '8.1' as const };
    const receipt = buildReceipt(orderOf(products), { ...STORE, address: '  ' }, { language: 'fr', productOf: (id) => (id === 'juice' ? juice : undefined) });
    expect(receipt).toEqual({
      language: 'fr',
      orderId: 'order-1',
      tillOrderId: 'till-1',
      number: shortOrderNumber('till-1'),
      store: { name: 'Hofladen', place: '3000 Bern', vatNumber: 'CHE-123.456.789 MWST' },
      issuedAt: '2026-11-24T13:03:00.000Z',
      timeZone: 'Europe/Zurich',
      lines: [
        { title: 'Äpfel', quantity: 2, unitPrice: 350, amount: 700, deposit: 0, taxRate: 0.026 },
        { title: 'Apfelsaft', quantity: 1, unitPrice: 395, amount: 395, regularUnitPrice: 450, deposit: 50, taxRate: 0.081 },
        // 11.64 for 0.485 kg: 24.00 a kilogram as the order recorded it.
        { title: 'Bergkäse', quantity: 0.485, unitPrice: 2400, amount: 1164, deposit: 0, taxRate: 0.026 },
      ],
      deposits: 50,
      vat: [
        { rate: 0.081, gross: 395, net: 365, tax: 30 },
        { rate: 0.026, gross: 1864, net: 1816, tax: 48 },
      ],
      total: 2309,
      paymentMethod: 'cash',
    });
  });

  it('gives every sale a six-digit number of its own till order number, the same wherever it is built', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), (id) => {
        expect(shortOrderNumber(id)).toMatch(/^\d{3} \d{3}$/);
        expect(shortOrderNumber(id)).toBe(shortOrderNumber(id));
      }),
    );
    expect(shortOrderNumber('till-2026-11-24-0042')).not.toBe(shortOrderNumber('till-2026-11-24-0043'));
  });

  it('fills the till order number into the e-receipt address, escaped', () => {
    expect(eReceiptUrlOf('https://shop.example/r/{orderId}', 'a b/c')).toBe('https://shop.example/r/a%20b%2Fc');
    expect(eReceiptUrlOf('  ', 'x')).toBeUndefined();
    expect(eReceiptUrlOf(undefined, 'x')).toBeUndefined();
  });
});
