import type { StoreLanguage } from '../store-settings.js';
import { de } from './de.js';
import { en, type MessageKey, type Messages } from './en.js';
import { fr } from './fr.js';
import { it } from './it.js';

export type { MessageKey };
export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

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
  return (key, values = {}) => {
    const override = own[key] ?? overrides[key];
    const template = typeof override === 'string' ? override : messages[key];
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
  };
}

