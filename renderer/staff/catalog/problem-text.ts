import { CATALOG_COLUMNS, CATALOG_PROBLEM_KINDS, type CatalogColumn, type CatalogProblemKind } from '../../../shared/api/catalog.js';
import type { StaffTextKey, StaffTranslate } from '../texts.js';
import { fieldLabel } from './file-preview.js';

/** A kind the page has a text for: every kind but `other`, whose English message is all there is. */
type WordedKind = Exclude<CatalogProblemKind, 'other'>;

const WORDED = new Set<string>(CATALOG_PROBLEM_KINDS.filter((kind) => kind !== 'other'));
const isWorded = (kind: string): kind is WordedKind => WORDED.has(kind);

/** A problem of a catalog file's check, a line's or a group's. */
export interface ShownProblem {
  kind: string;
  params: Record<string, string>;
  message: string;
}

/** A group leaves out the values of its lines; their place reads "…", as the English message has it. */
const LEFT_OUT = '…';

const isNumber = (text: string) => /^\d+(\.\d+)?$/.test(text);

/** A value as the page's language writes it: francs as money, percentages and counts as numbers, a field by its name, a character set in words. */
function shownParam(t: StaffTranslate, name: string, value: string): string | number {
  if (name === 'count' && /^\d+$/.test(value)) return Number(value);
  if ((name === 'price' || name === 'costPrice') && isNumber(value)) return t.money(Math.round(Number(value) * 100));
  if ((name === 'margin' || name === 'limit') && isNumber(value)) return new Intl.NumberFormat(t.locale).format(Number(value));
  if (name === 'field' && (CATALOG_COLUMNS as readonly string[]).includes(value)) return fieldLabel(t, value as CatalogColumn);
  if (name === 'charset' && (value === 'utf-8' || value === 'mac-roman' || value === 'cp850')) return t(`catalogCharset_${value}`);
  return value;
}

/**
 * A problem in the page's language, from its kind and values; the server's
 * English message for a kind the page does not know (a newer server's) or
 * for `other`.
 */
export function problemText(t: StaffTranslate, { kind, params, message }: ShownProblem): string {
  if (!isWorded(kind)) return message;
  const key: StaffTextKey = `catalogProblem_${kind}`;
  // The text without values still holds its placeholders: those a group has no value for read "…".
  const wanted = [...t(key).matchAll(/\{(\w+)(?::[^{}]*)?\}/g)].map((match) => match[1]!);
  const values = Object.fromEntries(wanted.map((name) => [name, params[name] === undefined ? LEFT_OUT : shownParam(t, name, params[name])]));
  return t(key, values);
}
