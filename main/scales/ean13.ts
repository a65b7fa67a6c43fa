/** EAN-13 check digits: the printed code is 12 data digits and this digit. */

/** The check digit of 12 data digits: weights 1 and 3 from the left, sum to a multiple of 10. */
export function ean13CheckDigit(data: string): string {
  if (!/^\d{12}$/.test(data)) throw new Error(`EAN-13 data must be 12 digits, got ${JSON.stringify(data)}`);
  let sum = 0;
  for (let i = 0; i < 12; i += 1) sum += Number(data[i]) * (i % 2 === 0 ? 1 : 3);
  return String((10 - (sum % 10)) % 10);
}

/** Whether `code` is 13 digits whose last one is the check digit of the first 12. */
export function isValidEan13(code: string): boolean {
  return /^\d{13}$/.test(code) && ean13CheckDigit(code.slice(0, 12)) === code[12];
}
