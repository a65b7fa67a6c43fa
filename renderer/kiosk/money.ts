import { CURRENCY, LANGUAGE_LOCALES as LOCALES } from '../../shared/languages.js';
import type { StoreLanguage } from './store-settings.js';

export const localeOf = (language: StoreLanguage) => LOCALES[language];

/** A formatter of cents with the currency in the language's own way: "CHF 19.95", "19,95 CHF". */
export function moneyFormatter(language: StoreLanguage): (cents: number) => string {
  const format = new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency: CURRENCY });
  return (cents) => format.format(cents / 100);
}

