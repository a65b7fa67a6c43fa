import { localeOf, moneyFormatter } from '../money.js';
import type { StoreLanguage } from '../store-settings.js';
import { de } from './de.js';
import { en, type MessageKey, type Messages } from './en.js';
import { fr } from './fr.js';
import { it } from './it.js';

export type { MessageKey };

/** Keys whose text depends on a count: `<key>_one`, `<key>_other` (Intl.PluralRules categories). */
type PluralKey = MessageKey extends infer K ? (K extends `${infer Base}_other` ? Base : never) : never;

/** The texts of one language: `t(key, values)`, plus amounts and counts written in that language. */
export interface Translate {
  (key: MessageKey, values?: Record<string, string | number>): string;
  readonly language: StoreLanguage;
  /** Cents with the currency, e.g. "CHF 19.95". */
  money(cents: number): string;
  /** The form of `key` for `count` ("1 Verkauf wartet", "2 Verkäufe warten"); `{count}` is filled in. */
  plural(key: PluralKey, count: number, values?: Record<string, string | number>): string;
}

const BUNDLED: Record<StoreLanguage, Messages> = { de, en, fr, it };

/** Each language's name in itself, for the language buttons. */
export const LANGUAGE_NAMES: Record<StoreLanguage, string> = { de: 'Deutsch', fr: 'Français', it: 'Italiano', en: 'English' };

/**
 * A store's `translations` override the bundled texts: `{"de": {"welcome": "Grüezi!"}}`
 * changes one language; a top-level `{"welcome": "Hello"}` changes every language.
 */
export function translator(language: StoreLanguage, overrides: Record<string, unknown>): Translate {
  const perLanguage = overrides[language];
  const own = typeof perLanguage === 'object' && perLanguage !== null ? (perLanguage as Record<string, unknown>) : {};
  const messages = BUNDLED[language];
  const text = (key: MessageKey, values: Record<string, string | number> = {}) => {
    const override = own[key] ?? overrides[key];
    const template = typeof override === 'string' ? override : messages[key];
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
  };
  const rules = new Intl.PluralRules(localeOf(language));
  const plural = (key: PluralKey, count: number, values: Record<string, string | number> = {}) => {
    const form = `${key}_${rules.select(count)}`;
    return text((form in messages ? form : `${key}_other`) as MessageKey, { ...values, count });
  };
  return Object.assign(text, { language, money: moneyFormatter(language), plural });
}

/** The language a screen shown before any store is known speaks: the browser's, when the kiosk has it. */
export function browserLanguage(preferred: readonly string[]): StoreLanguage {
  for (const tag of preferred) {
    const base = tag.slice(0, 2).toLowerCase();
    if (base in BUNDLED) return base as StoreLanguage;
  }
  return 'de';
}
