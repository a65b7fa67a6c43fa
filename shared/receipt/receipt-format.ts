import { CURRENCY, LANGUAGE_LOCALES } from '../languages.js';
import type { Receipt } from './receipt.js';
import { RECEIPT_TEXTS, type ReceiptTexts } from './receipt-texts.js';

/** How a receipt writes its values in its language: the same on screen and on paper. */
export interface ReceiptFormat {
  texts: ReceiptTexts;
  /** Cents with the currency: "CHF 19.95". */
  money(cents: number): string;
  /** Cents without the currency, for columns under a heading that names it: "19.95". */
  amount(cents: number): string;
  /** "2", "0.485". */
  quantity(value: number): string;
  /** 0.081 -> "8.1 %". */
  rate(rate: number): string;
  /** Date and time of the sale in the store's time zone: "24.11.2026, 14:03". */
  dateTime: string;
  /** The payment method in words, with the brand when there is one. */
  payment: string | undefined;
}

export function receiptFormat(receipt: Receipt): ReceiptFormat {
  const locale = LANGUAGE_LOCALES[receipt.language];
  const texts = RECEIPT_TEXTS[receipt.language];
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency: CURRENCY });
  const amount = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const quantity = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: receipt.timeZone }).format(new Date(receipt.issuedAt));
  const method = receipt.paymentMethod === undefined ? undefined : (texts.paymentMethods[receipt.paymentMethod] ?? receipt.paymentMethod);
  const payment = method === undefined ? receipt.paymentBrand : receipt.paymentBrand ? `${method} (${receipt.paymentBrand})` : method;
  return {
    texts,
    money: (cents) => money.format(cents / 100),
    amount: (cents) => amount.format(cents / 100),
    quantity: (value) => quantity.format(value),
    rate: (rate) => percent.format(rate),
    dateTime,
    payment,
  };
}
