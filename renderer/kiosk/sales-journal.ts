import { KIOSK_BRIDGE } from '../../shared/kiosk-bridge.js';
import type { SaleJournalEntry, SalesJournalBridge } from '../../shared/sales-journal.js';

export type { SaleJournalEntry };
export type SalesJournal = SalesJournalBridge;

const DB_NAME = 'kiosk';
const STORE = 'sales';

const done = (request: IDBRequest | IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    if (request instanceof IDBTransaction) {
      request.oncomplete = () => resolve();
      request.onabort = request.onerror = () => reject(request.error ?? new Error('the sales journal transaction was aborted'));
    } else {
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
    }
  });

function openDatabase(): Promise<IDBDatabase> {
  const request = indexedDB.open(DB_NAME, 1);
  request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'orderId' });
  return done(request).then(() => request.result);
}

/**
 * A plain browser's journal. `durability: 'strict'` makes a write complete
 * only once it is flushed to disk, so a reload, a crash of the page or of the
 * browser after the payment step cannot lose the sale.
 */
function indexedDbJournal(): SalesJournal {
  let db: Promise<IDBDatabase> | undefined;
  const transaction = async (mode: IDBTransactionMode) => {
    db ??= openDatabase();
    return (await db).transaction(STORE, mode, { durability: 'strict' });
  };
  return {
    async list() {
      const tx = await transaction('readonly');
      const request = tx.objectStore(STORE).getAll() as IDBRequest<SaleJournalEntry[]>;
      await done(request);
      return request.result.sort((a, b) => a.paidAt.localeCompare(b.paidAt));
    },
    async put(entry) {
      const tx = await transaction('readwrite');
      tx.objectStore(STORE).put(entry);
      await done(tx);
    },
    async remove(orderId) {
      const tx = await transaction('readwrite');
      tx.objectStore(STORE).delete(orderId);
      await done(tx);
    },
  };
}

function bridgeJournal(): SalesJournal | undefined {
  const bridge = (window as unknown as Record<string, { journal?: Partial<SalesJournalBridge> } | undefined>)[KIOSK_BRIDGE];
  const journal = bridge?.journal;
  return journal && typeof journal.list === 'function' && typeof journal.put === 'function' && typeof journal.remove === 'function' ? (journal as SalesJournal) : undefined;
}

/**
 * One change after the other, in the order asked: a sale marked stored and
 * then removed when its receipt closes must never end up put back.
 */
function inOrder(journal: SalesJournal): SalesJournal {
  let last: Promise<unknown> = Promise.resolve();
  const queue = <T>(run: () => Promise<T>): Promise<T> => {
    const next = last.then(run, run);
    last = next.catch(() => {});
    return next;
  };
  return { list: () => queue(() => journal.list()), put: (entry) => queue(() => journal.put(entry)), remove: (orderId) => queue(() => journal.remove(orderId)) };
}

/** The desktop app's journal (a file per sale in its data folder) through the preload, or IndexedDB in a plain browser. */
export function openSalesJournal(): SalesJournal {
  return inOrder(bridgeJournal() ?? indexedDbJournal());
}
