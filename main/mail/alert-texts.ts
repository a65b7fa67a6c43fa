import { LANGUAGE_LOCALES, type StoreLanguage } from '../../shared/languages.js';
import type { AlertKind } from '../storage/alerts.js';
import { ALERT_WORDS } from './alert-words.js';

export const languageOf = (value: string | null | undefined): StoreLanguage => (value === 'de' || value === 'fr' || value === 'it' || value === 'en' ? value : 'de');

/** A time as the store's people read it: their language, their time zone. */
export function localTime(iso: string, language: StoreLanguage, timeZone: string): string {
  return new Intl.DateTimeFormat(LANGUAGE_LOCALES[language], { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export interface AlertMailInput {
  kind: AlertKind;
  storeName: string;
  language: StoreLanguage;
  timeZone: string;
  since: string;
  detail: string;
  endedAt?: string | undefined;
}

/** Subject and text of an `alert` mail, or of its `alert-resolved` mail when `endedAt` is given. */
export function alertMail(input: AlertMailInput): { subject: string; text: string } {
  const words = ALERT_WORDS[input.language];
  const kind = words.kinds[input.kind];
  const since = `${words.since}: ${localTime(input.since, input.language, input.timeZone)}`;
  if (input.endedAt !== undefined) {
    return {
      subject: `[${words.resolved}] ${input.storeName}: ${kind.title}`,
      text: `${kind.title}\n\n${since}\n${words.ended}: ${localTime(input.endedAt, input.language, input.timeZone)}\n\n${words.resolvedBody}\n`,
    };
  }
  return {
    subject: `[${words.alert}] ${input.storeName}: ${kind.title}`,
    text: `${kind.what}\n\n${since}\n${words.seen}: ${input.detail}\n\n${words.firstStep}: ${kind.todo}\n`,
  };
}
