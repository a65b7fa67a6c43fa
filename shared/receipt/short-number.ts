/**
 * The receipt's short number: six digits a customer can read out to the
 * shop ("483 207"), derived from the till's order number alone, so the kiosk
 * screen, the printed receipt and the server always agree, also when the
 * kiosk built the receipt itself. 32-bit FNV-1a over the UTF-16 code units,
 * reduced to 0-999999. Not unique: two sales share a number about once in a
 * million, so staff find the sale by number and time, and the full order
 * number stands on the receipt too.
 */
export function shortOrderNumber(tillOrderId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < tillOrderId.length; i++) {
    hash ^= tillOrderId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const digits = String(hash % 1_000_000).padStart(6, '0');
  return `${digits.slice(0, 3)} ${digits.slice(3)}`;
}
