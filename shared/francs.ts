/** An amount in francs as people type it: up to 5 digits, then `.` or `,` and up to 2 decimals ("4.5", "12,95"). */
const FRANCS = /^(\d{1,5})(?:[.,](\d{1,2}))?$/;

/** Cents of an amount typed in francs; undefined when the text is not one. */
export function parseFrancs(text: string): number | undefined {
  const match = FRANCS.exec(text.trim());
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : undefined;
}
