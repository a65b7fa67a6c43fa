import { describe, expect, it } from 'vitest';
import { ageOn, calendarDate } from '../renderer/kiosk/age.js';
import { translator } from '../renderer/kiosk/i18n/index.js';
import { paymentToFollow, type TerminalPayment } from '../renderer/kiosk/card-payment.js';
import { cardOutcome } from '../renderer/kiosk/card-outcome.js';
import { readMrz } from '../renderer/kiosk/mrz.js';
import { paymentMethodsOffered, settingsOf } from '../renderer/kiosk/store-settings.js';
import type { Store } from '../shared/api/stores.js';
import { cardBrandName } from '../shared/card-brand.js';
import { td1, td2or3 } from './support/kiosk.js';

const date = (iso: string) => {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return { year, month, day };
};

describe('age on a given day', () => {
  it.each([
    ['2008-06-15', '2026-06-15', 18],
    ['2008-06-15', '2026-06-14', 17],
    ['2008-06-15', '2027-01-01', 18],
    ['2008-02-29', '2026-02-28', 17],
    ['2008-02-29', '2026-03-01', 18],
    ['2008-02-29', '2028-02-29', 20],
    ['2008-02-29', '2028-02-28', 19],
    ['2007-12-31', '2025-12-31', 18],
  ])('born %s is on %s %i years old', (birth, today, age) => {
    expect(ageOn(date(birth), date(today))).toBe(age);
  });

  it('accepts only real calendar dates', () => {
    expect(calendarDate(2008, 2, 29)).toEqual({ year: 2008, month: 2, day: 29 });
    expect(calendarDate(2007, 2, 29)).toBeUndefined();
    expect(calendarDate(2000, 4, 31)).toBeUndefined();
    expect(calendarDate(2000, 13, 1)).toBeUndefined();
  });
});

describe('reading the MRZ of ID cards and passports', () => {
  const today = new Date('2026-11-23T12:00:00Z');

  it.each([
    ['TD1', td1('MUSTER', 'PETER', '850315'), 'id_card_td1'],
    ['TD2', td2or3('TD2', 'MUSTER', 'PETER', '850315'), 'id_card_td2'],
    ['TD3', td2or3('TD3', 'MUSTER', 'PETER', '850315'), 'passport'],
  ])('reads name and birth date of %s', (_format, lines, source) => {
    expect(readMrz(lines, today)).toEqual({ source, firstName: 'PETER', lastName: 'MUSTER', birthDate: date('1985-03-15'), rawText: lines.join('\n') });
  });

  it('puts a two-digit birth year that would lie in the future in the previous century', () => {
    expect(readMrz(td1('A', 'B', '100101'), today)?.birthDate).toEqual(date('2010-01-01'));
    expect(readMrz(td1('A', 'B', '300101'), today)?.birthDate).toEqual(date('1930-01-01'));
  });

  it('refuses a zone whose birth date fails its check digit, or that is no document', () => {
    const lines = td1('MUSTER', 'PETER', '850315');
    const broken = [lines[0]!, lines[1]!.slice(0, 5) + '6' + lines[1]!.slice(6), lines[2]!];
    expect(readMrz(broken, today)).toBeUndefined();
    expect(readMrz(['7610000000017'], today)).toBeUndefined();
  });
});

describe('store settings', () => {
  const store = (fields: Partial<Store>): Store => ({ id: 's', name: 'Laden', deleted: false, createdate: '', lastupdate: '', instance: 'o', ...fields });

  it('offers only the main language unless the store allows several', () => {
    expect(settingsOf(store({ languageMain: 'fr', languageSelector: ['de', 'fr'] })).languages).toEqual(['fr']);
    expect(settingsOf(store({ languageMain: 'fr', languageMulti: true, languageSelector: ['de', 'fr', 'it'] })).languages).toEqual(['fr', 'de', 'it']);
    expect(settingsOf(store({})).languages).toEqual(['de']);
  });

  it('offers while offline only the payment methods allowed offline', () => {
    const settings = settingsOf(store({ paymentCash: true, paymentCashOffline: true, paymentProviderA: true, paymentProviderB: true, paymentProviderBOffline: false }));
    expect(paymentMethodsOffered(settings, false, true)).toEqual(['cash', 'providerA', 'providerB']);
    expect(paymentMethodsOffered(settings, true, true)).toEqual(['cash']);
  });

  it('offers card only while the store\'s terminal answers; mobile payment follows its offline flag', () => {
    const settings = settingsOf(store({ paymentCash: true, paymentProviderA: true, paymentProviderB: true, paymentProviderBOffline: true }));
    expect(paymentMethodsOffered(settings, false, false)).toEqual(['cash', 'providerB']);
    expect(paymentMethodsOffered(settings, false, true)).toEqual(['cash', 'providerA', 'providerB']);
    expect(paymentMethodsOffered(settings, true, true)).toEqual(['providerB']);
  });

  it('lets store translations override a language or every language', () => {
    expect(translator('de', { de: { pay: 'Zahlen' } })('pay')).toBe('Zahlen');
    expect(translator('fr', { de: { pay: 'Zahlen' } })('pay')).toBe('Payer');
    expect(translator('it', { welcome: 'Ciao {x}' })('welcome')).toBe('Ciao {x}');
    expect(translator('en', {})('terminalTitle', { amount: '4.20' })).toBe('Pay 4.20');
  });
});

describe('card payments', () => {
  const payment = (state: TerminalPayment['state'], createdAt: string, message: string | null = null, reason: TerminalPayment['reason'] = null): TerminalPayment =>
    ({ id: `${state}-${createdAt}`, state, amount: 420, brand: null, message, reason, receipt: { customer: [], cashier: [] }, createdAt, order: null }) as TerminalPayment;

  it('follows any payment of the sale that may hold the money, open ones first, and starts anew only after declines, cancels and full refunds', () => {
    expect(paymentToFollow([])).toBeUndefined();
    expect(paymentToFollow([payment('declined', '1'), payment('cancelled', '2'), payment('refunded', '3')])).toBeUndefined();
    expect(paymentToFollow([payment('declined', '1'), payment('unknown', '2')])?.id).toBe('unknown-2');
    expect(paymentToFollow([payment('approved', '1'), payment('declined', '2')])?.id).toBe('approved-1');
    expect(paymentToFollow([{ ...payment('approved', '1'), order: 'o1' }])?.id).toBe('approved-1');
    expect(paymentToFollow([payment('approved', '1'), payment('pending', '2')])?.id).toBe('pending-2');
    expect(paymentToFollow([payment('partially-refunded', '1')])?.id).toBe('partially-refunded-1');
  });

  it.each([
    ['pending', null, null, 'pending'],
    ['unknown', 'The terminal does not answer; the server keeps asking it how this payment ended', null, 'confirming'],
    ['approved', null, null, 'approved'],
    ['declined', 'Refusal: Not enough balance', null, 'declined'],
    ['declined', 'The terminal is busy with another payment: nothing was charged; try again in a moment', 'terminal-busy', 'busy'],
    // Told by the code, never by the staff's words: a message that names "busy" is still a decline.
    ['declined', 'Refusal: card busy', null, 'declined'],
    ['cancelled', 'Cancel', null, 'cancelled'],
    ['cancelled', 'the terminal at 127.0.0.1:27443 could not be reached: connect ECONNREFUSED 127.0.0.1:27443: nothing was charged', 'terminal-not-reached', 'unreachable'],
    ['cancelled', 'The terminal has no record of this payment: nothing was charged', 'unknown-to-terminal', 'cancelled'],
    ['refunded', 'Refused: the terminal approved EUR 1.40 for a payment of CHF 1.40; the approval was reversed', null, 'reversed'],
  ] as const)('tells a %s payment (%s, reason %s) as %s', (state, message, reason, outcome) => {
    expect(cardOutcome(payment(state, '1', message, reason))).toBe(outcome);
  });

  it('names card brands and leaves unknown codes as sent', () => {
    expect(['mc', 'MASTERCARD', 'visa', 'VISA', 'amex', 'maestro', 'cup', 'somecard'].map(cardBrandName)).toEqual(['Mastercard', 'Mastercard', 'Visa', 'Visa', 'American Express', 'Maestro', 'UnionPay', 'somecard']);
  });
});
