/** Cents as the store's currency amount, e.g. 1995 -> "19.95". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A VAT rate fraction as a percentage label, e.g. 0.081 -> "8.1 %". */
export function formatRate(rate: number): string {
  return `${Math.round(rate * 1000) / 10} %`;
}
