import type { Finding } from './file-problems.js';

/** GS1's check digit of the digits before it: weights 3 and 1 from the right. */
function checkDigitOf(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

const validGs1 = (code: string) => /^\d+$/.test(code) && checkDigitOf(code.slice(0, -1)) === Number(code.at(-1));

/** Lengths of GS1 codes a till scans: EAN-8, UPC-A, EAN-13, GTIN-14. */
const GS1_LENGTHS = new Set([8, 12, 13, 14]);
/** A code of this many digits is the code of that name with leading zeros dropped. */
const SHORTENED: Readonly<Record<number, { length: number; name: string }>> = {
  7: { length: 8, name: 'EAN-8' },
  11: { length: 12, name: 'UPC-A' },
  12: { length: 13, name: 'EAN-13' },
};

/** Whether two codes of one length differ in one digit, or by two neighbouring digits swapped: the typing mistakes a check digit catches. */
function oneSlipApart(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  const differ = [...a].flatMap((char, i) => (char === b[i] ? [] : [i]));
  if (differ.length === 1) return true;
  const [i, j] = differ as [number, number];
  return differ.length === 2 && j === i + 1 && a[i] === b[j] && a[j] === b[i];
}

/** What looks wrong with a barcode, and the code the file most likely meant when that can be told. */
export interface BarcodeIssue {
  finding: Finding;
  suggested?: string;
}

/**
 * What looks wrong with a barcode as a file writes it, or undefined: a
 * spreadsheet that took the column for numbers dropped its leading zeros
 * (the scanner then reads a code no product has; the whole code is
 * suggested), or a digit was mistyped (its GS1 check digit is wrong). A
 * mistyped digit can be anywhere, so a code is suggested only when the
 * row's product holds a valid one a single slip away: correcting the check
 * digit alone would make up the code of some other product. Codes that are
 * not all digits, and shorter ones (a shop's own PLU codes), are the shop's
 * own business.
 */
export function barcodeIssue(code: string, productCode?: string): BarcodeIssue | undefined {
  if (!/^\d+$/.test(code)) return undefined;
  const shortened = SHORTENED[code.length];
  if (shortened && validGs1(code)) {
    const whole = code.padStart(shortened.length, '0');
    return { finding: { kind: 'barcode-leading-zero', params: { value: code, code: whole, format: shortened.name } }, suggested: whole };
  }
  if (GS1_LENGTHS.has(code.length) && !validGs1(code)) {
    const expected = String(checkDigitOf(code.slice(0, -1)));
    if (productCode !== undefined && validGs1(productCode) && oneSlipApart(code, productCode)) {
      return { finding: { kind: 'barcode-check-digit-product', params: { value: code, expected, productBarcode: productCode } }, suggested: productCode };
    }
    return { finding: { kind: 'barcode-check-digit', params: { value: code, expected } } };
  }
  return undefined;
}
