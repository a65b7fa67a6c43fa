import { cardBrandName } from '../card-brand.js';

/** One line of a card terminal's receipt: what it names, and its value (empty for a heading or a plain line). */
export interface CardReceiptLine {
  name: string;
  value: string;
}

/**
 * A terminal's receipt line as it is printed. Adyen terminals send each line
 * form-encoded (`key=txdate&name=Date&value=2026-11-26`): its name and value
 * are printed as given, side by side, and the key (a field name for machines)
 * is left out, but for the card brand's line, whose code (`mc`) is printed as
 * the brand's name (`Mastercard`). Any other line is printed exactly as it came.
 */
export function cardReceiptLine(raw: string): CardReceiptLine {
  if (!/^key=[^&]*&name=/.test(raw)) return { name: raw, value: '' };
  const fields = new URLSearchParams(raw);
  const value = fields.get('value') ?? '';
  return { name: fields.get('name') ?? '', value: fields.get('key') === 'cardBrand' ? cardBrandName(value) : value };
}
