/** What staff type into the catalog's fields, read into the API's units, and back. */

import { parseFrancs as parseTypedFrancs } from '../../../shared/francs.js';

/** Francs as written on a shelf label, "1.95", "1,95" or "2": cents; `undefined` for an empty field, `NaN` for anything else. */
export function parseFrancs(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  return parseTypedFrancs(text, 7) ?? Number.NaN;
}

/** Cents as francs for a field ("1.95"), empty when there are none. */
export const francsText = (cents: number | undefined): string => (cents === undefined ? '' : (cents / 100).toFixed(2));

const pad = (n: number) => String(n).padStart(2, '0');

/** A stored instant as the local day a date field shows ("2026-12-01"). */
export function localDay(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A date field's day as the instant it starts (`from`) or ends (`to`) here. */
export function dayBoundary(day: string, edge: 'from' | 'to'): string | undefined {
  if (day === '') return undefined;
  return new Date(`${day}T${edge === 'from' ? '00:00:00.000' : '23:59:59.999'}`).toISOString();
}
