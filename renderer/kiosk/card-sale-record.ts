import type { CartLine } from './cart.js';

/**
 * The sale whose card payment is under way: its order number (the terminal's
 * reference), when checkout started, and the cart. Kept from the moment the
 * customer chooses *Card* until the sale is paid (then the sales journal
 * holds it) or the checkout ends, so that a reload resumes that payment with
 * the same cart instead of starting another.
 */
export interface CardSaleRecord {
  orderId: string;
  startedAt: string;
  lines: CartLine[];
}

const KEY = 'kiosk-card-sale';

function isRecord(value: unknown): value is CardSaleRecord {
  const v = value as Partial<CardSaleRecord> | null;
  return typeof v?.orderId === 'string' && typeof v.startedAt === 'string' && Array.isArray(v.lines);
}

export const cardSaleRecord = {
  read(): CardSaleRecord | undefined {
    try {
      const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
      return isRecord(value) ? value : undefined;
    } catch (err) {
      console.error('the record of the card payment under way could not be read', err);
      return undefined;
    }
  },
  write(record: CardSaleRecord): void {
    try {
      localStorage.setItem(KEY, JSON.stringify(record));
    } catch (err) {
      // The payment lives in the server: without this record a reload finds it on the staff page, not at the kiosk.
      console.error(`the card payment of sale ${record.orderId} could not be noted in the browser`, err);
    }
  },
  clear(): void {
    localStorage.removeItem(KEY);
  },
};
