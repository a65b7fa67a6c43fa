/**
 * Addresses a mail can go to: one or more `local@domain` separated by commas
 * or semicolons, as the stores' and suppliers' mail fields hold them. A word
 * such as "ja" in `dailyMail` is not one.
 */
export function mailAddresses(value: string | null | undefined): string[] | undefined {
  if (!value) return undefined;
  const parts = value
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) return undefined;
  return parts.every((part) => /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+\.[^\s@<>()[\],;:".]{2,}$/.test(part)) ? parts : undefined;
}
