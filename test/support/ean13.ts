/** Appends the EAN-13 check digit to 12 data digits (written apart from the product's own code, as an oracle). */
export function withCheckDigit(data: string): string {
  const digits = [...data].map(Number);
  const odd = digits.filter((_, i) => i % 2 === 0).reduce((a, b) => a + b, 0);
  const even = digits.filter((_, i) => i % 2 === 1).reduce((a, b) => a + b, 0);
  return data + String((10 - ((odd + 3 * even) % 10)) % 10);
}

/** The same code with a check digit that is wrong. */
export function withWrongCheckDigit(data: string): string {
  const right = withCheckDigit(data);
  return data + String((Number(right[12]) + 1) % 10);
}
