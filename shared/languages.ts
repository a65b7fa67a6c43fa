/** Languages a kiosk screen can be shown in. */
export const STORE_LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
export type StoreLanguage = (typeof STORE_LANGUAGES)[number];

/** The locale each language writes amounts, dates and numbers in: as in Switzerland. */
export const LANGUAGE_LOCALES: Record<StoreLanguage, string> = { de: 'de-CH', fr: 'fr-CH', it: 'it-CH', en: 'en-CH' };

/** Amounts are in Swiss francs. */
export const CURRENCY = 'CHF';
