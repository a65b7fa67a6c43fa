/** Languages a kiosk screen can be shown in. */
export const STORE_LANGUAGES = ['de', 'en', 'fr', 'it'] as const;
export type StoreLanguage = (typeof STORE_LANGUAGES)[number];
