/** GS1's check digit of the digits before it: weights 3 and 1 from the right. */
function checkDigitOf(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

const validGs1 = (code: string) => checkDigitOf(code.slice(0, -1)) === Number(code.at(-1));

/** Lengths of GS1 codes a till scans: EAN-8, UPC-A, EAN-13, GTIN-14. */
const GS1_LENGTHS = new Set([8, 12, 13, 14]);
/** A code of this many digits is the code of that name with leading zeros dropped. */
const SHORTENED: Readonly<Record<number, { length: number; name: string }>> = {
  7: { length: 8, name: 'EAN-8' },
  11: { length: 12, name: 'UPC-A' },
  12: { length: 13, name: 'EAN-13' },
};

/**
 * What looks wrong with a barcode as a file writes it, or undefined: a
 * spreadsheet that took the column for numbers dropped its leading zeros
 * (the scanner then reads a code no product has), or a digit was mistyped
 * (its GS1 check digit is wrong). Codes that are not all digits, and shorter
 * ones (a shop's own PLU codes), are the shop's own business.
 */
export function barcodeWarning(code: string): string | undefined {
  if (!/^\d+$/.test(code)) return undefined;
  const shortened = SHORTENED[code.length];
  if (shortened && validGs1(code)) {
    const whole = code.padStart(shortened.length, '0');
    return `${JSON.stringify(code)} looks like the ${shortened.name} ${whole} whose leading zero a spreadsheet dropped; the scanner reads ${whole}, so write it that way (format the column as text)`;
  }
  if (GS1_LENGTHS.has(code.length) && !validGs1(code)) {
    const expected = checkDigitOf(code.slice(0, -1));
    return `${JSON.stringify(code)} has a wrong check digit (the last digit would be ${expected}); check the code for a mistyped digit`;
  }
  return undefined;
}
