import { STORE_LANGUAGES, type StoreLanguage } from '../../shared/languages.js';
import { de } from './texts-de.js';
import { en, type StaffTextKey, type StaffTexts } from './texts-en.js';
import { fr } from './texts-fr.js';
import { it } from './texts-it.js';

export type { StaffTextKey };

const TABLES: Record<StoreLanguage, StaffTexts> = { de, en, fr, it };
const LOCALES: Record<StoreLanguage, string> = { de: 'de-CH', fr: 'fr-CH', it: 'it-CH', en: 'en-CH' };

/** Each language's name in itself, for the language buttons. */
export const LANGUAGE_NAMES: Record<StoreLanguage, string> = { de: 'Deutsch', fr: 'Français', it: 'Italiano', en: 'English' };
export const LANGUAGES: readonly StoreLanguage[] = ['de', 'fr', 'it', 'en'];

/** The staff page's texts, numbers and dates in one language. */
export interface StaffTranslate {
  (key: StaffTextKey, values?: Record<string, string | number>): string;
  readonly language: StoreLanguage;
  readonly locale: string;
  money(cents: number): string;
  bytes(count: number): string;
  /** A stored UTC time as a local date and time, in `timeZone` (the browser's when absent). */
  time(iso: string, timeZone?: string): string;
}

export function staffTranslator(language: StoreLanguage): StaffTranslate {
  const table = TABLES[language];
  const locale = LOCALES[language];
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency: 'CHF' });
  const plural = new Intl.PluralRules(locale);
  const number = new Intl.NumberFormat(locale);
  // `{count:# problem|# problems}` picks the first form where the language says "one" of count (French: 0 and 1), the second otherwise.
  const t = ((key: StaffTextKey, values: Record<string, string | number> = {}) =>
    table[key].replace(/\{(\w+)(?::([^{}]*))?\}/g, (whole, name: string, forms?: string) => {
      if (!(name in values)) return whole;
      const value = values[name]!;
      if (forms === undefined || typeof value !== 'number') return String(value);
      const [one = '', other = one] = forms.split('|');
      return (plural.select(value) === 'one' ? one : other).replace('#', number.format(value));
    })) as StaffTranslate;
  return Object.assign(t, {
    language,
    locale,
    money: (cents: number) => money.format(cents / 100),
    bytes: (count: number) => {
      const [unit, size] = count >= 1e9 ? (['gigabyte', 1e9] as const) : count >= 1e6 ? (['megabyte', 1e6] as const) : (['kilobyte', 1e3] as const);
      return new Intl.NumberFormat(locale, { style: 'unit', unit, maximumFractionDigits: 1 }).format(count / size);
    },
    time: (iso: string, timeZone?: string) =>
      new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium', ...(timeZone ? { timeZone } : {}) }).format(new Date(iso)),
  });
}

/** The language of the browser when the page offers it, English otherwise. */
export function browserLanguage(preferred: readonly string[]): StoreLanguage {
  for (const tag of preferred) {
    const base = tag.slice(0, 2).toLowerCase();
    if ((STORE_LANGUAGES as readonly string[]).includes(base)) return base as StoreLanguage;
  }
  return 'en';
}
