import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { makePrivateFolder } from '../security/private-files.js';
import { syncDirectory, TEMP_SUFFIX, writeFileDurably } from '../storage/durable-file.js';
import { JOURNAL_ORDER_ID, SaleJournalEntrySchema, type SaleJournalEntry } from '../../shared/sales-journal.js';

/** Folder of the sales journal inside `DATA_DIR`: one `<orderId>.json` per paid sale not yet done with. */
export const SALES_JOURNAL_DIR = 'sales-journal';

const SUFFIX = '.json';
/** A sale of 5,000 lines with long titles fits; anything larger is not a sale of this kiosk. */
const MAX_ENTRY_BYTES = 4_000_000;

export interface SalesJournalFiles {
  readonly dir: string;
  /** Every readable entry, oldest payment first. */
  list(): SaleJournalEntry[];
  /** Validates and keeps the entry; resolves once it is on disk. */
  put(entry: unknown): Promise<void>;
  /** Drops the entry of a sale; resolves once the removal is on disk. */
  remove(orderId: unknown): Promise<void>;
  /** Paid sales the server has not stored yet: what holds an update back. */
  waiting(): number;
}

/**
 * The desktop app's journal of paid sales, kept by the main process so that
 * a reload or crash of the page and a restart of the app cannot lose a sale.
 * The page writes and reads it through the preload (`kioskBridge.journal`).
 * File names are the till's order numbers, checked against JOURNAL_ORDER_ID,
 * so a page can never name a path outside the folder.
 */
export function openSalesJournal(dataDir: string, logger: Logger, onChange: () => void = () => {}): SalesJournalFiles {
  const dir = join(dataDir, SALES_JOURNAL_DIR);
  makePrivateFolder(dir);
  // A crash in the middle of a write leaves only its temporary file; the entry it replaced is intact.
  for (const name of readdirSync(dir)) if (name.endsWith(TEMP_SUFFIX)) rmSync(join(dir, name), { force: true });

  const read = (name: string): SaleJournalEntry | undefined => {
    try {
      const parsed = SaleJournalEntrySchema.safeParse(JSON.parse(readFileSync(join(dir, name), 'utf8')));
      if (parsed.success) return parsed.data;
      logger.error({ file: join(dir, name), issues: parsed.error.issues }, 'a sales journal entry is not valid; it is kept for staff and not sent');
    } catch (err) {
      logger.error({ err, file: join(dir, name) }, 'a sales journal entry cannot be read; it is kept for staff and not sent');
    }
    return undefined;
  };

  const list = () =>
    readdirSync(dir)
      .filter((name) => name.endsWith(SUFFIX))
      .map(read)
      .filter((entry) => entry !== undefined)
      .sort((a, b) => a.paidAt.localeCompare(b.paidAt));

  return {
    dir,
    list,
    async put(value) {
      const text = JSON.stringify(value);
      if (text === undefined || Buffer.byteLength(text) > MAX_ENTRY_BYTES) throw new Error(`a sales journal entry must be JSON of at most ${MAX_ENTRY_BYTES} bytes`);
      const parsed = SaleJournalEntrySchema.safeParse(value);
      if (!parsed.success) throw new Error(`not a sales journal entry: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      await writeFileDurably(dir, parsed.data.orderId + SUFFIX, JSON.stringify(parsed.data));
      logger.info({ orderId: parsed.data.orderId, stored: parsed.data.storedId !== undefined }, 'sales journal: sale kept');
      onChange();
    },
    async remove(orderId) {
      if (typeof orderId !== 'string' || !JOURNAL_ORDER_ID.test(orderId)) throw new Error(`not an order number of the sales journal: ${JSON.stringify(orderId)}`);
      await rm(join(dir, orderId + SUFFIX), { force: true });
      await syncDirectory(dir);
      logger.info({ orderId }, 'sales journal: sale done');
      onChange();
    },
    waiting: () => list().filter((entry) => entry.storedId === undefined).length,
  };
}
