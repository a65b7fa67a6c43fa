import { CURRENCY, LANGUAGE_LOCALES as LOCALES } from '../../shared/languages.js';
import type { StoreLanguage } from './store-settings.js';

export const localeOf = (language: StoreLanguage) => LOCALES[language];

/** Cents as the store's currency amount, e.g. 1995 -> "19.95" (receipt columns that carry the currency once). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A formatter of cents with the currency in the language's own way: "CHF 19.95", "19,95 CHF". */
export function moneyFormatter(language: StoreLanguage): (cents: number) => string {
  const format = new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency: CURRENCY });
  return (cents) => format.format(cents / 100);
}

/** A VAT rate fraction as a percentage label, e.g. 0.081 -> "8.1 %". */
export function formatRate(rate: number): string {
  return `${Math.round(rate * 1000) / 10} %`;
}
