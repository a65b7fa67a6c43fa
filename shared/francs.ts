/**
 * Cents of an amount typed in francs, as people type it: up to `wholeDigits`
 * digits, then `.` or `,` and up to 2 decimals ("4.5", "12,95"); undefined
 * when the text is not one.
 */
export function parseFrancs(text: string, wholeDigits = 5): number | undefined {
  const match = new RegExp(`^(\\d{1,${wholeDigits}})(?:[.,](\\d{1,2}))?$`).exec(text.trim());
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : undefined;
}
