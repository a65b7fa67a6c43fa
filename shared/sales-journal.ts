import { z } from 'zod';
import { OrderCreateSchema } from './api/orders.js';

/**
 * The till's order number doubles as the journal's file name in the desktop
 * app, so it is kept to letters, digits, `-` and `_` (the kiosk makes UUIDs).
 */
export const JOURNAL_ORDER_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * A paid sale in the kiosk's journal: written before the payment step reports
 * success, sent to `POST /orders` until the server stores it, and removed once
 * its receipt has been closed. The page keeps it in IndexedDB; in the desktop
 * app the main process keeps it in `DATA_DIR/sales-journal/<orderId>.json`.
 */
export const SaleJournalEntrySchema = z
  .strictObject({
    orderId: z.string().regex(JOURNAL_ORDER_ID, { error: 'must be 1 to 100 letters, digits, - or _' }).describe("The till's order number; equals `sale.orderId`."),
    paidAt: z.iso.datetime({ error: 'must be an ISO 8601 date-time' }).describe('When the payment step reported success.'),
    sale: OrderCreateSchema.describe('The body of `POST /orders`, every line with its title, price, tax rate and deposit as sold; a card sale carries its approved payment\'s id (`payment`), so a resent sale is recorded once, with its payment.'),
    storedId: z.string().min(1).max(200).optional().describe('Id of the stored order once the server has answered; absent while the sale waits to be recorded.'),
    receiptPrinted: z.literal(true).optional().describe('The receipt printed; a reload before it is closed shows it without printing it again.'),
  })
  .refine((entry) => entry.sale.orderId === entry.orderId, { error: 'sale.orderId must equal orderId', path: ['sale', 'orderId'] });

export type SaleJournalEntry = z.infer<typeof SaleJournalEntrySchema>;

/** What the desktop app's preload exposes as `kioskBridge.journal`; each call resolves once the change is on disk. */
export interface SalesJournalBridge {
  /** Every sale kept, oldest payment first. */
  list(): Promise<SaleJournalEntry[]>;
  /** Keeps the entry, replacing the one with the same orderId. */
  put(entry: SaleJournalEntry): Promise<void>;
  remove(orderId: string): Promise<void>;
}
