import { describe, expect, it } from 'vitest';
import { reconcileCardTotals } from '../main/rules/card-reconciliation.js';

describe("the day's card payments beside the terminals' totals", () => {
  it('agrees brand by brand, with a difference of 0', () => {
    expect(reconcileCardTotals([{ brand: 'VISA', payments: 2, total: 730 }], [{ brand: 'VISA', payments: 2, total: 730 }])).toEqual([
      { brand: 'VISA', payments: 2, total: 730, terminalPayments: 2, terminalTotal: 730, difference: 0 },
    ]);
  });

  it('shows a brand only one side knows, with 0 on the other side', () => {
    expect(reconcileCardTotals([{ brand: 'VISA', payments: 1, total: 365 }], [{ brand: 'MASTERCARD', payments: 1, total: 990 }])).toEqual([
      { brand: 'MASTERCARD', payments: 0, total: 0, terminalPayments: 1, terminalTotal: 990, difference: -990 },
      { brand: 'VISA', payments: 1, total: 365, terminalPayments: 0, terminalTotal: 0, difference: 365 },
    ]);
  });

  it("adds up several terminals' totals per brand", () => {
    const terminals = [
      { brand: 'VISA', payments: 1, total: 100 },
      { brand: 'VISA', payments: 2, total: 250 },
    ];
    expect(reconcileCardTotals([{ brand: 'VISA', payments: 3, total: 350 }], terminals)[0]).toMatchObject({ terminalPayments: 3, terminalTotal: 350, difference: 0 });
  });

  it("leaves the terminal's figures and the difference null when the terminal did not answer", () => {
    expect(reconcileCardTotals([{ brand: 'VISA', payments: 1, total: 365 }], undefined)).toEqual([
      { brand: 'VISA', payments: 1, total: 365, terminalPayments: null, terminalTotal: null, difference: null },
    ]);
  });
});
